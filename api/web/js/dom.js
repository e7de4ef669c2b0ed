// Building elements without innerHTML: every text the API gives is set as text, never parsed.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "text") {
      element.textContent = String(value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends children: elements, strings (as text), arrays of them; null and false are skipped. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** An HTML element: h("li", {class: "x", "data-seq": 3, onclick: f}, "text", child). */
export function h(tag, attributes, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element, the same way. */
export function s(tag, attributes, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

/** Replaces an element's children. */
export function fill(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** "medicine-man" -> "Medicine man"; "tepee-2" -> "Tepee 2". */
export function words(value) {
  const text = String(value).replaceAll("-", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A list in words: ["a", "b", "c"] -> "a, b and c". */
export function listed(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

export function seatName(seat) {
  return seat === null || seat === undefined ? "the referee" : `Seat ${seat}`;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

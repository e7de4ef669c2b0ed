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

// An open table's players by seat (null where a seat is open); null at a table whose creator
// seated every seat. Whatever is drawn or said names its seats by the names in force here:
// the page sets them (`nameSeats`), and a drawing of another moment brings its own (`withNames`).
let seatNames = null;

/** The names every seat is called by from now on (null: "Seat N" for every seat). */
export function nameSeats(names) {
  seatNames = names ?? null;
}

/** `draw()` with the seats named by `names` (as at one moment of the game), then as before. */
export function withNames(names, draw) {
  const before = seatNames;
  seatNames = names ?? null;
  try {
    return draw();
  } finally {
    seatNames = before;
  }
}

/** A seat as people read it: "Ann (seat 0)" where a player sat under a name, "Seat 0" where
 * none did; `note` goes in the same brackets ("Ann (seat 0, you)", "Seat 0 (you)"). */
export function seatNamed(seat, note = null) {
  if (seat === null || seat === undefined) return "the referee";
  const name = seatNames?.[seat];
  if (!name) return note ? `Seat ${seat} (${note})` : `Seat ${seat}`;
  const said = note ? `seat ${seat}, ${note}` : `seat ${seat}`;
  // A bot's name ends in brackets already: "Bot 2 (random, seat 1)", not "(random) (seat 1)".
  return name.endsWith(")") ? `${name.slice(0, -1)}, ${said})` : `${name} (${said})`;
}

/** A seat in words (one argument only: it is passed to `map` as it is). */
export function seatName(seat) {
  return seatNamed(seat);
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

// Pieces every drawing uses: cards face up and face down, zones that hold them, seat colours.
// Each drawn card names its value in `data-card` (and in words for assistive technology), each
// zone its place in `data-zone`, so that what is drawn can be read back and checked.

import { h, s, seatName, seatNamed, words } from "../dom.js";

export const HIDDEN = "hidden";
const SEAT_COLOURS = ["#c0392b", "#2471a3", "#229954", "#b9770e", "#7d3c98", "#17a589"];

export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

/** A card face up: `code` is its value for machines, `label` for people. */
export function card({ code, label, face = label, detail = null, tone = "plain", small = false }) {
  return h(
    "div",
    {
      class: `card tone-${tone}${small ? " small" : ""}${typeof face === "string" && face.length > 3 ? " long" : ""}`,
      "data-card": code,
      role: "img",
      "aria-label": label,
      title: label,
    },
    h("span", { class: "card-face" }, face),
    detail === null ? null : h("span", { class: "card-detail" }, detail),
  );
}

/** A card whose face this viewer may not see. */
export function hiddenCard(label = "a hidden card", small = false) {
  return h("div", {
    class: `card back${small ? " small" : ""}`,
    "data-card": HIDDEN,
    role: "img",
    "aria-label": label,
    title: label,
  });
}

/** A row of cards with a caption; `name` is its `data-zone`. */
export function zone(name, caption, cards, empty = "none") {
  return h(
    "div",
    { class: "zone", "data-zone": name, role: "group", "aria-label": caption },
    h("span", { class: "zone-caption" }, caption),
    h("div", { class: "cards" }, cards.length ? cards : h("span", { class: "empty" }, empty)),
  );
}

/** `count` face-down cards, or the cards themselves when the viewer may see them. */
export function handCards(cards, count, draw, owner) {
  if (cards === null || cards === undefined) {
    return Array.from({ length: count }, () => hiddenCard(`a card in ${seatName(owner)}'s hand`));
  }
  return cards.map(draw);
}

/** The panel of one seat, coloured as that seat everywhere. */
const GONE = { resignation: "resigned", timeout: "timed out" };

/** A seat's panel: its name (the player's, at an open table), marks ("to play"; "resigned" or
 * "timed out" once it has left, from `context.left`, seat -> how; for a seat nobody has taken,
 * from `context.open`, `context.openNote` or "open") and what it holds. */
export function seatPanel(seat, context, marks, ...children) {
  const gone = context.left?.get(seat);
  const open = context.open?.has(seat) ?? false;
  const openNote = context.openNote ?? "open: nobody sits here yet";
  const title = seatNamed(seat, context.viewer === seat ? "you" : null);
  const panel = h(
    "section",
    {
      class: `seat-panel${context.viewer === seat ? " you" : ""}${open ? " open" : ""}`,
      "data-seat": seat,
      "aria-label": open ? `${title}, ${openNote}` : title,
    },
    h("h3", {}, h("span", { class: "seat-dot", "aria-hidden": "true" }), title,
      open ? h("span", { class: "mark open", "data-open": "" }, openNote) : null,
      marks.filter(Boolean).map((mark) => h("span", { class: "mark" }, mark)),
      gone ? h("span", { class: "mark gone", "data-gone": gone }, GONE[gone] ?? gone) : null),
    children,
  );
  panel.style.setProperty("--seat", seatColour(seat)); // CSSOM: the pages allow no inline style
  return panel;
}

/** Facts as a definition list: [[term, value], ...]; null values are left out. */
export function facts(pairs, className = "facts") {
  return h(
    "dl",
    { class: className },
    pairs
      .filter(([, value]) => value !== null && value !== undefined && value !== "")
      .map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
  );
}

export const seatList = (seats) => seats.map(seatName);
export { words };

// Small pictures drawn here rather than taken from a font: a machine may have no emoji font.
const ICONS = {
  tepee: [["path", { d: "M10 2 2 18h16z M10 9l-3 9h6z", "fill-rule": "evenodd" }]],
  buffalo: [["ellipse", { cx: 11, cy: 12, rx: 7, ry: 5 }], ["circle", { cx: 4, cy: 9, r: 3 }], ["path", { d: "M2 5q1 2 3 2M6 5q-1 2-2 2", fill: "none", stroke: "currentColor" }]],
  totem: [["rect", { x: 6, y: 2, width: 8, height: 5, rx: 1 }], ["rect", { x: 6, y: 8, width: 8, height: 5, rx: 1 }], ["rect", { x: 6, y: 14, width: 8, height: 5, rx: 1 }], ["path", { d: "M2 4h4M14 4h4" , stroke: "currentColor" }]],
  horse: [["path", { d: "M5 3a5 5 0 0 0 0 14h2v-3H6a2 2 0 0 1 0-8h1V3zM15 3a5 5 0 0 1 0 14h-2v-3h1a2 2 0 0 0 0-8h-1V3z" }]],
  tomahawk: [["path", { d: "M4 18 14 4", stroke: "currentColor", "stroke-width": 2 }], ["path", { d: "M11 2l7 3-3 6-4-3z" }]],
  whirlpool: [["path", { d: "M10 10m-7 0a7 7 0 1 0 14 0a5 5 0 1 0-10 0a3 3 0 1 0 6 0", fill: "none", stroke: "currentColor", "stroke-width": 1.6 }]],
  lighthouse: [["path", { d: "M8 18 9 6h2l1 12z" }], ["path", { d: "M7 5h6l-3-3z" }], ["path", { d: "M3 6l4 1M17 6l-4 1", stroke: "currentColor" }]],
  bridge: [["path", { d: "M2 14q8-10 16 0v3h-2q-6-7-12 0H2z" }]],
  origin: [["path", { d: "M10 2l2.4 5.2 5.6.6-4.2 3.8 1.2 5.6L10 14.4 5 17.2l1.2-5.6L2 7.8l5.6-.6z" }]],
};

/** A named picture, 20 units square, in the current text colour. */
export function icon(name, size = 18) {
  const shapes = ICONS[name] ?? [];
  return s("svg", { viewBox: "0 0 20 20", width: size, height: size, class: `icon icon-${name}`, "aria-hidden": "true", fill: "currentColor" },
    shapes.map(([tag, attributes]) => s(tag, attributes)));
}

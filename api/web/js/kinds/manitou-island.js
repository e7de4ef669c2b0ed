// Manitou, the island game: the hex board of land, water and specialty cards, the islands,
// each seat's hand (the viewer's own only), each team's specialty cards and match totals.

import { h, listed, plural, s, seatName } from "../dom.js";
import { card, facts, handCards, icon, seatPanel, words, zone } from "./common.js";

const SIZE = 26; // a hex's radius, in SVG units
const SQRT3 = Math.sqrt(3);

// As referee/games/manitou_island/data.py lays out the land cards: day 1, day 1, day 2, ...,
// day 10, day 10, then night in the same order (ids 0 to 39).
export function landCard(id) {
  return { id, colour: id < 20 ? "day" : "night", number: Math.floor((id % 20) / 2) + 1 };
}
const landName = (value) => `${words(value.colour)} ${value.number}`;
const landCode = (value) => `${value.colour}-${value.number}`;
const place = (at) => `(${at.q}, ${at.r})`;

function centre(at) {
  return [SIZE * SQRT3 * (at.q + at.r / 2), SIZE * 1.5 * at.r];
}

function hexagon(at) {
  const [x, y] = centre(at);
  return Array.from({ length: 6 }, (_, corner) => {
    const angle = (Math.PI / 180) * (60 * corner - 30);
    return `${(x + SIZE * Math.cos(angle)).toFixed(1)},${(y + SIZE * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

function cellLabel(cell) {
  const what = cell.content === "land" ? landName(cell.card) : words(cell.content);
  const under = cell.card && cell.content !== "land" ? ` over ${landName(cell.card)}` : "";
  const team = cell.colour ? `, played by the ${cell.colour} team` : "";
  return `${what}${under}${team} at ${place(cell.at)}`;
}

function placed(picture, x, y) {
  picture.setAttribute("x", String(x - 11));
  picture.setAttribute("y", String(y - 11));
  return picture;
}

/** The hex's coordinates (q,r, as the API and the timeline's sentences name it), small, at its top. */
function coordinates(at, x, y) {
  return s("text", { class: "coords", x, y: y - SIZE / 2 - 1, "text-anchor": "middle", "data-coordinates": "", "aria-hidden": "true" },
    `${at.q},${at.r}`);
}

function boardCell(cell, islandOf) {
  const [x, y] = centre(cell.at);
  const colour = cell.card?.colour ?? cell.colour ?? "none";
  const mark = cell.content === "land" || cell.content === "water"
    ? s("text", { x, y: y + 5, "text-anchor": "middle" }, cell.content === "land" ? String(cell.card.number) : "")
    : placed(icon(cell.content, 22), x, y);
  return s("g", {
    class: `hex content-${cell.content} colour-${colour}${islandOf.has(`${cell.at.q},${cell.at.r}`) ? " island" : ""}`,
    "data-hex": `${cell.at.q},${cell.at.r}`,
    "data-content": cell.content,
    "data-card": cell.card ? landCode(cell.card) : null,
    role: "img",
    "aria-label": cellLabel(cell),
  },
  s("title", {}, cellLabel(cell)),
  s("polygon", { points: hexagon(cell.at) }),
  mark,
  coordinates(cell.at, x, y));
}

function board(view) {
  const cells = view.board;
  const spaces = view.borders?.spaces ?? [];
  const all = [...cells.map((cell) => cell.at), ...spaces];
  const xs = all.map((at) => centre(at)[0]);
  const ys = all.map((at) => centre(at)[1]);
  const pad = SIZE + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const occupied = new Set(cells.map((cell) => `${cell.at.q},${cell.at.r}`));
  const biggest = view.islands[0];
  const islandOf = new Set((biggest?.cells ?? []).map((at) => `${at.q},${at.r}`));
  return s("svg", { class: "hex-board", viewBox: box.map((n) => n.toFixed(1)).join(" "), role: "group",
    "aria-label": `The island board: ${plural(cells.length, "space")} filled` },
  spaces.filter((at) => !occupied.has(`${at.q},${at.r}`)).map((at) =>
    s("g", { class: "open-space", "aria-hidden": "true" },
      s("polygon", { class: "border-space", points: hexagon(at) }), coordinates(at, ...centre(at)))),
  cells.map((cell) => boardCell(cell, islandOf)));
}

const landFace = (value) => card({ code: landCode(value), label: landName(value), face: String(value.number), detail: words(value.colour), tone: value.colour });

function team(view, item) {
  const cards = item.specialty_cards === null
    ? handCards(null, item.specialty_left, null, item.seats[0])
    : item.specialty_cards.map((specialty) => card({
      code: specialty.id,
      label: `${listed(specialty.faces.map(words))}${specialty.played_face ? `, played as ${specialty.played_face}` : ", unused"}`,
      face: specialty.faces.map((face) => icon(face, 16)),
      detail: specialty.played_face ? words(specialty.played_face) : "unused",
      tone: specialty.played_face ? "played" : "specialty",
    }));
  return h("section", { class: "team", "data-team": item.team, "aria-label": `Team ${item.team}` },
    h("h3", {}, `Team ${item.team}: ${listed(item.seats.map(seatName))}${item.colour ? `, ${item.colour}` : ""}`),
    facts([["Match total", item.match_total], ["Specialty set", item.specialty_set], ["Specialty cards left", item.specialty_left]], "facts inline"),
    zone(`specialty-${item.team}`, "Specialty cards", cards));
}

export function draw(view, context) {
  const islands = view.islands.slice(0, 6).map((island) => `${words(island.colour)}: ${island.population}`);
  return h("div", { class: "manitou-island", "data-drawing": "manitou-island" },
    facts([
      ["Game", view.game],
      ["Now", words(view.stage)],
      ["To play", view.turn_seat === null ? null : seatName(view.turn_seat)],
      ["Cards in the pile", view.pile_size],
      ["Largest islands", islands.length ? islands.join(", ") : null],
      ["Match play", view.match_play ? `to ${view.match_target}` : null],
      ["Games finished", view.results.length ? view.results.map((result) =>
        result.winner_team === null ? `game ${result.game}: a draw` : `game ${result.game}: team ${result.winner_team}`).join("; ") : null],
    ]),
    board(view),
    h("div", { class: "seats" }, view.seats.map((item) => seatPanel(item.seat, context,
      [view.turn_seat === item.seat ? "to play" : null, `team ${item.team}`],
      zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, handCards(item.hand, item.hand_size, landFace, item.seat))))),
    h("div", { class: "teams" }, view.teams.map((item) => team(view, item))),
    view.pile ? zone("pile", "The pile, top first", view.pile.map(landFace)) : null);
}

const land = (id) => (id === null || id === undefined ? "a card" : landName(landCard(id)));
const flooded = (cells) => (cells?.length ? `; ${plural(cells.length, "card")} turn to water` : "");

export const sentences = {
  "manitou-island.first-player-drawn": (e) =>
    `To find the first player of game ${e.game}, ${listed(e.draws.map((draw) => `${seatName(draw.seat)} draws ${land(draw.card)}`))}.`,
  "manitou-island.game-dealt": (e) =>
    `Game ${e.game} is dealt: five cards each, ${plural(e.pile_size, "card")} in the pile; ${seatName(e.first_seat)} plays first.`,
  "manitou-island.specialty-played": (e) => `${seatName(e.seat)} plays a ${words(e.face)} at ${place(e.at)}${flooded(e.flooded)}.`,
  "manitou-island.land-played": (e) => `${seatName(e.seat)} plays ${land(e.card)} at ${place(e.at)}${flooded(e.flooded)}.`,
  "manitou-island.land-drawn": (e) => `${seatName(e.seat)} draws ${land(e.card)}.`,
  "manitou-island.game-ended": (e) =>
    `Game ${e.result.game} ends (${words(e.result.reason)}): ` +
    `${e.result.winner_team === null ? "a draw" : `team ${e.result.winner_team} wins`}; match totals ${e.totals.join(" to ")}.`,
};

// Wind River: the lanes of hexes with their buffalo and each player's teepees, the open plains
// to the east, and each player's stock, resources and teepees in the plains. Nothing is hidden.

import { h, listed, plural, s, seatName } from "../dom.js";
import { facts, seatColour, seatPanel, words } from "./common.js";

const SIZE = 30;
const SQRT3 = Math.sqrt(3);
const COLUMNS = 8;

// Lanes 1, 3 and 5 sit half a hex further east (referee/games/wind_river/board.py).
function centre(lane, column) {
  const row = lane - 1;
  return [SIZE * SQRT3 * (column - 1 + (row % 2 === 0 ? 0.5 : 0)) + SIZE, SIZE * 1.5 * row + SIZE];
}

function hexagon(x, y) {
  return Array.from({ length: 6 }, (_, corner) => {
    const angle = (Math.PI / 180) * (60 * corner - 30);
    return `${(x + SIZE * Math.cos(angle)).toFixed(1)},${(y + SIZE * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

const spaceName = (at) => `lane ${at.lane}, column ${at.column}`;
const target = (to) => (to === "open-plains" ? "the open plains" : spaceName(to));

function spaceLabel(space) {
  const teepees = space.teepees.map((count, seat) => (count ? `${plural(count, "teepee")} of ${seatName(seat)}` : null)).filter(Boolean);
  return `${words(spaceName(space))}: ${plural(space.buffalo, "buffalo", "buffalo")}${teepees.length ? `, ${listed(teepees)}` : ""}`;
}

function space(item) {
  const [x, y] = centre(item.lane, item.column);
  const buffalo = Array.from({ length: item.buffalo }, (_, index) =>
    s("circle", { class: "buffalo", cx: x - 12 + (index % 3) * 12, cy: y - 8 + Math.floor(index / 3) * 10, r: 5 }));
  const teepees = item.teepees.flatMap((count, seat) => Array.from({ length: count }, () => seat)).map((seat, index) => {
    const tx = x - 10 + index * 11;
    const ty = y + 14;
    return s("polygon", { class: "teepee", points: `${tx - 6},${ty} ${tx},${ty - 12} ${tx + 6},${ty}`, fill: seatColour(seat), "data-seat": seat });
  });
  return s("g", {
    class: `space${item.moved_buffalo ? " moved" : ""}`,
    "data-space": `${item.lane},${item.column}`,
    "data-buffalo": item.buffalo,
    "data-teepees": item.teepees.join(","),
    role: "img",
    "aria-label": spaceLabel(item),
  }, s("title", {}, spaceLabel(item)), s("polygon", { class: "cell", points: hexagon(x, y) }), buffalo, teepees);
}

function board(view) {
  const lanes = view.lanes;
  const width = SIZE * SQRT3 * (COLUMNS + 0.5) + 2 * SIZE + 70;
  const height = SIZE * 1.5 * 5 + 2 * SIZE + 4;
  const plainsX = SIZE * SQRT3 * (COLUMNS + 0.5) + SIZE;
  return s("svg", { class: "hex-board wind-river-board", viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, role: "group",
    "aria-label": `The river valley: lanes ${listed(lanes.map(String))}, west to east, the open plains beyond` },
  s("rect", { class: "plains", x: plainsX, y: 0, width: 70, height, rx: 8 }),
  s("text", { class: "plains-label", x: plainsX + 35, y: height / 2, "text-anchor": "middle",
    transform: `rotate(90 ${plainsX + 35} ${height / 2})` }, `open plains: ${plural(view.buffalo_in_plains, "buffalo", "buffalo")}`),
  view.spaces.map(space));
}

function player(view, item, context) {
  const marks = [view.current === item.seat && !view.finished ? "to play" : null, view.start_player === item.seat ? "start player" : null];
  return seatPanel(item.seat, context, marks, facts([
    ["Resources", item.resources],
    ["Teepees on the board", item.teepees_on_board],
    ["Teepees in stock", item.teepees_in_stock],
    ["Teepees in the open plains", item.teepees_in_plains],
  ], "facts inline"));
}

export function draw(view, context) {
  return h("div", { class: "wind-river", "data-drawing": "wind-river" },
    facts([
      ["Now", words(view.phase)],
      ["Turn", view.turn || null],
      ["Placement round", view.placement_round],
      ["Buffalo moves", view.phase === "moving-buffalo" ? `${view.buffalo_moves_made} made, ${view.buffalo_moves_due} due` : null],
      ["Unfed teepees", view.unfed.length ? listed(view.unfed.map(spaceName)) : null],
      ["Must send back", view.must_send_back || null],
      ["Buffalo on the board", view.buffalo_on_board],
      ["Buffalo out of play", view.buffalo_out_of_play || null],
      ["Ranking", view.ranking.length ? view.ranking.map((group) => listed(group.map(seatName))).join(", then ") : null],
    ]),
    board(view),
    h("div", { class: "seats" }, view.players.map((item) => player(view, item, context))));
}

export const sentences = {
  "wind-river.start-player-drawn": (e) => `${seatName(e.seat)} is drawn to start.`,
  "wind-river.teepee-placed": (e) => `${seatName(e.seat)} places a teepee on ${spaceName(e.at)} (set-up round ${e.round}).`,
  "wind-river.turn-began": (e) => `${seatName(e.seat)}'s turn ${e.turn} begins: ${plural(e.buffalo_moves, "buffalo move")} due.`,
  "wind-river.buffalo-moved": (e) => `${seatName(e.seat)} moves a buffalo from ${spaceName(e.from)} to ${target(e.to)}${e.extra ? " (extra activity)" : ""}.`,
  "wind-river.teepees-supplied": (e) =>
    `${seatName(e.seat)} supplies ${plural(e.unfed, "unfed teepee")}, paying ${plural(e.paid, "resource")}` +
    `${e.sent_back?.length ? `; ${plural(e.sent_back.length, "teepee")} sent back to the stock` : ""}.`,
  "wind-river.teepee-moved": (e) =>
    `${seatName(e.seat)} moves a teepee from ${spaceName(e.from)} to ${target(e.to)}` +
    `${e.paid_by?.length ? `; ${listed(e.paid_by.map(seatName))} pay a resource` : ""}.`,
  "wind-river.resources-earned": (e) => `${seatName(e.seat)} earns ${plural(e.earned, "resource")} (${e.counted} counted).`,
  "wind-river.teepee-inserted": (e) => `${seatName(e.seat)} puts a new teepee on ${spaceName(e.at)} for ${plural(e.paid, "resource")}.`,
  "wind-river.game-ended": (e) =>
    `The game ends: teepees in the open plains ${e.plains.map((count, seat) => `${seatName(seat)} ${count}`).join(", ")}.`,
};

// Manitou, the island game: the hex board of land, water and specialty cards, the islands,
// each seat's hand (the viewer's own only), each team's specialty cards and match totals.
//
// Playing (`context.play`): the seat's moves are offered on the drawing itself. A land card of
// the hand is chosen first, then one of the spaces it may go to (highlighted, each with its
// coordinates); a specialty card of the team the same way, with a choice of its face in between
// where both faces may be played. The choice is kept while the same commands are on offer.

import { fill, h, listed, plural, s, seatName } from "../dom.js";
import { card, facts, handCards, icon, seatPanel, words, zone } from "./common.js";

const SIZE = 26; // a hex's radius, in SVG units
const SQRT3 = Math.sqrt(3);
const LAND = "manitou-island.play-land";
const SPECIALTY = "manitou-island.play-specialty";
const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]; // referee/kernel/hexgrid.py

// As referee/games/manitou_island/data.py lays out the land cards: day 1, day 1, day 2, ...,
// day 10, day 10, then night in the same order (ids 0 to 39).
export function landCard(id) {
  return { id, colour: id < 20 ? "day" : "night", number: Math.floor((id % 20) / 2) + 1 };
}
const landName = (value) => `${words(value.colour)} ${value.number}`;
const landCode = (value) => `${value.colour}-${value.number}`;
const place = (at) => `(${at.q}, ${at.r})`;
const key = (at) => `${at.q},${at.r}`;
const neighbours = (at) => DIRECTIONS.map(([q, r]) => ({ q: at.q + q, r: at.r + r }));
/** "whirlpool-lighthouse" -> "whirlpool/lighthouse card". */
const specialtyName = (id) => `${String(id).split("-").join("/")} card`;

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

// -- the moves in words --------------------------------------------------------------------------

/** The cells of a view's board, by space. */
function cellsOf(view) {
  return new Map((view?.board ?? []).map((cell) => [key(cell.at), cell]));
}

function faceUp(cells, at) {
  const cell = cells.get(key(at));
  return cell && cell.content === "land" && cell.card ? cell : null;
}

/** The land cards a move turns to water, as the rules say (RULES.md; board.py): next to a land
 * card, those of its number and the other colour; next to a whirlpool, every one a lighthouse
 * does not protect. */
function drowned(command, cells) {
  if (command.type === LAND) {
    const value = landCard(command.card);
    return neighbours(command.at).map((at) => faceUp(cells, at))
      .filter((cell) => cell && cell.card.number === value.number && cell.card.colour !== value.colour);
  }
  if (command.type === SPECIALTY && command.face === "whirlpool") {
    const lit = (at) => neighbours(at).some((next) => cells.get(key(next))?.content === "lighthouse");
    return neighbours(command.at).map((at) => faceUp(cells, at)).filter((cell) => cell && !lit(cell.at));
  }
  return [];
}

function drownedWords(cells) {
  if (!cells.length) return "";
  const named = listed(cells.map((cell) => `${landName(cell.card)} at ${place(cell.at)}`));
  return `: ${named} ${cells.length === 1 ? "turns" : "turn"} to water`;
}

/** A command as a player reads it: "Play Day 3 at (1, 0)", "Play a whirlpool (from your
 * whirlpool/lighthouse card) at (2, -1): Night 3 at (1, -1) turns to water". */
export function commandWords(command, view) {
  const cells = cellsOf(view);
  if (command.type === LAND) {
    return `Play ${landName(landCard(command.card))} at ${place(command.at)}${drownedWords(drowned(command, cells))}`;
  }
  if (command.type === SPECIALTY) {
    const under = cells.get(key(command.at));
    const over = command.face === "lighthouse" && under?.card ? `, sacrificing your ${landName(under.card)}`
      : command.face === "bridge" ? " over the water" : "";
    return `Play a ${command.face} (from your ${specialtyName(command.card)}) at ${place(command.at)}${over}` +
      drownedWords(drowned(command, cells));
  }
  return null;
}

// -- the moves on the drawing --------------------------------------------------------------------

let chosen = null; // { offer, pick: { type: "land", card } | { type: "specialty", card, face } }

/** What the drawing offers: the commands by card and face, the choice made so far and the
 * commands it leaves (its targets on the board); null when the seat has no move now. */
function offers(view, context) {
  const play = context?.play ?? null;
  if (!play || !play.commands?.length) {
    chosen = null;
    return null;
  }
  const offer = JSON.stringify(play.commands);
  if (chosen && chosen.offer !== offer) chosen = null; // other moves now: the choice is gone
  const land = new Map(); // land card id -> its commands
  const specialty = new Map(); // specialty card id -> face -> its commands
  for (const command of play.commands) {
    if (command.type === LAND) {
      if (!land.has(command.card)) land.set(command.card, []);
      land.get(command.card).push(command);
    } else if (command.type === SPECIALTY) {
      if (!specialty.has(command.card)) specialty.set(command.card, new Map());
      const faces = specialty.get(command.card);
      if (!faces.has(command.face)) faces.set(command.face, []);
      faces.get(command.face).push(command);
    }
  }
  const pick = chosen?.pick ?? null;
  let targets = [];
  if (pick?.type === "land") targets = land.get(pick.card) ?? [];
  if (pick?.type === "specialty" && pick.face) targets = specialty.get(pick.card)?.get(pick.face) ?? [];
  return { play, offer, land, specialty, pick, targets, view };
}

/** Makes an element a move, or a step towards one: marked, focusable, said, clicked or keyed. */
function actionable(element, label, act) {
  element.setAttribute("data-play", "");
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", label);
  element.addEventListener("click", (event) => {
    event.preventDefault();
    act(false);
  });
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    act(true);
  });
  return element;
}

/** The seat the page plays (its moves are the ones on offer). */
const me = (view, context) => context?.viewer ?? view.viewer;

/** Sends a move: the choice is spent, whatever the answer. */
function send(moves, command) {
  chosen = null;
  moves.play.send(command);
}

// -- the board -----------------------------------------------------------------------------------

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

/** A space the chosen card may go to: highlighted, with its coordinates, and the move itself. */
function target(command, moves, occupied) {
  const [x, y] = centre(command.at);
  const said = commandWords(command, moves.view);
  return actionable(s("g", { class: `play-target${occupied ? " over" : ""}`, "data-target": key(command.at) },
    s("title", {}, said),
    s("polygon", { points: hexagon(command.at) }),
    occupied ? null : s("text", { class: "target-coords", x, y: y + 4, "text-anchor": "middle", "aria-hidden": "true" },
      `${command.at.q},${command.at.r}`)),
  said, () => send(moves, command));
}

function board(view, moves) {
  const cells = view.board;
  const spaces = view.borders?.spaces ?? [];
  // Every space a move may reach is inside the picture from the start, so that choosing a card
  // never moves the board.
  const reached = moves ? moves.play.commands.map((command) => command.at).filter(Boolean) : [];
  const all = [...cells.map((cell) => cell.at), ...spaces, ...reached];
  const xs = all.map((at) => centre(at)[0]);
  const ys = all.map((at) => centre(at)[1]);
  const pad = SIZE + 4;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
  // A small board (a game's first moves) is not blown up to the page's width: at least seven
  // hexes across and five rows, centred.
  const least = [SIZE * SQRT3 * 7, SIZE * 1.5 * 5];
  for (const axis of [0, 1]) {
    const more = least[axis] - box[axis + 2];
    if (more > 0) {
      box[axis] -= more / 2;
      box[axis + 2] += more;
    }
  }
  const occupied = new Set(cells.map((cell) => `${cell.at.q},${cell.at.r}`));
  const biggest = view.islands[0];
  const islandOf = new Set((biggest?.cells ?? []).map((at) => `${at.q},${at.r}`));
  return s("svg", { class: `hex-board${moves?.targets.length ? " choosing" : ""}`, viewBox: box.map((n) => n.toFixed(1)).join(" "), role: "group",
    "aria-label": `The island board: ${plural(cells.length, "space")} filled` },
  spaces.filter((at) => !occupied.has(`${at.q},${at.r}`)).map((at) =>
    s("g", { class: "open-space", "aria-hidden": "true" },
      s("polygon", { class: "border-space", points: hexagon(at) }), coordinates(at, ...centre(at)))),
  cells.map((cell) => boardCell(cell, islandOf)),
  (moves?.targets ?? []).map((command) => target(command, moves, occupied.has(key(command.at)))));
}

const landFace = (value) => card({ code: landCode(value), label: landName(value), face: String(value.number), detail: words(value.colour), tone: value.colour });

// -- choosing ------------------------------------------------------------------------------------

/** A land card of the hand, offered when it may be played: the first step of its moves. */
function handCard(value, moves, choose) {
  const drawn = landFace(value);
  const commands = moves?.land.get(value.id);
  if (!commands) return drawn;
  const picked = moves.pick?.type === "land" && moves.pick.card === value.id;
  drawn.classList.add("choosable");
  drawn.setAttribute("data-choose", `land-${value.id}`);
  if (picked) drawn.classList.add("chosen");
  drawn.setAttribute("aria-pressed", picked ? "true" : "false");
  const spaces = plural(commands.length, "space");
  drawn.setAttribute("title", picked ? `${landName(value)}, chosen: click again to cancel` : `Play ${landName(value)}: ${spaces} open to it`);
  return actionable(drawn, picked ? `${landName(value)} chosen; press again to cancel` : `Play ${landName(value)}, then choose one of ${spaces}`,
    (byKey) => choose(picked ? null : { type: "land", card: value.id }, byKey));
}

/** One of the team's specialty cards, offered when a face of it may be played. */
function specialtyCard(specialty, moves, choose) {
  const label = `${listed(specialty.faces.map(words))}${specialty.played_face ? `, played as ${specialty.played_face}` : ", unused"}`;
  const drawn = card({
    code: specialty.id,
    label,
    face: specialty.faces.map((face) => icon(face, 16)),
    detail: specialty.played_face ? words(specialty.played_face) : "unused",
    tone: specialty.played_face ? "played" : "specialty",
  });
  const faces = moves?.specialty.get(specialty.id);
  if (!faces) return drawn;
  const picked = moves.pick?.type === "specialty" && moves.pick.card === specialty.id;
  drawn.classList.add("choosable");
  drawn.setAttribute("data-choose", `specialty-${specialty.id}`);
  if (picked) drawn.classList.add("chosen");
  drawn.setAttribute("aria-pressed", picked ? "true" : "false");
  const open = listed([...faces.keys()].map((face) => `a ${face}`));
  drawn.setAttribute("title", picked ? `Your ${specialtyName(specialty.id)}, chosen: click again to cancel` : `Play ${open} from it`);
  return actionable(drawn, picked ? `Your ${specialtyName(specialty.id)} chosen; press again to cancel` : `Play your ${specialtyName(specialty.id)}: ${open}`,
    (byKey) => choose(picked ? null : { type: "specialty", card: specialty.id, face: faces.size === 1 ? [...faces.keys()][0] : null }, byKey));
}

const spacesToClick = (targets) => (targets.length === 1 ? "the highlighted space" : `one of the ${targets.length} highlighted spaces`);

/** The line above the board that says what to do next, and undoes a choice. */
function guide(moves, choose) {
  if (!moves) return null;
  const pick = moves.pick;
  const cancel = pick ? h("button", { type: "button", class: "cancel", "data-action": "cancel-choice", onclick: () => choose(null, true) }, "Cancel") : null;
  let text;
  let faces = null;
  if (!pick) {
    const specialty = moves.specialty.size ? ", or first one of your team's specialty cards (outlined below)" : "";
    text = moves.land.size
      ? `Your turn: choose a land card of your hand (outlined below), then a highlighted space${specialty}.`
      : "Your turn: choose one of your team's specialty cards (outlined below).";
  } else if (pick.type === "land") {
    text = `${landName(landCard(pick.card))} chosen: click ${spacesToClick(moves.targets)} to play it.`;
  } else if (!pick.face) {
    text = `Your ${specialtyName(pick.card)} chosen: which face do you play?`;
    const open = moves.specialty.get(pick.card) ?? new Map();
    faces = [...open.keys()].map((face) =>
      actionable(h("button", { type: "button", class: "face", "data-face": face }, icon(face, 18), ` ${words(face)}`),
        `Play a ${face}, then choose one of ${plural(open.get(face).length, "space")}`,
        (byKey) => choose({ ...pick, face }, byKey)));
  } else {
    text = `A ${pick.face} from your ${specialtyName(pick.card)} chosen: click ${spacesToClick(moves.targets)} to play it.`;
  }
  return h("div", { class: "play-guide", "data-choice": pick ? pick.type : "none", role: "status" },
    h("span", { class: "play-guide-text" }, text), faces, cancel);
}

function team(view, context, item, moves, choose) {
  const mine = moves && item.seats.includes(me(view, context));
  const cards = item.specialty_cards === null
    ? handCards(null, item.specialty_left, null, item.seats[0])
    : item.specialty_cards.map((specialty) => specialtyCard(specialty, mine ? moves : null, choose));
  return h("section", { class: "team", "data-team": item.team, "aria-label": `Team ${item.team}` },
    h("h3", {}, `Team ${item.team}: ${listed(item.seats.map(seatName))}${item.colour ? `, ${item.colour}` : ""}`),
    facts([["Match total", item.match_total], ["Specialty set", item.specialty_set], ["Specialty cards left", item.specialty_left]], "facts inline"),
    zone(`specialty-${item.team}`, "Specialty cards", cards));
}

/** Where the keyboard goes after a choice: to the next step, or back to the card let go. */
function focusAfter(pick, before) {
  if (!pick) return before ? `[data-choose="${before.type}-${before.card}"]` : null;
  if (pick.type === "specialty" && !pick.face) return "[data-face]";
  return "[data-target]";
}

export function draw(view, context) {
  const moves = offers(view, context);
  let root = null;
  // A choice draws the table again (the page redraws it too whenever the moves change).
  const choose = (pick, byKey = false) => {
    if (!moves) return;
    const before = chosen?.pick ?? null;
    chosen = pick ? { offer: moves.offer, pick } : null;
    const fresh = draw(view, context);
    root.replaceWith(fresh);
    const next = byKey ? focusAfter(pick, before) : null;
    if (next) fresh.querySelector(next)?.focus();
  };
  const islands = view.islands.slice(0, 6).map((island) => `${words(island.colour)}: ${island.population}`);
  root = h("div", {
    class: "manitou-island",
    "data-drawing": "manitou-island",
    onkeydown: (event) => {
      if (event.key === "Escape" && moves?.pick) choose(null, true);
    },
  },
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
  guide(moves, choose),
  board(view, moves),
  h("div", { class: "seats" }, view.seats.map((item) => seatPanel(item.seat, context,
    [view.turn_seat === item.seat ? "to play" : null, `team ${item.team}`],
    zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, handCards(item.hand, item.hand_size,
      (value) => handCard(value, item.seat === me(view, context) ? moves : null, choose), item.seat))))),
  h("div", { class: "teams" }, view.teams.map((item) => team(view, context, item, moves, choose))),
  view.pile ? zone("pile", "The pile, top first", view.pile.map(landFace)) : null);
  return root;
}

// -- the play panel's compact controls -------------------------------------------------------------

/** A card (or a specialty face) and a space, chosen from two lists, and a Play button: the
 * same moves as the drawing's, where a large board makes its spaces small. Only the commands
 * on offer are ever sent. */
let listPick = null; // { offer, what, where }: the controls' choice

export function controls(actions, view) {
  const commands = (actions?.commands ?? []).filter((command) => command.type === LAND || command.type === SPECIALTY);
  if (!commands.length) return null;
  const groups = new Map(); // what is played -> its commands (two copies of one land card: once)
  const copies = new Map(); // land card code -> the id listed for it
  for (const command of commands) {
    let name;
    let label;
    if (command.type === LAND) {
      const value = landCard(command.card);
      if (copies.has(landCode(value)) && copies.get(landCode(value)) !== command.card) continue;
      copies.set(landCode(value), command.card);
      name = `land-${command.card}`;
      label = landName(value);
    } else {
      name = `specialty-${command.card}-${command.face}`;
      label = `${words(command.face)} (your ${specialtyName(command.card)})`;
    }
    if (!groups.has(name)) groups.set(name, { label, commands: [] });
    groups.get(name).commands.push(command);
  }
  const names = [...groups.keys()];
  // The panel is drawn anew whenever the page reads the game again: what was picked stays
  // picked while the same moves are on offer.
  const offer = JSON.stringify(commands);
  if (listPick?.offer !== offer) listPick = { offer, what: names[0], where: "0" };
  const what = h("select", { "data-control": "what", "aria-label": "What to play" },
    names.map((name) => h("option", { value: name, selected: name === listPick.what }, groups.get(name).label)));
  const where = h("select", { "data-control": "where", "aria-label": "Where to play it" });
  const cells = cellsOf(view);
  const spaces = () => {
    const group = groups.get(what.value);
    fill(where, group.commands.map((command, index) =>
      h("option", { value: String(index), selected: String(index) === listPick.where }, `${place(command.at)}${drownedWords(drowned(command, cells))}`)));
  };
  what.addEventListener("change", () => {
    listPick = { offer, what: what.value, where: "0" };
    spaces();
  });
  where.addEventListener("change", () => {
    listPick = { ...listPick, where: where.value };
  });
  spaces();
  const play = h("button", { type: "button", "data-control": "play", onclick: () => {
    const command = groups.get(what.value)?.commands[Number(where.value)];
    if (command) actions.send(command);
  } }, "Play");
  return h("div", { class: "manitou-island-controls", role: "group", "aria-label": "Play a card by name and space" },
    h("label", {}, "Play ", what), h("label", {}, "at ", where), play);
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

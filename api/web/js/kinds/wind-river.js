// Wind River: the lanes of hexes with their buffalo and each player's teepees, the open plains
// to the east, and each player's stock, resources and teepees in the plains. Nothing is hidden.
//
// Playing (`context.play`): the board offers the moves. A space to place a teepee on is one
// click; a buffalo herd, one of your teepees, or a new teepee from your stock is picked first,
// then where it goes (a space, or the open plains); teepees sent back for want of supply are
// picked one by one. Earning resources, which has no place on the board, is a button of the
// play panel (`controls`).

import { fill, h, listed, plural, s, seatName } from "../dom.js";
import { facts, icon, seatColour, seatPanel, words } from "./common.js";

const SIZE = 30;
const SQRT3 = Math.sqrt(3);
const COLUMNS = 8;
const HALF = (SIZE * SQRT3) / 2; // half a hex's width
const SPLIT = 5; // below the centre: buffalo above this line, teepees under it
const PLAINS = "open-plains";
const STOCK_LIMIT = 10;
const INSERT_COST = 3;

// Lanes 1, 3 and 5 sit half a hex further east (referee/games/wind_river/board.py).
function centre(lane, column) {
  const row = lane - 1;
  return [SIZE * SQRT3 * (column - 1 + (row % 2 === 0 ? 0.5 : 0)) + SIZE, SIZE * 1.5 * row + SIZE];
}

function hexagon(x, y, radius = SIZE) {
  return Array.from({ length: 6 }, (_, corner) => {
    const angle = (Math.PI / 180) * (60 * corner - 30);
    return `${(x + radius * Math.cos(angle)).toFixed(1)},${(y + radius * Math.sin(angle)).toFixed(1)}`;
  }).join(" ");
}

const points = (pairs) => pairs.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
const upperHalf = (x, y) => points([[x - HALF, y + SPLIT], [x - HALF, y - SIZE / 2], [x, y - SIZE], [x + HALF, y - SIZE / 2], [x + HALF, y + SPLIT]]);
const lowerHalf = (x, y) => points([[x - HALF, y + SPLIT], [x + HALF, y + SPLIT], [x + HALF, y + SIZE / 2], [x, y + SIZE], [x - HALF, y + SIZE / 2]]);

const spaceName = (at) => `lane ${at.lane}, column ${at.column}`;
const target = (to) => (to === PLAINS ? "the open plains" : spaceName(to));
const keyOf = (at) => (at === PLAINS ? PLAINS : `${at.lane},${at.column}`);
const atKey = (key) => {
  if (key === PLAINS) return PLAINS;
  const [lane, column] = key.split(",").map(Number);
  return { lane, column };
};

function spaceLabel(space) {
  const teepees = space.teepees.map((count, seat) => (count ? `${plural(count, "teepee")} of ${seatName(seat)}` : null)).filter(Boolean);
  return `${words(spaceName(space))}: ${plural(space.buffalo, "buffalo", "buffalo")}${teepees.length ? `, ${listed(teepees)}` : ""}`;
}

function buffaloAt(item) {
  const [x, y] = centre(item.lane, item.column);
  return Array.from({ length: item.buffalo }, (_, index) =>
    s("circle", { class: "buffalo", cx: x - 12 + (index % 3) * 12, cy: y - 12 + Math.floor(index / 3) * 10, r: 5 }));
}

function teepeesAt(item) {
  const [x, y] = centre(item.lane, item.column);
  const owners = item.teepees.flatMap((count, seat) => Array.from({ length: count }, () => seat));
  const step = owners.length > 1 ? Math.min(11, 36 / (owners.length - 1)) : 0;
  return owners.map((seat, index) => {
    const tx = x + (index - (owners.length - 1) / 2) * step;
    const ty = y + 19;
    return s("polygon", { class: "teepee", points: `${tx - 6},${ty} ${tx},${ty - 12} ${tx + 6},${ty}`, fill: seatColour(seat), "data-seat": seat });
  });
}

function space(item) {
  const [x, y] = centre(item.lane, item.column);
  return s("g", {
    class: `space${item.moved_buffalo ? " moved" : ""}`,
    "data-space": `${item.lane},${item.column}`,
    "data-buffalo": item.buffalo,
    "data-teepees": item.teepees.join(","),
    role: "img",
    "aria-label": spaceLabel(item),
  }, s("title", {}, spaceLabel(item)), s("polygon", { class: "cell", points: hexagon(x, y) }), buffaloAt(item), teepeesAt(item));
}

// -- the moves in words ---------------------------------------------------------------------------

/** Which way a step goes on the board: "east", "north-west", ... */
function direction(from, to) {
  if (to === PLAINS) return "east";
  const [x1, y1] = centre(from.lane, from.column);
  const [x2, y2] = centre(to.lane, to.column);
  const side = x2 > x1 ? "east" : "west";
  return y2 === y1 ? side : `${y2 < y1 ? "north" : "south"}-${side}`;
}

const viewSpace = (view, at) => view?.spaces?.find((item) => item.lane === at.lane && item.column === at.column) ?? null;
const resourcesOf = (view, seat) => view?.players?.find((item) => item.seat === seat)?.resources ?? 0;

/** Who pays to have a teepee enter `to` (5.3.1, WR-R4): nobody unless another player has a
 * teepee there; then everyone there with a resource, the mover too. */
function entryPayers(view, to) {
  if (!view || to === PLAINS) return [];
  const there = viewSpace(view, to);
  const mover = view.current;
  if (!there || !there.teepees.some((count, seat) => count && seat !== mover)) return [];
  return there.teepees.flatMap((count, seat) => ((count || seat === mover) && resourcesOf(view, seat) >= 1 ? [seat] : []));
}

/** What earning would bring the player to act now (5.3.2, WR-5): [counted, earned]. */
function earnings(view) {
  const seat = view.current;
  const counted = Math.max(0, view.spaces
    .filter((item) => item.teepees[seat] && item.teepees.every((count, other) => other === seat || !count))
    .reduce((sum, item) => sum + item.buffalo - item.teepees[seat], 0));
  return [counted, Math.min(counted, STOCK_LIMIT - resourcesOf(view, seat))];
}

/** What entering `to` costs, in words ("" when nothing is known of the table). */
function feeWords(view, to) {
  if (to === PLAINS) return "it scores there; entering is free";
  const payers = entryPayers(view, to);
  if (!payers.length) return "";
  const others = payers.filter((seat) => seat !== view.current).map(seatName);
  return others.length
    ? `entering costs you a resource, and ${listed(others)} ${others.length === 1 ? "pays" : "pay"} one too`
    : "entering costs you a resource";
}

/** Spaces in words, each named once with its count: "2 teepees on lane 3, column 2 and ...". */
function teepeesOn(spaces) {
  const counts = new Map();
  for (const at of spaces) counts.set(keyOf(at), (counts.get(keyOf(at)) ?? 0) + 1);
  return listed([...counts].map(([key, count]) => `${count === 1 ? "the teepee" : `${count} teepees`} on ${spaceName(atKey(key))}`));
}

function buffaloMove(command, extra) {
  const to = command.to === PLAINS ? "into the open plains (it leaves the game)" : `to ${spaceName(command.to)} (${direction(command.from, command.to)})`;
  return `${extra ? "Extra activity: move one more buffalo" : "Move a buffalo"} from ${spaceName(command.from)} ${to}`;
}

const WORDS = {
  "wind-river.place-teepee": (command, view) => {
    const there = viewSpace(view, command.at);
    const herd = there ? ` (${there.buffalo ? plural(there.buffalo, "buffalo", "buffalo") : "no buffalo"} there)` : "";
    return `Place a teepee on ${spaceName(command.at)}${herd}`;
  },
  "wind-river.move-buffalo": (command) => buffaloMove(command, false),
  "wind-river.move-extra-buffalo": (command) => buffaloMove(command, true),
  "wind-river.send-back-teepees": (command) => (command.spaces.length
    ? `Send back to your stock ${teepeesOn(command.spaces)}`
    : "Send back no teepee"),
  "wind-river.move-teepee": (command, view) => {
    const fee = feeWords(view, command.to);
    return command.to === PLAINS
      ? `Move your teepee from ${spaceName(command.from)} into the open plains (${fee})`
      : `Move your teepee from ${spaceName(command.from)} to ${spaceName(command.to)} (${[direction(command.from, command.to), fee].filter(Boolean).join("; ")})`;
  },
  "wind-river.earn-resources": (command, view) => {
    if (!view?.spaces) return "Earn resources now";
    const [counted, earned] = earnings(view);
    if (!earned) return counted ? "Earn nothing: your stock is full" : "Earn nothing (no spare buffalo where only you have teepees)";
    return `Earn ${plural(earned, "resource")}${earned < counted ? ` (${counted} counted; your stock holds at most ${STOCK_LIMIT})` : ""}`;
  },
  "wind-river.insert-teepee": (command) => `Pay ${INSERT_COST} resources for a new teepee from your stock on ${spaceName(command.at)}`,
};

/** A wind-river command as a player reads it (null for another kind's: said plainly elsewhere). */
export function commandWords(command, view) {
  const say = WORDS[command?.type];
  return say ? say(command, view) : null;
}

// -- the moves on the board -----------------------------------------------------------------------

// What the person has picked, kept while the same moves are on offer: a piece ("herd", "teepee"
// or "stock", at a space's key or null) whose destination is still to come, or the teepees picked
// so far to send back.
let chosen = null;

/** The moves on offer, by what is clicked to make them. */
function offered(play) {
  if (!play || !play.commands?.length) return null;
  const offer = { play, key: JSON.stringify(play.commands), place: new Map(), herd: new Map(), teepee: new Map(),
    insert: [], sendBack: [], earn: null };
  const add = (map, key, command) => map.set(key, [...(map.get(key) ?? []), command]);
  for (const command of play.commands) {
    switch (command.type) {
      case "wind-river.place-teepee": add(offer.place, keyOf(command.at), command); break;
      case "wind-river.move-buffalo":
      case "wind-river.move-extra-buffalo": add(offer.herd, keyOf(command.from), command); break;
      case "wind-river.move-teepee": add(offer.teepee, keyOf(command.from), command); break;
      case "wind-river.insert-teepee": offer.insert.push(command); break;
      case "wind-river.send-back-teepees": offer.sendBack.push(command); break;
      case "wind-river.earn-resources": offer.earn = command; break;
      default: break;
    }
  }
  return offer;
}

/** The commands a picked piece leads to. */
function pieceCommands(offer, pick) {
  if (pick.piece === "herd") return offer.herd.get(pick.at) ?? [];
  if (pick.piece === "teepee") return offer.teepee.get(pick.at) ?? [];
  if (pick.piece === "stock") return offer.insert;
  return [];
}

const counted = (keys) => keys.reduce((map, key) => map.set(key, (map.get(key) ?? 0) + 1), new Map());

/** The send-back choices that still hold the teepees picked so far. */
function sendBackLeft(offer, picks) {
  const want = counted(picks);
  return offer.sendBack.filter((command) => {
    const has = counted(command.spaces.map(keyOf));
    return [...want].every(([key, count]) => (has.get(key) ?? 0) >= count);
  });
}

/** The spaces where one more teepee may be picked to send back. */
function sendBackNext(offer, picks) {
  const want = counted(picks);
  const next = new Set();
  for (const command of sendBackLeft(offer, picks)) {
    const has = counted(command.spaces.map(keyOf));
    for (const [key, count] of has) if (count > (want.get(key) ?? 0)) next.add(key);
  }
  return next;
}

const PIECE_NAMES = {
  herd: (at) => `the buffalo on ${spaceName(atKey(at))}`,
  teepee: (at) => `your teepee on ${spaceName(atKey(at))}`,
  stock: () => "a new teepee from your stock",
};

/** Makes an element a move: clicked, or Enter or Space on it, does `act`. */
function actionable(element, play, label, act) {
  element.setAttribute("data-play", play);
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", label);
  if (element instanceof SVGElement) element.append(s("title", {}, label)); // a tooltip, as `title` does in HTML
  else element.setAttribute("title", label);
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    act(false);
  });
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(true);
    } else if (event.key === "Escape" && chosen) {
      event.preventDefault();
      cancel(true);
    }
  });
  return element;
}

// The drawing on the page now, redrawn in place when a pick changes.
let redraw = () => {};
let cancel = () => {};

/** A handle on the board: an area that is hit (`hit`: polygon points) and a ring drawn around
 * what it stands for (`ring`: an SVG element). */
function handle(kind, at, hit, ring, label, act, extra = {}) {
  const group = s("g", { class: `handle handle-${kind}`, "data-at": at, ...extra },
    s("polygon", { class: "hit", points: hit }), ring);
  return actionable(group, kind, label, act);
}

const herdRing = (x, y) => s("rect", { class: "ring", x: x - 20, y: y - 20, width: 40, height: 20 + SPLIT - 1, rx: 7 });
const teepeeRing = (x, y) => s("rect", { class: "ring", x: x - 21, y: y + SPLIT + 1, width: 42, height: 16, rx: 6 });
const hexRing = (x, y) => s("polygon", { class: "ring", points: hexagon(x, y, SIZE - 3) });

/** The handles of the board: what may be clicked on it now. */
function handles(view, offer, plainsBox) {
  if (!offer) return null;
  const send = (command) => {
    chosen = null;
    offer.play.send(command);
  };
  const pick = (next, keyboard) => {
    chosen = { key: offer.key, ...next };
    redraw(keyboard);
  };
  const items = [];
  const destination = (command) => {
    const label = commandWords(command, view);
    const at = command.type === "wind-river.insert-teepee" ? command.at : command.to;
    if (at === PLAINS) {
      const { x, y, width, height } = plainsBox;
      return handle("to", PLAINS, points([[x, y], [x + width, y], [x + width, y + height], [x, y + height]]),
        s("rect", { class: "ring", x: x + 3, y: y + 3, width: width - 6, height: height - 6, rx: 8 }),
        label, () => send(command), { "data-command-type": command.type });
    }
    const [x, y] = centre(at.lane, at.column);
    return handle("to", keyOf(at), hexagon(x, y), hexRing(x, y), label, () => send(command), { "data-command-type": command.type });
  };

  if (chosen && chosen.piece !== "send-back") {
    // A piece is picked: where it may go, and the piece itself (clicked again, it is put down).
    const commands = pieceCommands(offer, chosen);
    if (chosen.at !== null) {
      const at = atKey(chosen.at);
      const [x, y] = centre(at.lane, at.column);
      const ring = chosen.piece === "herd" ? herdRing(x, y) : teepeeRing(x, y);
      const hit = chosen.piece === "herd" ? upperHalf(x, y) : lowerHalf(x, y);
      items.push(handle("chosen", chosen.at, hit, ring, `Put back ${PIECE_NAMES[chosen.piece](chosen.at)}: choose another move`,
        (keyboard) => cancel(keyboard)));
    }
    items.push(commands.map(destination));
    return s("g", { class: "handles picking" }, items);
  }

  if (offer.sendBack.length) {
    const picks = chosen?.piece === "send-back" ? chosen.picks : [];
    const must = offer.sendBack[0].spaces.length;
    for (const key of sendBackNext(offer, picks)) {
      const more = [...picks, key];
      const complete = more.length >= must ? sendBackLeft(offer, more) : [];
      const [x, y] = centre(atKey(key).lane, atKey(key).column);
      const label = complete.length === 1 ? commandWords(complete[0], view)
        : `Pick the teepee on ${spaceName(atKey(key))} to send back (${more.length} of ${must})`;
      items.push(handle("send-back", key, hexagon(x, y), teepeeRing(x, y), label,
        (keyboard) => (complete.length === 1 ? send(complete[0]) : pick({ piece: "send-back", at: null, picks: more }, keyboard)),
        complete.length === 1 ? { "data-command-type": complete[0].type } : {}));
    }
    // The teepees picked so far, marked (and counted where several on one space are).
    for (const [key, count] of counted(picks)) {
      const [x, y] = centre(atKey(key).lane, atKey(key).column);
      items.push(s("g", { class: "picked-mark", "data-picked": key, "aria-hidden": "true" },
        s("rect", { class: "ring", x: x - 23, y: y + SPLIT - 1, width: 46, height: 20, rx: 7 }),
        count > 1 ? s("text", { x: x + 20, y: y + SPLIT + 2, "text-anchor": "middle" }, `${count}`) : null));
    }
    return s("g", { class: "handles" }, items);
  }

  for (const item of view.spaces) {
    const key = keyOf(item);
    const [x, y] = centre(item.lane, item.column);
    const placing = offer.place.get(key);
    if (placing) {
      items.push(handle("place", key, hexagon(x, y), hexRing(x, y), commandWords(placing[0], view), () => send(placing[0]),
        { "data-command-type": placing[0].type }));
    }
    const herd = offer.herd.get(key);
    const teepee = offer.teepee.get(key);
    const both = herd && teepee; // one space, two pieces: each takes its half of the hex
    if (herd) {
      const extra = herd[0].type === "wind-river.move-extra-buffalo";
      const label = `${extra ? "Extra activity: move one more buffalo" : "Move a buffalo"} from ${spaceName(item)}: ` +
        `choose where it goes (${plural(herd.length, "way")})`;
      items.push(handle("buffalo", key, both ? upperHalf(x, y) : hexagon(x, y), herdRing(x, y), label,
        (keyboard) => pick({ piece: "herd", at: key }, keyboard)));
    }
    if (teepee) {
      const label = `Move your teepee from ${spaceName(item)}: choose where it goes (${plural(teepee.length, "way")})`;
      items.push(handle("teepee", key, both ? lowerHalf(x, y) : hexagon(x, y), teepeeRing(x, y), label,
        (keyboard) => pick({ piece: "teepee", at: key }, keyboard)));
    }
  }
  return s("g", { class: "handles" }, items);
}

function board(view, offer) {
  const lanes = view.lanes;
  const width = SIZE * SQRT3 * (COLUMNS + 0.5) + 2 * SIZE + 70;
  // From the first lane in play: with three players the northern lane is left out, and so is
  // its room on the board.
  const top = SIZE * 1.5 * (Math.min(...lanes) - 1);
  const height = SIZE * 1.5 * 5 + 2 * SIZE + 4 - top;
  const middle = top + height / 2;
  const plainsX = SIZE * SQRT3 * (COLUMNS + 0.5) + SIZE;
  const plainsBox = { x: plainsX, y: top, width: 70, height };
  return s("svg", { class: `hex-board wind-river-board${offer ? " playing" : ""}`, viewBox: `0 ${top} ${width.toFixed(0)} ${height.toFixed(0)}`, role: "group",
    "aria-label": `The river valley: lanes ${listed(lanes.map(String))}, west to east, the open plains beyond` },
  s("rect", { class: "plains", x: plainsX, y: top, width: 70, height, rx: 8 }),
  s("text", { class: "plains-label", x: plainsX + 35, y: middle, "text-anchor": "middle",
    transform: `rotate(90 ${plainsX + 35} ${middle})` }, `open plains: ${plural(view.buffalo_in_plains, "buffalo", "buffalo")}`),
  view.spaces.map(space),
  handles(view, offer, plainsBox));
}

/** Your stock, as a piece to pick when a new teepee may be bought (5.3.3). */
function stock(view, offer, item) {
  if (!offer?.insert.length || item.seat !== view.current) return null;
  const picked = chosen?.piece === "stock";
  // What it says is where its name starts (for those who speak to their screen).
  const said = picked ? "New teepee picked: click its space on the board, or here to put it back"
    : `Add a teepee from your stock (${INSERT_COST} resources)`;
  const element = h("div", { class: `wr-stock${picked ? " chosen" : ""}` }, icon("tepee"), ` ${said}`);
  return actionable(element, picked ? "chosen" : "stock",
    picked ? said : `${said}: then choose its space (${plural(offer.insert.length, "way")})`,
    (keyboard) => {
      if (picked) cancel(keyboard);
      else {
        chosen = { key: offer.key, piece: "stock", at: null };
        redraw(keyboard);
      }
    });
}

function player(view, item, context, offer) {
  const marks = [view.current === item.seat && !view.finished ? "to play" : null, view.start_player === item.seat ? "start player" : null];
  return seatPanel(item.seat, context, marks, facts([
    ["Resources", item.resources],
    ["Teepees on the board", item.teepees_on_board],
    ["Teepees in stock", item.teepees_in_stock],
    ["Teepees in the open plains", item.teepees_in_plains],
  ], "facts inline"), stock(view, offer, item));
}

/** The line above the board that says what to click, what is picked, and how to put it back. */
function prompt(view, offer) {
  if (!offer) return null;
  const undo = h("button", { type: "button", class: "wr-cancel", "data-cancel": "", onclick: () => cancel(false) }, "Cancel");
  let text;
  if (chosen?.piece === "send-back") {
    const must = offer.sendBack[0].spaces.length;
    text = `Picked to send back: ${teepeesOn(chosen.picks.map(atKey))} (${chosen.picks.length} of ${must}). Pick the next one on the board.`;
  } else if (chosen) {
    const ways = pieceCommands(offer, chosen).length;
    text = `${words(PIECE_NAMES[chosen.piece](chosen.at))} picked: click where it goes, ${ways === 1 ? "outlined" : `one of the ${ways} outlined places`}.`;
  } else {
    return h("p", { class: "wr-prompt", "data-prompt": "" }, hint(view, offer));
  }
  return h("p", { class: "wr-prompt picking", "data-prompt": "picked" }, text, " ", undo);
}

/** What the board offers now, in a sentence. */
function hint(view, offer, panel = false) {
  if (offer.place.size) return "Your move: click an outlined space to place a teepee there (buffalo there feed it).";
  if (offer.sendBack.length) {
    const must = offer.sendBack[0].spaces.length;
    return `Your stock cannot feed every teepee: click ${must === 1 ? "the teepee" : `the ${must} teepees`} to send back to your stock.`;
  }
  const parts = [];
  if (offer.herd.size) parts.push(offer.earn === null ? "move a buffalo: click a herd, then where it goes (straight or diagonally east)"
    : "move one more buffalo (click a herd, then where it goes)");
  if (offer.teepee.size) parts.push("move one of your teepees (click it, then where it goes)");
  if (offer.insert.length) parts.push(`add a teepee from your stock (click "Add a teepee" under your seat, then its space)`);
  if (offer.earn) parts.push(panel ? "earn resources (the button below)" : "earn resources (the button in the play panel above)");
  const due = view.phase === "moving-buffalo" && view.buffalo_moves_due
    ? ` (${plural(view.buffalo_moves_due, "buffalo move")} still due)` : "";
  const either = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}` : parts.join("");
  return parts.length ? `Your move${due}: ${offer.earn ? "one extra activity: " : ""}${either}.` : "Your move: see the play panel.";
}

export function draw(view, context) {
  const offer = offered(context.play);
  if (!offer || chosen?.key !== offer.key) chosen = null;
  const root = h("div", { class: "wind-river", "data-drawing": "wind-river" });
  const render = (keyboard) => {
    fill(root,
      prompt(view, offer),
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
      board(view, offer),
      h("div", { class: "seats" }, view.players.map((item) => player(view, item, context, offer))));
    if (keyboard) {
      // A keyboard player goes on from where the pick left them: the first place to go to.
      const next = ['[data-play="to"]', '[data-play="send-back"]', '[data-play="chosen"]', "[data-play]"]
        .map((selector) => root.querySelector(selector)).find(Boolean);
      next?.focus();
    }
  };
  if (offer) {
    redraw = render;
    cancel = (keyboard) => {
      const was = chosen;
      chosen = null;
      render(false);
      if (keyboard && was) {
        const back = was.piece === "stock" ? root.querySelector('[data-play="stock"]')
          : root.querySelector(`[data-play][data-at="${was.at ?? ""}"]`) ?? root.querySelector("[data-play]");
        back?.focus();
      }
    };
  }
  render(false);
  return root;
}

/** The play panel's part: what the board offers, in a sentence, and the button to earn
 * resources (the one move with no place on the board). Only moves on offer are offered. */
export function controls(actions, view) {
  const offer = offered(actions);
  if (!offer) return null;
  const earn = offer.earn
    ? h("button", { type: "button", class: "wr-earn", "data-control": "earn", "data-command-type": offer.earn.type,
      onclick: () => actions.send(offer.earn) }, commandWords(offer.earn, view))
    : null;
  return h("div", { class: "wr-controls", "data-controls": "wind-river" },
    h("p", { class: "note" }, view ? hint(view, offer, true) : "Your move: the board offers it."), earn);
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

// Big Manitou: the three hunting grounds with their booty and the cards played there, each
// player's hand (the viewer's own only), pile and booty, the Totem and the Horse.
//
// Playing (`context.play`, and the play panel's `controls`): each decision of a hunt is offered
// where a player makes it at the table. The hunt's cards are chosen in secret, everyone at once:
// the seat's cards are picked one by one (on the table or in the panel), then sent together, and
// nobody sees another's choice. A card of the hand, then one of the hunting grounds it may go to
// (the Totem's eighth card the same way, or a pass); the Horse: one of the seat's Hunters on the
// table, then another ground (or a pass); the booty tiles of the ground being evaluated, one or
// two one after the other; the tile given to the Leather Thief. A choice under way is kept while
// the same moves are on offer, and only moves on offer are ever sent.

import { h, listed, plural, seatName } from "../dom.js";
import { card, facts, handCards, icon, seatColour, seatPanel, words, zone } from "./common.js";

const CHOOSE = "big-manitou.choose-cards";
const PLAY = "big-manitou.play-card";
const MOVE = "big-manitou.move-hunter";
const PASS = "big-manitou.pass";
const TAKE = "big-manitou.take-tiles";
const DISCARD = "big-manitou.discard-tile";

// A player's cards in their canonical order (referee/games/big_manitou/data.py, CARD_SET).
const CARD_SET = [...Array.from({ length: 10 }, (_, index) => `hunter-${index + 1}`),
  "chief", "chief", "squaw", "squaw", "rain-maker", "scout", "medicine-man"];

export const cardName = (kind) => (kind ? words(kind) : "a hidden card");
export function tileName(kind) {
  const [name, count] = kind.split("-");
  if (name === "tepee") return `${count} ${count === "1" ? "Tepee" : "Tepees"}`;
  if (name === "buffalo") return `${count} Buffalo`;
  return words(kind);
}

const isHunter = (kind) => kind.startsWith("hunter-");

function counted(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** Cards in words, identical ones counted: "Hunter 1, Hunter 4, 2 Chiefs and Scout". */
export function cardsSaid(cards) {
  return listed([...counted(cards)].map(([kind, count]) => (count === 1 ? cardName(kind) : `${count} ${cardName(kind)}s`)));
}

/** A booty tile in a sentence: "2 Tepees", "3 Buffalo", "a Totem". */
const tileSaid = (kind) => (/^(tepee|buffalo)-/.test(kind) ? tileName(kind) : `a ${words(kind)}`);
const tilesSaid = (tiles) => listed([...counted(tiles)].map(([kind, count]) =>
  (count === 1 ? tileSaid(kind) : `${count} tiles of ${tileName(kind)}`)));

/** A multiset's key: identical cards or tiles are one value (BM-R11), order does not matter. */
const setKey = (items) => [...items].sort().join(",");

const groundSaid = (index) => `hunting ground ${index + 1}`;

/** Where the seat's own card lies on the table (its ground), or null. */
function groundOf(view, seat, kind) {
  const index = (view?.grounds ?? []).findIndex((ground) => ground.cards.some((placed) => placed.card === kind && placed.owner === seat));
  return index < 0 ? null : index;
}

// -- the moves in words --------------------------------------------------------------------------

/** A command as a player reads it: "Play Hunter 5 in hunting ground 2." */
export function commandWords(command, view) {
  const phase = view?.phase;
  switch (command.type) {
    case CHOOSE:
      return `Choose in secret, for this hunt: ${cardsSaid(command.cards)}.`;
    case PLAY:
      return `Play ${cardName(command.card)} in ${groundSaid(command.ground)}` +
        `${phase === "eighth-card" ? " as your eighth card (the Totem's)" : ""}.`;
    case MOVE: {
      const from = groundOf(view, view?.viewer, command.card);
      return `Ride the Horse: move your ${cardName(command.card)}${from === null ? "" : ` from ${groundSaid(from)}`} to ${groundSaid(command.ground)}.`;
    }
    case PASS:
      if (phase === "eighth-card") return "Pass: play no eighth card (the Totem's).";
      if (phase === "horse-move") return "Pass: move no Hunter (the Horse's).";
      return "Pass.";
    case TAKE: {
      const where = view?.evaluating === null || view?.evaluating === undefined ? "" : ` from ${groundSaid(view.evaluating)}`;
      return `Take ${tilesSaid(command.tiles)}${where}.`;
    }
    case DISCARD:
      return `Give ${tileSaid(command.tile)} to the Leather Thief.`;
    default:
      return null;
  }
}

// -- the moves on offer, and the choice under way ------------------------------------------------

// { offer, pick }: pick is { type: "choose", at } (places in the cards to choose from), or
// { type: "card", card } (of the hand), { type: "hunter", card } (on the Horse), { type: "tiles", at }.
let chosen = null;
let memo = { commands: null, key: "" };
const live = { drawing: null, controls: null }; // what is on the page now, to draw again on a choice

/** The offer's identity: the same commands (even fetched again) are the same offer. */
function offerKey(commands) {
  if (memo.commands !== commands) memo = { commands, key: JSON.stringify(commands) };
  return memo.key;
}

/** The moves on offer, by type, and the choice under way (kept only while they stay the same). */
function offered(play, view) {
  if (!play || !play.commands?.length) {
    chosen = null;
    return null;
  }
  const key = offerKey(play.commands);
  if (chosen && chosen.offer !== key) chosen = null;
  const of = (type) => play.commands.filter((command) => command.type === type);
  const moves = {
    play,
    key,
    pick: chosen?.pick ?? null,
    choose: of(CHOOSE),
    plays: of(PLAY),
    horse: of(MOVE),
    pass: of(PASS)[0] ?? null,
    takes: of(TAKE),
    discards: of(DISCARD),
  };
  if (moves.choose.length) moves.choice = choiceState(moves, choosable(view.players?.[view.viewer]));
  return moves;
}

/** The secret choice so far: the cards picked (their places in `pool`, the cards to choose from),
 * those that may still be added (some offered set holds them with the others), and the command
 * once a whole offered set is picked. */
function choiceState(moves, pool) {
  const size = moves.choose[0].cards.length;
  const at = moves.pick?.type === "choose" ? moves.pick.at.filter((index) => index < pool.length) : [];
  const cards = at.map((index) => pool[index]);
  const have = counted(cards);
  const holding = moves.choose.filter((command) => {
    const set = counted(command.cards);
    return [...have].every(([kind, count]) => (set.get(kind) ?? 0) >= count);
  });
  const addable = new Set();
  if (cards.length < size) {
    for (const command of holding) {
      for (const [kind, count] of counted(command.cards)) if (count > (have.get(kind) ?? 0)) addable.add(kind);
    }
  }
  const wanted = setKey(cards);
  const complete = cards.length === size ? moves.choose.find((command) => setKey(command.cards) === wanted) ?? null : null;
  return { size, pool, at, cards, addable, holding, complete };
}

/** How many different sets of `size` cards a pool holds (identical cards are one choice). */
function possibleSets(pool, size) {
  let ways = [1];
  for (const count of counted(pool).values()) {
    const next = Array(ways.length + count).fill(0);
    ways.forEach((way, have) => {
      for (let more = 0; more <= count; more += 1) next[have + more] += way;
    });
    ways = next;
  }
  return ways[size] ?? 0;
}

/** The cards a seat may choose from this hunt: its set less those played in the last hunt. */
function choosable(player) {
  const out = counted(player?.unavailable ?? []);
  return CARD_SET.filter((kind) => {
    const left = out.get(kind) ?? 0;
    if (left > 0) {
      out.set(kind, left - 1);
      return false;
    }
    return true;
  });
}

/** Sets the choice under way and draws the table and the panel again. */
function choose(moves, pick, focus = null) {
  chosen = pick ? { offer: moves.key, pick } : null;
  refresh(focus);
}

/** Sends a move on offer (the choice stays until the moves change: a refused move keeps it). */
const send = (moves, command) => moves.play.send(command);

function refresh(focus) {
  const active = document.activeElement;
  let again = null;
  for (const name of ["drawing", "controls"]) {
    const item = live[name];
    if (!item?.element.isConnected) continue;
    const inside = item.element.contains(active);
    const fresh = item.build();
    item.element.replaceWith(fresh);
    if (inside) again = fresh;
  }
  // The keyboard stays where it was: on the next step, or on the element pressed.
  if (again && focus) (again.querySelector(focus) ?? again.querySelector("[data-play], button:not(:disabled):not([aria-disabled])"))?.focus();
}

/** Makes an element a move, or a step towards one: marked, focusable, said, clicked or keyed. */
function actionable(element, key, label, act) {
  element.setAttribute("data-play", key);
  element.setAttribute("role", "button");
  element.setAttribute("tabindex", "0");
  element.setAttribute("aria-label", label);
  element.setAttribute("title", label);
  element.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    act();
  });
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    act();
  });
  return element;
}

const focusOn = (key) => `[data-play="${key}"], [data-control="${key}"]`;

// -- the secret choice ---------------------------------------------------------------------------

/** A card to choose from taken into the choice, or let go. */
function toggle(moves, index) {
  const { at } = moves.choice;
  const next = at.includes(index) ? at.filter((item) => item !== index) : [...at, index];
  choose(moves, next.length ? { type: "choose", at: next } : null, focusOn(`choose:${index}`));
}

/** The choice made whole with one of the offered sets that hold it, drawn at random. */
function atRandom(moves) {
  const { holding, pool, at } = moves.choice;
  if (!holding.length) return;
  const missing = counted(holding[Math.floor(Math.random() * holding.length)].cards);
  for (const index of at) missing.set(pool[index], missing.get(pool[index]) - 1);
  const more = pool.flatMap((kind, index) => {
    if (at.includes(index) || !(missing.get(kind) > 0)) return [];
    missing.set(kind, missing.get(kind) - 1);
    return [index];
  });
  choose(moves, { type: "choose", at: [...at, ...more] }, focusOn("confirm"));
}

/** Whether a card to choose from may be taken into the choice now. */
const takes = (choice, index) => !choice.at.includes(index) && choice.cards.length < choice.size && choice.addable.has(choice.pool[index]);

/** The cards the seat may choose from, each taken into the choice or let go with a click. */
function choicePool(moves) {
  const choice = moves.choice;
  const { cards, size } = choice;
  return choice.pool.map((kind, index) => {
    const picked = choice.at.includes(index);
    const drawn = manitouCard(kind);
    drawn.classList.add("choosable");
    drawn.setAttribute("data-choose-card", kind);
    if (picked) {
      drawn.classList.add("picked");
      drawn.setAttribute("aria-pressed", "true");
      return actionable(drawn, `choose:${index}`, `${cardName(kind)}, chosen: press to let it go`, () => toggle(moves, index));
    }
    if (takes(choice, index)) {
      drawn.setAttribute("aria-pressed", "false");
      return actionable(drawn, `choose:${index}`, `Choose ${cardName(kind)} (${cards.length} of ${size} chosen)`, () => toggle(moves, index));
    }
    drawn.classList.add("idle");
    drawn.setAttribute("aria-label", `${cardName(kind)}${cards.length >= size ? "" : ": no set on offer holds it with the cards chosen"}`);
    return drawn;
  });
}

/** Said should the page hold fewer sets than the rules allow (it reads a bounded number of moves). */
function truncation(moves) {
  const possible = possibleSets(moves.choice.pool, moves.choice.size);
  if (moves.choose.length >= possible) return null;
  return `Only ${moves.choose.length.toLocaleString("en")} of the ${possible.toLocaleString("en")} possible sets could be loaded, ` +
    "and only those can be sent: a card that fits none of them with the cards chosen so far is dimmed.";
}

function choiceButtons(moves, control) {
  const { cards, size, complete, holding } = moves.choice;
  const mark = (element, key, label, act) => (control
    ? (Object.assign(element, { onclick: act }), element.setAttribute("data-control", key), element)
    : actionable(element, key, label, act));
  // Not `disabled`: the panel enables all its buttons again after a refused move.
  const confirm = h("button", { type: "button", class: "primary", "aria-disabled": complete ? null : "true", "data-confirm": "" },
    `Choose these ${size} cards`);
  return [
    complete ? mark(confirm, "confirm", commandWords(complete, null), () => send(moves, complete))
      : (confirm.setAttribute(control ? "data-control" : "data-idle", "confirm"), confirm),
    cards.length ? mark(h("button", { type: "button" }, "Clear"), "clear", "Clear the cards chosen", () => choose(moves, null, focusOn("random"))) : null,
    cards.length < size && holding.length
      ? mark(h("button", { type: "button" }, cards.length ? "Fill the rest at random" : "Choose at random"), "random",
        cards.length ? "Fill the rest of the choice at random" : "Choose a set at random (you still confirm it)", () => atRandom(moves))
      : null,
  ];
}

const SECRET = "Everyone chooses at the same time, in secret: the others do not see your cards, nor you theirs.";

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Who has chosen and who still chooses, the viewer left out: "Bob (seat 1) is still choosing". */
function choosingWhile(view, viewer) {
  const others = view.players.filter((player) => player.seat !== viewer);
  const named = (players) => listed(players.map((player) => seatName(player.seat)));
  const done = others.filter((player) => player.has_chosen);
  const still = others.filter((player) => !player.has_chosen);
  return [
    done.length ? `${named(done)} ${done.length === 1 ? "has" : "have"} chosen already` : null,
    still.length ? `${named(still)} ${still.length === 1 ? "is" : "are"} still choosing` : null,
  ].filter(Boolean).join("; ");
}

const whileChoosing = (view, viewer) => `${capital(choosingWhile(view, viewer))}; your cards are dealt once every choice is in.`;

// -- the line that says what to do ---------------------------------------------------------------

function guide(view, viewer, moves) {
  const me = view.players?.[viewer];
  if (!moves) {
    if (view.phase !== "choosing") return null;
    const text = me?.has_chosen
      ? `Your ${plural(me.chosen?.length ?? me.cards_to_choose, "card")} for hunt ${view.hunt} are chosen, in secret. ` +
        `${capital(choosingWhile(view, viewer))}, without seeing your choice. Once every choice is in, each player's cards are shuffled ` +
        "into a face-down pile and the top three are the hand; until then there is nothing to do but wait."
      : `Everyone chooses their cards for hunt ${view.hunt} at the same time, in secret: ${choosingWhile(view, viewer)}.`;
    return h("div", { class: "bm-guide", "data-guide": me?.has_chosen ? "waiting" : "choosing", role: "status" }, h("p", {}, text));
  }
  const pick = moves.pick;
  const cancel = pick && pick.type !== "choose"
    ? h("button", { type: "button", "data-action": "cancel", onclick: () => choose(moves, null, focusOn(cancelFocus(pick))) }, "Cancel")
    : null;
  const pass = moves.pass
    ? actionable(h("button", { type: "button", "data-pass": "" }, view.phase === "eighth-card" ? "Pass: no eighth card" : "Pass: no move"),
      "pass", commandWords(moves.pass, view), () => send(moves, moves.pass))
    : null;
  let text = [];
  let extra = [];
  if (moves.choice) {
    const { size, cards } = moves.choice;
    text = [h("strong", {}, `Choose ${size} of your cards for hunt ${view.hunt}.`), ` ${SECRET} `,
      `${capital(choosingWhile(view, viewer))}. Chosen so far: ${cards.length} of ${size}${cards.length ? ` (${cardsSaid(cards)})` : ""}.`];
    extra = choiceButtons(moves, false);
    const short = truncation(moves);
    if (short) text.push(h("span", { class: "bm-note" }, ` ${short}`));
  } else if (pick?.type === "card") {
    const grounds = moves.plays.filter((command) => command.card === pick.card).map((command) => command.ground + 1);
    text = [h("strong", {}, `${cardName(pick.card)} chosen:`), ` now click the hunting ground to play it in (${listed(grounds.map(String))}), or cancel.`];
  } else if (pick?.type === "hunter") {
    const grounds = moves.horse.filter((command) => command.card === pick.card).map((command) => command.ground + 1);
    text = [h("strong", {}, `Your ${cardName(pick.card)} on the Horse:`), ` now click the hunting ground it rides to (${listed(grounds.map(String))}), or cancel.`];
  } else if (pick?.type === "tiles") {
    text = [h("strong", {}, `${capital(tilesSaid(pick.at.map((index) => view.grounds[view.evaluating].tiles[index])))} chosen:`),
      " now click the other tile you take, or cancel."];
  } else if (view.phase === "eighth-card") {
    text = [h("strong", {}, "You hold the Totem:"), " you may play an eighth card (a card of your hand, then a hunting ground), or pass."];
  } else if (view.phase === "horse-move") {
    text = [h("strong", {}, "You hold the Horse:"), " you may move one of your Hunters on the table to another hunting ground (click it, then the ground), or pass."];
  } else if (moves.plays.length) {
    text = [h("strong", {}, "Your turn:"), " click a card of your hand, then the hunting ground to play it in."];
  } else if (moves.takes.length) {
    const count = moves.takes[0].tiles.length;
    text = [h("strong", {}, `Your pick in ${groundSaid(view.evaluating)}:`), ` take ${count === 1 ? "one tile" : `${count} tiles`} of its booty (click ${count === 1 ? "it" : "them"}).`];
  } else if (moves.discards.length) {
    const tie = (view.thief_victims?.length ?? 0) > 1 ? " (tied for it)" : "";
    text = [h("strong", {}, "The Leather Thief robs you:"), ` you used the most strength this hunt${tie}. ` +
      "Click the tile of your booty you give him (a Tepee or a Buffalo, when you have one)."];
  } else {
    return null;
  }
  return h("div", { class: "bm-guide yours", "data-guide": pick?.type ?? view.phase, role: "status" },
    h("p", {}, text), extra.length || pass || cancel ? h("p", { class: "bm-guide-actions" }, extra, pass, cancel) : null);
}

function cancelFocus(pick) {
  if (pick.type === "card") return `hand:${pick.card}`;
  if (pick.type === "hunter") return `hunter:${pick.card}`;
  return `take:${pick.at[0]}`;
}

// -- the drawing ---------------------------------------------------------------------------------

function manitouCard(kind, { owner = null, faceUp = true, small = false } = {}) {
  const hunter = isHunter(kind);
  const element = card({
    code: kind,
    label: `${cardName(kind)}${owner === null ? "" : `, ${seatName(owner)}'s`}${faceUp ? "" : ", turned face down"}`,
    face: hunter ? kind.split("-")[1] : words(kind),
    detail: hunter ? "Hunter" : "Hero",
    tone: hunter ? "hunter" : "hero",
    small,
  });
  if (owner !== null) {
    element.dataset.owner = owner;
    element.style.setProperty("--seat", seatColour(owner));
    element.classList.add("owned");
  }
  if (!faceUp) element.classList.add("turned");
  return element;
}

function tile(kind) {
  const [name, count] = kind.split("-");
  return h("div", { class: `tile tile-${name}`, "data-tile": kind, role: "img", "aria-label": tileName(kind), title: tileName(kind) },
    icon(name), count ? h("b", {}, count) : null);
}

const tiles = (name, caption, elements) =>
  h("div", { class: "tiles", "data-zone": name, role: "group", "aria-label": caption },
    h("span", { class: "zone-caption" }, caption), elements.length ? elements : h("span", { class: "empty" }, "none"));

/** The booty of the ground being evaluated: tiles to take, one click each, or two in turn. */
function bootyTile(view, kind, index, moves) {
  const drawn = tile(kind);
  const size = moves.takes[0].tiles.length;
  const picked = moves.pick?.type === "tiles" ? moves.pick.at : [];
  if (picked.includes(index)) {
    drawn.classList.add("picked");
    drawn.setAttribute("aria-pressed", "true");
    return actionable(drawn, `take:${index}`, `${tileName(kind)}, chosen: press to let it go`, () => choose(moves, null, focusOn(`take:${index}`)));
  }
  const ground = view.grounds[view.evaluating].tiles;
  const wanted = [...picked.map((at) => ground[at]), kind];
  const have = counted(wanted);
  const fits = moves.takes.filter((command) => {
    const set = counted(command.tiles);
    return [...have].every(([item, count]) => (set.get(item) ?? 0) >= count);
  });
  if (!fits.length) return drawn;
  if (wanted.length === size) {
    const command = fits.find((item) => setKey(item.tiles) === setKey(wanted));
    if (!command) return drawn;
    return actionable(drawn, `take:${index}`, commandWords(command, view), () => send(moves, command));
  }
  drawn.setAttribute("aria-pressed", "false");
  return actionable(drawn, `take:${index}`, `Take ${tileSaid(kind)}, then one tile more`,
    () => choose(moves, { type: "tiles", at: [...picked, index] }, "[data-play^='take:']:not([aria-pressed='true'])"));
}

const PICKED_BY = { hero: "a face-up Hero", "best-hunters": "the best Hunters", "next-hunters": "the next-best Hunters" };

function ground(view, item, index, moves, viewer) {
  const evaluated = view.evaluating === index;
  const booty = evaluated && moves?.takes.length
    ? item.tiles.map((kind, at) => bootyTile(view, kind, at, moves))
    : item.tiles.map(tile);
  const rides = moves?.horse.length ? new Set(moves.horse.map((command) => command.card)) : new Set();
  const cards = item.cards.map((placed) => {
    const drawn = manitouCard(placed.card, { owner: placed.owner, faceUp: placed.face_up });
    if (placed.owner !== viewer || !rides.has(placed.card)) return drawn;
    const picked = moves.pick?.type === "hunter" && moves.pick.card === placed.card;
    if (moves.pick && !picked) return drawn; // one Hunter on the Horse at a time: cancel first
    drawn.classList.add("choosable");
    drawn.setAttribute("aria-pressed", picked ? "true" : "false");
    if (picked) drawn.classList.add("picked");
    return actionable(drawn, `hunter:${placed.card}`,
      picked ? `Your ${cardName(placed.card)}, on the Horse: press to cancel` : `Move your ${cardName(placed.card)} with the Horse, then choose the ground`,
      () => choose(moves, picked ? null : { type: "hunter", card: placed.card }, picked ? focusOn(`hunter:${placed.card}`) : "[data-play^='ground:']"));
  });
  const picks = evaluated && view.picks?.length
    ? h("p", { class: "bm-picks" }, `To pick here: ${listed(view.picks.map((pick) =>
      `${seatName(pick.seat)} takes ${plural(pick.count, "tile")} (${PICKED_BY[pick.by] ?? words(pick.by)})`))}.`)
    : null;
  const section = h("section", { class: `ground${evaluated ? " evaluated" : ""}`, "data-ground": index, "aria-label": `Hunting ground ${index + 1}` },
    h("h3", {}, `Hunting ground ${index + 1}${evaluated ? " (being evaluated)" : ""}`),
    picks,
    tiles(`ground-${index}-booty`, "Booty", booty),
    zone(`ground-${index}`, "Cards played", cards));
  return target(section, view, index, moves);
}

const holdsHunter = (section, kind) => section.querySelector(`[data-play="hunter:${kind}"]`) !== null;

/** A hunting ground the chosen card (or the Horse's Hunter) may go to: the move itself. */
function target(section, view, index, moves) {
  const pick = moves?.pick;
  if (!pick || (pick.type !== "card" && pick.type !== "hunter")) return section;
  const commands = pick.type === "card" ? moves.plays : moves.horse;
  const command = commands.find((item) => item.card === pick.card && item.ground === index);
  const say = (text, className) => section.querySelector("h3").after(h("p", { class: `bm-here ${className}` }, text));
  if (!command && pick.type === "hunter" && holdsHunter(section, pick.card)) {
    say(`Your ${cardName(pick.card)} rides from here`, "from");
    return section;
  }
  if (!command) {
    section.classList.add("closed");
    say(`Not open to ${cardName(pick.card)}`, "closed");
    return section;
  }
  section.classList.add("target");
  say(pick.type === "card" ? `Play ${cardName(pick.card)} here` : `Ride ${cardName(pick.card)} here`, "open");
  section.removeAttribute("aria-label");
  return actionable(section, `ground:${index}`, commandWords(command, view), () => send(moves, command));
}

/** A card of the seat's hand: its moves, one click when it has one, else a ground chosen next. */
function handCard(view, kind, nth, moves) {
  const drawn = manitouCard(kind);
  const commands = moves.plays.filter((command) => command.card === kind);
  if (!commands.length || nth > 0) return drawn; // two Chiefs in the hand are one choice
  drawn.classList.add("choosable");
  drawn.setAttribute("data-hand-card", kind);
  if (commands.length === 1) {
    return actionable(drawn, `hand:${kind}`, `${commandWords(commands[0], view)} (its only hunting ground)`, () => send(moves, commands[0]));
  }
  const picked = moves.pick?.type === "card" && moves.pick.card === kind;
  drawn.setAttribute("aria-pressed", picked ? "true" : "false");
  if (picked) drawn.classList.add("picked");
  const grounds = listed(commands.map((command) => String(command.ground + 1)));
  return actionable(drawn, `hand:${kind}`,
    picked ? `${cardName(kind)}, chosen: press to cancel` : `Play ${cardName(kind)}, then choose the hunting ground (${grounds})`,
    () => choose(moves, picked ? null : { type: "card", card: kind }, picked ? focusOn(`hand:${kind}`) : "[data-play^='ground:']"));
}

function hand(view, item, moves, viewer) {
  if (item.seat !== viewer || !moves?.plays.length || !item.hand) {
    return handCards(item.hand, item.hand_size, (kind) => manitouCard(kind), item.seat);
  }
  const seen = new Map();
  return item.hand.map((kind) => {
    const nth = seen.get(kind) ?? 0;
    seen.set(kind, nth + 1);
    return handCard(view, kind, nth, moves);
  });
}

/** A tile of the seat's booty, given to the Leather Thief with a click when it may be. */
function booty(view, item, moves, viewer) {
  const given = item.seat === viewer && moves?.discards.length ? new Map(moves.discards.map((command) => [command.tile, command])) : new Map();
  return item.tiles.map((kind) => {
    const command = given.get(kind);
    return command ? actionable(tile(kind), `give:${kind}`, commandWords(command, view), () => send(moves, command)) : tile(kind);
  });
}

/** Not a `data-zone`: a zone of the drawing's read-back holds the cards as they lie only. */
const pool = (name, caption, cards) =>
  h("div", { class: "zone bm-pool", "data-pool": name, role: "group", "aria-label": caption },
    h("span", { class: "zone-caption" }, caption), h("div", { class: "cards" }, cards));

function choosing(view, item, moves, viewer) {
  if (view.phase !== "choosing" || item.seat !== viewer) return null;
  if (moves?.choice) {
    const { size, cards } = moves.choice;
    const out = item.unavailable ?? [];
    return [
      pool("choice", `Choose ${size} for this hunt, in secret (${cards.length} chosen)`, choicePool(moves)),
      out.length ? pool("sitting-out", "Sitting out this hunt (played in the last one)", out.map((kind) => manitouCard(kind, { small: true }))) : null,
    ];
  }
  if (item.has_chosen && item.chosen) {
    return pool("chosen", "Your secret choice (only you see it)", item.chosen.map((kind) => manitouCard(kind, { small: true })));
  }
  return null;
}

function player(view, item, context, moves, viewer) {
  const marks = [
    view.to_act.includes(item.seat) && !view.finished ? "to act" : null,
    view.phase === "choosing" ? (item.has_chosen ? "has chosen, in secret" : "choosing…") : null,
    view.dealer === item.seat ? "dealer" : null,
    view.totem_holder === item.seat ? "holds the Totem" : null,
    view.horse_holder === item.seat ? "holds the Horse" : null,
  ];
  const pile = item.pile === null
    ? handCards(null, item.pile_size, null, item.seat)
    : item.pile.map((kind) => manitouCard(kind, { small: true }));
  return seatPanel(item.seat, context, marks,
    facts([
      ["Points", item.points], ["Tepees", item.tepees], ["Buffalo", item.buffaloes],
      ["Strength this hunt", item.strength],
      ["Cards to choose", view.phase === "choosing" && item.cards_to_choose && !item.has_chosen ? item.cards_to_choose : null],
    ], "facts inline"),
    choosing(view, item, moves, viewer),
    zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, hand(view, item, moves, viewer)),
    zone(`pile-${item.seat}`, `Face-down pile (${item.pile_size})`, pile),
    tiles(`booty-${item.seat}`, "Booty won", booty(view, item, moves, viewer)));
}

export function draw(view, context) {
  const viewer = context?.viewer ?? view.viewer ?? null;
  const moves = offered(context?.play ?? null, view);
  const outcome = view.finished ? `Final scores ${view.scores.join(", ")}` : null;
  const root = h("div", {
    class: "big-manitou",
    "data-drawing": "big-manitou",
    "data-phase": view.phase,
    "data-moves": moves ? moves.play.commands.length : null,
    "data-choice": moves?.pick?.type ?? null,
    onkeydown: (event) => {
      // Escape lets go of a card or tile under way (not of a secret choice: Clear does that).
      if (event.key === "Escape" && moves?.pick && moves.pick.type !== "choose") choose(moves, null, focusOn(cancelFocus(moves.pick)));
    },
  },
  facts([
    ["Hunt", `${view.hunt} of ${view.hunts}`],
    ["Now", words(view.phase)],
    ["First player", seatName(view.first_player)],
    ["Tiles in the bag", view.bag_size],
    ["Out of the game", view.removed.length ? plural(view.removed.length, "tile") : null],
    ["Robbed by the Leather Thief", view.thief_victims?.length && !view.finished ? listed(view.thief_victims.map(seatName)) : null],
    ["Result", outcome],
  ]),
  guide(view, viewer, moves),
  h("div", { class: `grounds${moves?.pick?.type === "card" || moves?.pick?.type === "hunter" ? " choosing" : ""}` },
    view.grounds.map((item, index) => ground(view, item, index, moves, viewer))),
  h("div", { class: "seats" }, view.players.map((item) => player(view, item, context, moves, viewer))));
  // Drawn again on a choice only while it offers moves (a past moment's drawing offers none).
  live.drawing = moves ? { element: root, build: () => draw(view, context) } : null;
  // The panel's controls keep the moves they were made with; who has chosen since is said there
  // as the table says it (the table is drawn from each new event).
  const line = moves?.choice && live.controls?.element.isConnected ? live.controls.element.querySelector("[data-while]") : null;
  if (line) line.textContent = whileChoosing(view, viewer);
  return root;
}

// -- the play panel's controls -------------------------------------------------------------------

/** The secret choice in the panel (its cards as toggles, the set sent at once), and the Totem's
 * or the Horse's pass; the other moves are on the table, and listed. */
export function controls(actions, view) {
  const moves = offered(actions, view);
  if (!moves) return null;
  let element = null;
  if (moves.choice) {
    element = choiceControls(view, moves);
  } else if (moves.pass) {
    const holding = view.phase === "eighth-card" ? "the Totem: you may play an eighth card on the table" : "the Horse: you may move one of your Hunters on the table";
    const pass = h("button", { type: "button", "data-control": "pass", onclick: () => send(moves, moves.pass) },
      view.phase === "eighth-card" ? "Pass: no eighth card" : "Pass: no move");
    element = h("div", { class: "bm-controls", "data-controls": "pass" }, h("p", {}, `You hold ${holding}, or pass.`), h("p", { class: "row" }, pass));
  }
  if (element) live.controls = { element, build: () => controls(actions, view) ?? h("div", { hidden: true }) };
  return element;
}

function choiceControls(view, moves) {
  const choice = moves.choice;
  const { size, cards, pool: cardsToChoose } = choice;
  const toggles = cardsToChoose.map((kind, index) => {
    const picked = choice.at.includes(index);
    const open = takes(choice, index);
    return h("button", {
      type: "button",
      class: `bm-toggle${isHunter(kind) ? " hunter" : " hero"}`,
      "data-control": picked || open ? `choose:${index}` : null,
      "data-choose-card": kind,
      "aria-pressed": picked ? "true" : "false",
      "aria-label": isHunter(kind) ? cardName(kind) : null,
      "aria-disabled": picked || open ? null : "true", // not `disabled`: see choiceButtons
      onclick: () => {
        if (picked || open) toggle(moves, index);
      },
    }, isHunter(kind) ? kind.split("-")[1] : cardName(kind));
  });
  const hunters = toggles.filter((_, index) => isHunter(cardsToChoose[index]));
  const heroes = toggles.filter((_, index) => !isHunter(cardsToChoose[index]));
  const short = truncation(moves);
  return h("div", { class: "bm-controls", "data-controls": "choose" },
    h("p", { class: "bm-secret" }, h("strong", {}, `Your secret choice for hunt ${view.hunt}: ${size} cards. `), SECRET,
      " ", h("span", { "data-while": "" }, whileChoosing(view, view.viewer))),
    h("div", { class: "bm-toggles", role: "group", "aria-label": "Hunters" }, h("span", { class: "bm-toggles-caption" }, "Hunters"), hunters),
    h("div", { class: "bm-toggles", role: "group", "aria-label": "Heroes" }, h("span", { class: "bm-toggles-caption" }, "Heroes"), heroes),
    h("p", { role: "status", "data-chosen": cards.length }, `Chosen: ${cards.length} of ${size}${cards.length ? `: ${cardsSaid(cards)}` : ""}.`),
    h("p", { class: "row" }, choiceButtons(moves, true)),
    short ? h("p", { class: "note" }, short) : null);
}

const ground1 = (index) => `hunting ground ${index + 1}`;
const cardsOrHidden = (cards, count) => (cards ? listed(cards.map(cardName)) : plural(count, "card"));

export const sentences = {
  "big-manitou.bag-filled": () => "The 60 booty tiles are shuffled into the bag.",
  "big-manitou.hunt-began": (e) =>
    `Hunt ${e.hunt} begins: ${seatName(e.dealer)} deals the booty, ${seatName(e.first_player)} plays first.`,
  "big-manitou.cards-chosen": (e) =>
    `${seatName(e.seat)} chooses ${e.cards ? listed(e.cards.map(cardName)) : "cards, face down"}${e.at_random ? " (at random)" : ""}.`,
  "big-manitou.pile-shuffled": (e) => `${seatName(e.seat)}'s chosen cards are shuffled into a face-down pile.`,
  "big-manitou.cards-drawn": (e) => `${seatName(e.seat)} draws ${cardsOrHidden(e.cards, e.count)}.`,
  "big-manitou.card-played": (e) =>
    `${seatName(e.seat)} plays ${cardName(e.card)} in ${ground1(e.ground)}` +
    `${e.eighth_card ? " as the eighth card" : ""}` +
    `${e.turned_down?.length ? `; ${plural(e.turned_down.length, "Hero", "Heroes")} turned face down` : ""}.`,
  "big-manitou.turn-skipped": (e) => `${seatName(e.seat)} has no card to play; the turn passes.`,
  "big-manitou.passed": (e) => `${seatName(e.seat)} does not use the ${words(e.cylinder)}.`,
  "big-manitou.hunter-moved": (e) =>
    `${seatName(e.seat)} moves ${cardName(e.card)} from ${ground1(e.from_ground)} to ${ground1(e.to_ground)}.`,
  "big-manitou.leather-thief-struck": (e) =>
    `The Leather Thief strikes ${e.victims.length ? listed(e.victims.map(seatName)) : "no one"}.`,
  "big-manitou.tile-discarded": (e) => `${seatName(e.seat)} pays ${tileName(e.tile)} to the Leather Thief.`,
  "big-manitou.cylinder-passed": (e) =>
    `The ${words(e.cylinder)} goes to ${e.seat === null ? "the side of the table" : seatName(e.seat)}.`,
  "big-manitou.evaluation-began": () => "The hunting grounds are evaluated.",
  "big-manitou.ground-evaluated": (e) =>
    `In ${ground1(e.ground)}, ${e.picks.length ? listed(e.picks.map((pick) => `${seatName(pick.seat)} picks ${pick.count}`)) : "nobody picks"}.`,
  "big-manitou.tiles-taken": (e) => `${seatName(e.seat)} takes ${listed(e.tiles.map(tileName))} from ${ground1(e.ground)}.`,
  "big-manitou.ground-closed": (e) =>
    `${words(ground1(e.ground))} closes${e.removed.length ? `; ${listed(e.removed.map(tileName))} leave the game` : ""}.`,
  "big-manitou.hunt-ended": (e) => `Hunt ${e.hunt} ends.`,
  "big-manitou.game-ended": (e) =>
    `The game ends: ${e.scores.map((score, seat) => `${seatName(seat)} ${score}`).join(", ")}.`,
};

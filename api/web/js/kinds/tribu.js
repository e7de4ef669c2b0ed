// Tribù: each player's chains (Tribe card, Dioramas, the active card face down beside them),
// hands and leaders (the viewer's own only), the piles, the Azione cards played, an attack.
//
// Playing (`context.play`): every move is made on the drawing, in steps where a move has more
// than one part. A card of the hand is chosen first, then where it goes (the discard pile, a
// chain, the place beside a chain for an active card, a new chain, a player to block, the
// Azione pile for Draw three, an active card it is swapped with); Steal takes the card, the
// opponent's chain, then the chain of yours the stolen card goes on. At the start of a turn an
// active card is chosen, then the chain it continues or attacks. After Draw three, the cards to
// discard are chosen one by one, in the order they go on the pile, then discarded together.
// Attacked, out of turn, the seat answers with an active Protezione card or lets the attack
// through (the play panel's controls offer the same answers). The choice made so far is kept
// while the same commands are on offer (a redraw keeps it); Cancel, Escape, or the chosen
// element again takes it back. A move is never built here: each element sends one of the
// commands on offer, as the API listed it.

import { h, listed, plural, seatName } from "../dom.js";
import { card, facts, handCards, hiddenCard, seatPanel, words, zone } from "./common.js";

const CHARACTERS = new Set(["shaman", "warrior", "hunter", "elder", "scout"]);
const FAMILY = { wolf: "evento", bison: "evento", "draw-three": "azione", block: "azione", steal: "azione",
  "feathers-of-courage": "protezione", "feathers-of-strength": "protezione", multidiorama: "diorama", totem: "diorama" };

export function family(name) {
  if (CHARACTERS.has(name)) return "tribe";
  return FAMILY[name] ?? "diorama"; // the coloured vases: statue-red, horse-blue, ...
}

export const cardName = (name) => (name ? words(name) : "a hidden card");

function tribuCard(name, small = false) {
  const kind = family(name);
  const [vase, colour] = name.split("-");
  const coloured = kind === "diorama" && (colour === "red" || colour === "blue");
  return spaced(card({
    code: name,
    label: `${cardName(name)} (${words(kind)})`,
    face: coloured ? words(vase) : words(name.replace("feathers-of-", "").replace("multidiorama", "multi")),
    detail: coloured ? `${colour} vase` : words(kind),
    tone: coloured ? `${kind}-${colour}` : kind,
    small,
  }));
}

/** Spaces between the words an element shows in separate boxes (a card's face and detail, a
 * zone's caption and its cards), so that its text reads "Canoe red vase", not "Canoered vase":
 * as a button its name must hold what it shows. The layout does not change: these boxes are
 * flex items or blocks. */
function spaced(element) {
  for (const part of element.querySelectorAll(".card-detail, .cards > :not(:first-child)")) {
    if (part.previousSibling?.nodeType !== Node.TEXT_NODE) part.before(" ");
  }
  for (const part of element.querySelectorAll(".zone-caption")) {
    if (part.nextSibling?.nodeType !== Node.TEXT_NODE) part.after(" ");
  }
  return element;
}

const tokens = (text) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(" ");

// -- the moves in words --------------------------------------------------------------------------

const chainOf = (view, seat, character) => view?.players?.[seat]?.chains?.find((item) => item.character === character);
const yourChain = (character) => `your ${words(character)} chain`;
const theirChain = (seat, character) => `${seatName(seat)}'s ${words(character)} chain`;

/** "the active Wolf beside your Hunter chain" (the card named when the viewer may see it). */
function activeCard(view, character) {
  const name = chainOf(view, view?.viewer, character)?.active;
  return `the active ${name ? `${cardName(name)} ` : "card "}beside ${yourChain(character)}`;
}

/** A command as the player reads it: "Place Horse red on your Shaman chain". */
export function commandWords(command, view) {
  switch (command.type) {
    case "tribu.draw":
      return command.source === "discard-pile"
        ? `Take ${view?.discard_top ? cardName(view.discard_top) : "the top card"} from the discard pile`
        : "Draw a card from the draw pile";
    case "tribu.discard":
      return `Discard ${cardName(command.card)}`;
    case "tribu.place-tribe":
      return `Start a ${words(command.card)} chain with your ${cardName(command.card)} card`;
    case "tribu.place-diorama":
      return `Place ${cardName(command.card)} on ${yourChain(command.chain)}`;
    case "tribu.activate":
      return `Make ${cardName(command.card)} active: face down beside ${yourChain(command.chain)}`;
    case "tribu.swap-active":
      return `Swap ${activeCard(view, command.chain)} for ${cardName(command.card)} from your hand`;
    case "tribu.continue-chain":
      return `Turn ${activeCard(view, command.active)} and place it on ${
        command.active === command.chain ? "that chain" : yourChain(command.chain)}`;
    case "tribu.attack":
      return `Attack ${theirChain(command.seat, command.chain)} with ${activeCard(view, command.active)}`;
    case "tribu.draw-three":
      return "Play Draw three: draw three cards, then discard three";
    case "tribu.discard-three": {
      const cards = command.cards ?? [];
      if (!cards.length) return "Discard nothing: no card was drawn";
      const top = cards.length > 1 ? ` (${cardName(cards.at(-1))} on top)` : "";
      return `Discard ${cards.map(cardName).join(", then ")}${top}`;
    }
    case "tribu.block":
      return `Play Block on ${seatName(command.seat)}: they skip their next turn`;
    case "tribu.steal": {
      const last = chainOf(view, command.seat, command.chain)?.dioramas?.at(-1);
      return `Play Steal: take ${last ? cardName(last) : "the last card"} from ${theirChain(command.seat, command.chain)} ` +
        `onto ${yourChain(command.into)}`;
    }
    case "tribu.defend":
      return `Defend with ${activeCard(view, command.active)}`;
    case "tribu.pass": {
      const attack = view?.attack;
      return attack
        ? `Do not defend: let ${seatName(attack.attacker)}'s ${cardName(attack.card)} through`
        : "Do not defend";
    }
    default:
      return null;
  }
}

// -- the moves on the drawing --------------------------------------------------------------------
//
// Each command is reached by a path of the drawing's elements, each named by a key: "hand:wolf"
// (a card of the hand), "active:0:hunter" (the active card beside seat 0's Hunter chain, or its
// empty place), "chain:1:elder", "pile:draw", "pile:discard", "pile:played", "seat:1" (a player
// to block), "new-chain", "pass". A click on an element that ends a path sends its command; one
// that only starts or continues paths is chosen, and the elements that go on from it are
// offered next.

/** The paths of the drawing that make a command (none: it is made from the list only). */
function paths(command, me) {
  const hand = (name) => `hand:${name}`;
  switch (command.type) {
    case "tribu.draw":
      return [[command.source === "discard-pile" ? "pile:discard" : "pile:draw"]];
    case "tribu.discard":
      return [[hand(command.card), "pile:discard"]];
    case "tribu.place-tribe":
      return [[hand(command.card), "new-chain"]];
    case "tribu.place-diorama":
      return [[hand(command.card), `chain:${me}:${command.chain}`]];
    case "tribu.activate":
      return [[hand(command.card), `active:${me}:${command.chain}`]];
    case "tribu.swap-active": // the card of the hand, then the active card it replaces
      return [[hand(command.card), `active:${me}:${command.chain}`]];
    case "tribu.continue-chain":
      return [[`active:${me}:${command.active}`, `chain:${me}:${command.chain}`]];
    case "tribu.attack":
      return [[`active:${me}:${command.active}`, `chain:${command.seat}:${command.chain}`]];
    case "tribu.draw-three":
      return [[hand("draw-three"), "pile:played"]];
    case "tribu.discard-three":
      return [[...(command.cards ?? []).map(hand), "pile:discard"]];
    case "tribu.block":
      return [[hand("block"), `seat:${command.seat}`]];
    case "tribu.steal":
      return [[hand("steal"), `chain:${command.seat}:${command.chain}`, `chain:${me}:${command.into}`]];
    case "tribu.defend":
      return [[`active:${me}:${command.active}`]];
    case "tribu.pass":
      return [["pass"]];
    default:
      return [];
  }
}

// What a path leads to, said short: for the label of an element that is chosen first.
const AIMS = {
  "tribu.discard": "discard it",
  "tribu.place-tribe": "start a chain with it",
  "tribu.place-diorama": "place it on a chain",
  "tribu.activate": "make it active beside a chain",
  "tribu.swap-active": "swap it with an active card",
  "tribu.continue-chain": "turn it onto a chain",
  "tribu.attack": "attack a chain",
  "tribu.draw-three": "play it",
  "tribu.block": "block a player",
  "tribu.steal": "steal a card",
  "tribu.discard-three": "discard it",
};

const either = (items) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);

// The choice made so far: the elements clicked (key, and the hand's position for a card of the
// hand), for the commands on offer when it was made (`offer`).
let choice = { offer: null, steps: [] };
let current = null; // the moves the drawing on the page offers (for Escape)
let listening = false;

class Moves {
  constructor(view, context) {
    this.view = view;
    this.context = context;
    this.me = context.viewer ?? view.viewer;
    this.play = context.play;
    this.routes = context.play.commands.flatMap((command) => paths(command, this.me).map((keys) => ({ command, keys })));
    const offer = `${this.me}|${JSON.stringify(context.play.commands)}`;
    if (choice.offer !== offer) choice = { offer, steps: [] };
    this.discarding = this.routes.some((route) => route.command.type === "tribu.discard-three");
    this.steps = this.kept(choice.steps);
    choice.steps = this.steps;
    this.root = null;
  }

  /** As much of `steps` as still leads to a command on offer. */
  kept(steps) {
    const kept = [];
    for (const step of steps) {
      if (!this.leading([...kept.map((item) => item.key), step.key]).length) break;
      kept.push(step);
    }
    return kept;
  }

  get keys() {
    return this.steps.map((step) => step.key);
  }

  /** The paths that begin with `prefix`. */
  leading(prefix) {
    return this.routes.filter((route) => prefix.every((key, at) => route.keys[at] === key));
  }

  /** What a click on the element `key` (at `index` of the hand) does now, or null: "chosen"
   * (it is part of the choice: a click takes it back), "next" (it continues the choice, or
   * starts one), "switch" (it starts another choice instead of the one made). */
  role(key, index = null) {
    const at = this.steps.findIndex((step) => step.key === key && step.index === index);
    if (at >= 0) return { kind: "chosen", at };
    const next = [...this.keys, key];
    let routes = this.leading(next);
    if (routes.length) return this.option("next", next, routes);
    if (this.steps.length === 1) {
      routes = this.leading([key]);
      if (routes.length) return this.option("switch", [key], routes);
    }
    return null;
  }

  option(kind, prefix, routes) {
    const complete = routes.find((route) => route.keys.length === prefix.length)?.command ?? null;
    return { kind, prefix, routes, complete };
  }

  /** The elements that continue the choice now (the keys after it). */
  nextKeys() {
    const length = this.steps.length;
    return [...new Set(this.leading(this.keys).map((route) => route.keys[length]).filter(Boolean))];
  }

  /** A key in words, as a place on the table or a card. */
  said(key) {
    const [what, first, second] = key.split(":");
    if (what === "hand") return `${cardName(first)} from your hand`;
    if (what === "active") return activeCard(this.view, second);
    if (what === "chain") return Number(first) === this.me ? yourChain(second) : theirChain(Number(first), second);
    if (what === "seat") return seatName(Number(first));
    if (what === "new-chain") return "a new chain";
    if (what === "pass") return "not defending";
    return { draw: "the draw pile", discard: "the discard pile", played: "the pile of Azione cards played" }[first] ?? key;
  }

  /** Where the choice may go next, in words. */
  where(key) {
    const [what, first, second] = key.split(":");
    if (what === "active") {
      const item = chainOf(this.view, Number(first), second);
      return item?.has_active ? activeCard(this.view, second) : `the active place beside ${yourChain(second)}`;
    }
    if (what === "seat") return `the place to block ${seatName(Number(first))}`;
    if (what === "new-chain") return "the place for a new chain";
    if (what === "hand") return cardName(first);
    return this.said(key);
  }

  label(key, role) {
    if (role.kind === "chosen") return `${this.said(key)}, chosen: click again to take it back`;
    if (role.complete) return commandWords(role.complete, this.view);
    const aims = [...new Set(role.routes.map((route) => AIMS[route.command.type]).filter(Boolean))];
    return `Choose ${this.said(key)}${aims.length ? `, to ${either(aims)}` : ""}`;
  }

  /** Makes `element` a move or a step towards one, if `key` is one now. Its name says the move
   * in words, then what it shows (a button's content is not read out on its own). */
  mark(element, key, index = null) {
    const role = this.role(key, index);
    if (!role) return element;
    const said = this.label(key, role);
    const shown = spaced(element).textContent.replace(/\s+/g, " ").trim();
    const label = !shown || ` ${tokens(said)} `.includes(` ${tokens(shown)} `) ? said : `${said}. ${shown}`;
    element.setAttribute("data-play", role.kind);
    element.setAttribute("role", "button");
    element.setAttribute("tabindex", "0");
    element.setAttribute("aria-label", label);
    element.setAttribute("title", label);
    element.dataset.key = key;
    if (index !== null) element.dataset.index = String(index);
    if (role.kind === "chosen") {
      element.setAttribute("aria-pressed", "true");
      element.dataset.chosen = "";
      if (this.discarding) element.dataset.order = String(role.at + 1); // the order they go on the pile
    } else if (role.complete) {
      element.dataset.commandType = role.complete.type;
    } else {
      element.dataset.leads = [...new Set(role.routes.map((route) => route.command.type))].join(" ");
      if (key.startsWith("hand:")) element.setAttribute("aria-pressed", "false");
    }
    element.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      this.click(key, index);
    });
    element.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      event.stopPropagation();
      this.click(key, index);
    });
    return element;
  }

  click(key, index) {
    const role = this.role(key, index);
    if (!role) return;
    if (role.kind === "chosen") {
      // What is left of the choice, as far as it still leads somewhere.
      return this.choose(this.kept(this.steps.filter((_, at) => at !== role.at)), { key, index });
    }
    if (role.complete) {
      choice = { offer: null, steps: [] };
      this.play.send(role.complete);
      // On its way: the table offers nothing until the answer (a refusal offers it all again).
      if (this.root?.isConnected) this.root.replaceWith(draw(this.view, { ...this.context, play: null }));
      return undefined;
    }
    const step = { key, index };
    return this.choose(role.kind === "switch" ? [step] : [...this.steps, step], step);
  }

  cancel() {
    if (this.steps.length) this.choose([], null);
  }

  /** A new choice: the drawing is drawn again, the focus kept where it was. */
  choose(steps, focus) {
    choice.steps = steps;
    if (!this.root?.isConnected) return;
    const fresh = draw(this.view, this.context);
    this.root.replaceWith(fresh);
    const selector = focus === null ? null
      : `[data-key="${CSS.escape(focus.key)}"]${focus.index === null ? ":not([data-index])" : `[data-index="${focus.index}"]`}`;
    const target = (selector && fresh.querySelector(selector)) || fresh.querySelector(".tribu-choice [data-action]")
      || fresh.querySelector("[data-play]");
    target?.focus({ preventScroll: true });
  }

  /** The element on the table that says what is chosen, and how to go on or take it back. */
  bar() {
    if (!this.steps.length) {
      if (this.routes.some((route) => route.keys[0] === "pass")) return null; // the attack's own alert
      return h("div", { class: "tribu-guide", "data-choice": "none" }, h("span", { class: "choice-text" }, guide(this.play.commands, this.view)));
    }
    const next = this.nextKeys();
    const cancel = h("button", { type: "button", class: "cancel", "data-action": "cancel-choice", onclick: () => this.cancel() }, "Cancel");
    if (this.discarding) {
      const due = this.routes.find((route) => route.command.type === "tribu.discard-three")?.keys.length - 1;
      const chosen = this.steps.map((step) => cardName(step.key.slice(5)));
      const done = next.includes("pile:discard");
      const button = done ? this.mark(h("button", { type: "button", class: "go" }, "Discard"), "pile:discard") : null;
      return h("div", { class: "tribu-choice", "data-choice": "discard-three" },
        h("span", { class: "choice-text" }, `To discard, in this order (the last on top): ${listed(chosen)}. `,
          done ? "Discard them, or click a chosen card to take it back." : `Choose ${plural(due - chosen.length, "more card")}.`),
        button, cancel);
    }
    const places = next.map((key) => this.where(key));
    const shown = places.length > 5 ? [...places.slice(0, 5), `${places.length - 5} more`] : places;
    return h("div", { class: "tribu-choice", "data-choice": this.steps[0].key.split(":")[0] },
      h("span", { class: "choice-text" }, h("strong", {}, "Chosen: "), this.steps.map((step) => this.said(step.key)).join(", then "),
        `. Now click ${next.length === 1 ? "the outlined place" : "one of the outlined places"}: ${either(shown)}.`),
      cancel);
  }

  /** A place on the table that exists only as a move's target (a new chain, a player to
   * block): it shows the move in words. */
  target(key) {
    const role = this.role(key);
    if (!role || role.kind === "chosen") return null;
    return this.mark(h("div", { class: "play-target" }, this.label(key, role)), key);
  }
}

/** The moves the drawing offers now, or null (none, or a view of another moment). */
function moves(view, context) {
  const play = context?.play ?? null;
  if (!play || !play.commands?.length) {
    choice = { offer: null, steps: [] };
    current = null;
    return null;
  }
  const made = new Moves(view, context);
  current = made;
  if (!listening) {
    listening = true;
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && current?.root?.isConnected && current.steps.length) current.cancel();
    });
  }
  return made;
}

// -- the drawing -----------------------------------------------------------------------------------

function chain(item, owner, play) {
  const flags = [item.complete ? "complete" : null, item.protected ? "protected" : null, item.magical ? "magical" : null,
    item.lone ? "lone" : null, item.fresh ? "new this turn" : null].filter(Boolean);
  let active = [];
  if (item.has_active) {
    active = [item.active === null ? hiddenCard(`the active card beside ${seatName(owner)}'s ${item.character} chain`) : tribuCard(item.active)];
  }
  const caption = `${words(item.character)} chain: ${plural(item.spheres, "sphere")}${flags.length ? `, ${flags.join(", ")}` : ""}`;
  const cards = zone(`chain-${owner}-${item.character}`, caption,
    [tribuCard(item.character), ...item.dioramas.map((name) => tribuCard(name))]);
  const beside = zone(`active-${owner}-${item.character}`, "Active", active);
  play?.mark(cards, `chain:${owner}:${item.character}`);
  play?.mark(beside, `active:${owner}:${item.character}`);
  return h("div", { class: "chain", "data-chain": item.character }, cards, beside);
}

function hand(item, play) {
  if (!play || item.seat !== play.me || !item.hand) {
    return handCards(item.hand, item.hand_size, (name) => tribuCard(name), item.seat);
  }
  return item.hand.map((name, index) => play.mark(tribuCard(name), `hand:${name}`, index));
}

function player(view, item, context, play) {
  const marks = [view.current === item.seat && !view.finished ? "to play" : null, item.blocked ? "blocked" : null,
    view.first_player === item.seat ? "played first" : null];
  const leader = item.leader === null ? [hiddenCard(`${seatName(item.seat)}'s Tribe Leader, face down`)] : [tribuCard(item.leader)];
  const mine = play !== null && item.seat === play.me;
  return seatPanel(item.seat, context, marks,
    mine ? null : play?.target(`seat:${item.seat}`),
    facts([["Total", item.total], ["Complete chains", item.complete_chains]], "facts inline"),
    h("div", { class: "row" },
      zone(`leader-${item.seat}`, item.leader_revealed ? "Leader (revealed)" : "Leader", leader),
      zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, hand(item, play))),
    h("div", { class: "chains" }, item.chains.map((value) => chain(value, item.seat, play)),
      mine ? play.target("new-chain") : null));
}

/** Out of turn: the seat is attacked and must answer (defend, or let the attack through). */
function answer(view, play) {
  const attack = view.attack;
  if (!play || !attack || attack.seat !== play.me) return null;
  const pass = play.role("pass");
  const defences = play.routes.filter((route) => route.command.type === "tribu.defend");
  if (!pass && !defences.length) return null;
  const what = attack.card === "steal"
    ? `plays Steal on your ${words(attack.chain)} chain${attack.into ? `, for their ${words(attack.into)} chain` : ""}`
    : `turns a ${cardName(attack.card)} against your ${words(attack.chain)} chain`;
  return h("div", { class: "tribu-alert", role: "alert", "data-answer": "" },
    h("span", { class: "choice-text" }, h("strong", {}, "You are attacked: "), `${seatName(attack.attacker)} ${what}. `,
      defences.length ? "Defend with an active Protezione card (click the outlined one), or let it through."
        : "You have no active Protezione card to defend with."),
    pass ? play.mark(h("button", { type: "button", class: "go" }, "Do not defend"), "pass") : null);
}

export function draw(view, context) {
  const play = moves(view, context);
  const attack = view.attack
    ? `${seatName(view.attack.attacker)}'s ${cardName(view.attack.card)} against ${seatName(view.attack.seat)}'s ${view.attack.chain} chain`
    : null;
  const drawPile = zone("draw-pile", `Draw pile: ${plural(view.draw_pile_size, "card")}`,
    view.draw_pile ? view.draw_pile.map((name) => tribuCard(name, true))
      : view.draw_pile_size ? [hiddenCard("the draw pile, face down", true)] : []);
  const discard = zone("discard-top", `Discard pile: ${plural(view.discard_size, "card")}${view.discard_top_takeable ? ", its top may be taken" : ""}`,
    view.discard_top ? [tribuCard(view.discard_top)] : []);
  const played = zone("played", "Azione cards played", view.played.map((name) => tribuCard(name, true)));
  play?.mark(drawPile, "pile:draw");
  play?.mark(discard, "pile:discard");
  play?.mark(played, "pile:played");
  const root = h("div", { class: `tribu${play ? " playing" : ""}`, "data-drawing": "tribu" },
    play?.bar(),
    answer(view, play),
    facts([
      ["Challenge", view.challenge], ["Turn", view.turn], ["Now", words(view.phase)],
      ["To play", view.finished ? null : seatName(view.current)], ["Attack waiting for an answer", attack],
      ["Cards to discard", view.discards_due || null], ["Draw pile rebuilt", view.rebuilds || null],
    ]),
    h("div", { class: "piles" }, drawPile, discard, played),
    h("div", { class: "seats" }, view.players.map((item) => player(view, item, context, play))));
  if (play) play.root = root;
  return root;
}

// -- the play panel's controls: what to do, in a sentence; an attack's answers -------------------

/** What the seat may do now, said where the moves are listed; an attack's answers as buttons. */
export function controls(actions, view) {
  if (!actions?.commands?.length) return null;
  const types = new Set(actions.commands.map((command) => command.type));
  const box = (...children) => h("div", { class: "tribu-controls", "data-controls": "tribu" }, ...children);
  if (types.has("tribu.pass") || types.has("tribu.defend")) {
    const attack = view?.attack;
    const said = attack
      ? `You are attacked, out of turn: ${seatName(attack.attacker)}'s ${cardName(attack.card)} against your ${words(attack.chain)} chain. Answer now:`
      : "You are attacked, out of turn. Answer now:";
    return box(h("p", { class: "tribu-note", "data-asked": "defence" }, said),
      h("p", { class: "row" }, actions.commands.filter((command) => command.type === "tribu.pass" || command.type === "tribu.defend")
        .map((command) => h("button", { type: "button", "data-answer": command.type, onclick: () => actions.send(command) },
          commandWords(command, view)))));
  }
  return box(h("p", { class: "tribu-note" }, guide(actions.commands, view)));
}

/** What the seat may do now, in a sentence (for every step but an attack's answer). */
function guide(commands, view) {
  const types = new Set(commands.map((command) => command.type));
  if (types.has("tribu.discard-three")) {
    const due = view?.discards_due || commands[0].cards?.length || 0;
    return due ? `Draw three: choose ${plural(due, "card")} of your hand to discard, one by one in the order they go ` +
      "on the discard pile (the last on top), then Discard." : "Draw three drew nothing: click the discard pile to go on.";
  }
  if (types.has("tribu.draw") || types.has("tribu.continue-chain") || types.has("tribu.attack")) {
    const ways = [types.has("tribu.draw") ? "draw a card (click the draw pile, or the discard pile when its top may be taken)" : null,
      types.has("tribu.continue-chain") ? "turn an active Diorama onto a chain (click it, then the chain)" : null,
      types.has("tribu.attack") ? "attack with an active Wolf or Bison (click it, then the chain)" : null].filter(Boolean);
    return `Your turn: ${either(ways)}.`;
  }
  return "Now play one card of your hand: click it, then where it goes (the outlined places)" +
    `${types.has("tribu.swap-active") ? "; put on an active card, it takes that card's place" : ""}.`;
}

// -- the timeline's sentences ------------------------------------------------------------------------

const chainName = (character) => `${character} chain`;

export const sentences = {
  "tribu.leaders-drawn": (e) =>
    `Each player draws a Tribe Leader, face down${e.leaders.some(Boolean) ? `: ${e.leaders.map((leader, seat) => (leader ? `${seatName(seat)} ${cardName(leader)}` : null)).filter(Boolean).join(", ")}` : ""}.`,
  "tribu.first-player-drawn": (e) => `${seatName(e.seat)} is drawn to play first.`,
  "tribu.challenge-dealt": (e) =>
    `Challenge ${e.challenge} is dealt: five cards each, ${plural(e.draw_pile_size, "card")} in the draw pile; ${seatName(e.first_player)} plays first.`,
  "tribu.turn-started": (e) => `${seatName(e.seat)}'s turn ${e.turn}.`,
  "tribu.turn-skipped": (e) => `${seatName(e.seat)} is blocked and skips the turn.`,
  "tribu.draw-pile-rebuilt": (e) => `The discard pile is shuffled into a new draw pile of ${plural(e.size, "card")}.`,
  "tribu.card-drawn": (e) => `${seatName(e.seat)} draws ${cardName(e.card)} from the ${words(e.source).toLowerCase()}.`,
  "tribu.card-discarded": (e) => `${seatName(e.seat)} discards ${cardName(e.card)}.`,
  "tribu.tribe-placed": (e) => `${seatName(e.seat)} starts a ${chainName(e.card)}.`,
  "tribu.diorama-placed": (e) =>
    `${seatName(e.seat)} places ${cardName(e.card)} on the ${chainName(e.chain)}${e.active ? ` from beside the ${chainName(e.active)}` : ""}.`,
  "tribu.card-activated": (e) => `${seatName(e.seat)} puts ${cardName(e.card)} face down beside the ${chainName(e.chain)}.`,
  "tribu.active-swapped": (e) =>
    `${seatName(e.seat)} swaps the active card of the ${chainName(e.chain)}: ${cardName(e.card)} in, ${cardName(e.returned)} back to the hand.`,
  "tribu.attack-made": (e) =>
    `${seatName(e.seat)} turns a ${cardName(e.card)} from the ${chainName(e.active)} against ${seatName(e.target)}'s ${chainName(e.chain)}.`,
  "tribu.draw-three-played": (e) => `${seatName(e.seat)} plays Draw three.`,
  "tribu.three-discarded": (e) => `${seatName(e.seat)} discards ${listed(e.cards.map(cardName))}.`,
  "tribu.block-played": (e) => `${seatName(e.seat)} blocks ${seatName(e.target)}.`,
  "tribu.steal-played": (e) =>
    `${seatName(e.seat)} plays Steal on ${seatName(e.target)}'s ${chainName(e.chain)}, for the ${chainName(e.into)}.`,
  "tribu.defended": (e) => `${seatName(e.seat)} defends with ${cardName(e.card)} from beside the ${chainName(e.active)}.`,
  "tribu.defence-passed": (e) => `${seatName(e.seat)} does not defend.`,
  "tribu.attack-resolved": (e) => {
    let result = "nothing happens";
    if (e.destroyed?.length) result = `${listed(e.destroyed.map(cardName))} destroyed`;
    if (e.stolen) result = `${cardName(e.stolen)} stolen for the ${chainName(e.into)}`;
    return `${seatName(e.seat)}'s ${cardName(e.card)} against ${seatName(e.target)}'s ${chainName(e.chain)}: ${result}.`;
  },
  "tribu.chain-eliminated": (e) =>
    `${seatName(e.seat)}'s lone ${chainName(e.chain)} is eliminated${e.had_active ? `, with its active card ${e.active ? cardName(e.active) : "face down"}` : ""}.`,
  "tribu.leader-revealed": (e) => `${seatName(e.seat)} reveals the Tribe Leader, ${cardName(e.leader)}, to save a lone chain.`,
  "tribu.challenge-scored": (e) =>
    `Challenge ${e.challenge} is scored (${words(e.reason).toLowerCase()}): ${e.players.map((p) => `${seatName(p.seat)} ${p.score} (total ${p.total})`).join(", ")}.`,
  "tribu.game-ended": (e) =>
    `The game ends (${words(e.reason).toLowerCase()}): ${e.totals.map((total, seat) => `${seatName(seat)} ${total}`).join(", ")}.`,
};

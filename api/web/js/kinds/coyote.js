// Coyote: the cards on each head (never the viewer's own), feathers, the bidding, the piles.
// When the page's seat is to act (`context.play`), the standing bid answers to a click (calling
// "Coyote!" on it, or with the Shaman variant a choice of answers), and once a Shaman power that
// names a player is chosen, the seats do; the play panel's controls (`controls`) give a number to
// bid, the power declared with it, and the same answers.

import { fill, h, listed, plural, s, seatName } from "../dom.js";
import { card, facts, hiddenCard, seatPanel, words, zone } from "./common.js";

const SPECIAL = {
  chief: "×2",
  moon: "☾",
  spirit: "✦",
  teepee: "▲",
};

export function cardName(value) {
  if (!value) return "a hidden card";
  if (value.kind === "chief") return "the Chief (doubles the Indians)";
  if (value.kind === "moon") return "the Moon (0, then a new shuffle)";
  if (value.kind === "spirit") return "the Spirit";
  if (value.kind === "teepee") return "the Teepee (draws a card)";
  return `${words(value.kind)} ${value.value}`;
}

// The Shaman powers declared with a bid, as the rulebook names them.
const POWERS = {
  "two-feathers": "2 Feathers",
  "u-turn": "U-turn",
  "take-a-card": "Take a Card",
  "it-is-your-turn": "It Is Your Turn",
};
const TARGETED = new Set(["take-a-card", "it-is-your-turn"]);
const powerName = (power) => POWERS[power] ?? words(power);

// The answers to a standing bid, in the order the rules list them; their short names on a button.
const ANSWERS = {
  "coyote.challenge": "Coyote!",
  "coyote.eye-of-the-lynx": "Eye of the Lynx",
  "coyote.cancel": "Cancel the bid",
};

const isSet = (value) => value !== null && value !== undefined;

/** "Bot 2 (greedy, seat 1)'s bid of 12", or "the bid" where the view does not say. */
function whoseBid(view) {
  if (!view || !isSet(view.bid) || !isSet(view.bidder)) return "the bid";
  return `${seatName(view.bidder)}'s bid of ${view.bid}`;
}

const someone = (seat, view) => (view && seat === view.viewer ? "yourself" : seatName(seat));

function bidWords(command, view) {
  const base = `Bid ${command.number}`;
  if (view && isSet(view.canceller) && view.viewer === view.bidder) {
    return `${base}, instead of your cancelled bid of ${view.cancelled_bid}`;
  }
  const target = command.target;
  switch (command.power ?? null) {
    case null:
      return base;
    case "two-feathers":
      return `${base} with 2 Feathers: whoever loses the “Coyote!” on it loses two feathers`;
    case "u-turn":
      return `${base} with a U-turn: play turns the other way`;
    case "take-a-card":
      return view && target === view.viewer
        ? `${base} with Take a Card on yourself: an extra card on your head, hidden from you`
        : `${base} with Take a Card on ${seatName(target)}: an extra card on that head, hidden from its player`;
    case "it-is-your-turn":
      return `${base} with It Is Your Turn: ${someone(target, view)} answers it next`;
    default:
      return `${base} with ${powerName(command.power)}${isSet(target) ? ` on ${someone(target, view)}` : ""}`;
  }
}

/** A command of Coyote's in words, as a player reads it (`view`: the seat's view, to name whose
 * bid is answered). */
export function commandWords(command, view) {
  switch (command.type) {
    case "coyote.challenge":
      return `Call “Coyote!” on ${whoseBid(view)}: the heads are shown and counted`;
    case "coyote.eye-of-the-lynx":
      return `Eye of the Lynx: repeat ${whoseBid(view)} as your own bid`;
    case "coyote.cancel":
      return view && isSet(view.bid) && isSet(view.bidder)
        ? `Cancel the bid of ${view.bid} by ${seatName(view.bidder)}: that player must bid another number, then you answer`
        : "Cancel the bid: its bidder must bid another number, then you answer";
    case "coyote.bid":
      return bidWords(command, view);
    default:
      return null;
  }
}

// -- the moves on offer, and the selection a player is making among them -------------------------

const bidKey = (number, power, target) => `${number}|${power ?? ""}|${target ?? ""}`;
const offers = new WeakMap(); // commands -> what they offer (the panel keeps one list per turn)

/** What the legal commands offer, for the drawing and the controls: the answers to the bid, the
 * bids by number, power and target, the numbers, the powers and whom each may name. */
function offered(actions) {
  if (!actions || !actions.commands?.length) return null;
  const commands = actions.commands;
  if (offers.has(commands)) return offers.get(commands);
  const answers = [];
  const bids = new Map();
  const numbers = new Set();
  const targets = new Map(); // power -> the seats it may name
  for (const command of commands) {
    if (command.type === "coyote.bid") {
      bids.set(bidKey(command.number, command.power, command.target), command);
      if (!isSet(command.power)) numbers.add(command.number);
      else {
        if (!targets.has(command.power)) targets.set(command.power, []);
        const seats = targets.get(command.power);
        if (isSet(command.target) && !seats.includes(command.target)) seats.push(command.target);
      }
    } else if (Object.hasOwn(ANSWERS, command.type)) {
      answers.push(command);
    }
  }
  const sorted = [...numbers].sort((a, b) => a - b);
  const offer = {
    answers,
    bids,
    numbers,
    min: sorted.length ? sorted[0] : null,
    max: sorted.length ? sorted.at(-1) : null,
    gaps: sorted.length ? sorted.at(-1) - sorted[0] + 1 - sorted.length : 0,
    powers: Object.keys(POWERS).filter((power) => targets.has(power)),
    targets,
    // The same moves on offer have the same key, whichever list holds them.
    key: `${commands.length}|${answers.map((answer) => answer.type).join()}|${sorted[0]}|${sorted.at(-1)}|${JSON.stringify(commands.at(-1))}`,
    send: actions.send,
  };
  offers.set(commands, offer);
  return offer;
}

// The selection in progress: the number to bid, the power declared with it and its target, or the
// standing bid picked to answer. A redraw keeps it while the same moves are on offer (and while a
// move is on its way: a refused move leaves the same moves and the same selection).
let pick = null;
let pending = false; // a move is on its way

function ensurePick(offer) {
  if (!offer) {
    if (!pending) pick = null;
  } else if (pick?.key !== offer.key) {
    pick = { key: offer.key, number: offer.min, power: null, target: null, answering: false };
  }
  return pick;
}

/** The legal bid the selection makes, if it makes one. */
function chosenBid(offer) {
  if (!offer || !pick || !Number.isInteger(pick.number)) return null;
  if (TARGETED.has(pick.power) && !isSet(pick.target)) return null;
  return offer.bids.get(bidKey(pick.number, pick.power, TARGETED.has(pick.power) ? pick.target : null)) ?? null;
}

// The drawing and the controls on the page, to bring them up to date with a selection.
let shown = null; // {element, view, context}
let panel = null; // {root, sync}

let redrawing = false; // the drawing is drawn again here, with the moves it was given

function redraw(focus = null) {
  const before = shown?.element;
  if (!before?.isConnected) return;
  redrawing = true;
  try {
    const next = draw(shown.view, shown.context); // the drawing on the page from now on
    before.replaceWith(next);
    if (focus) next.querySelector(focus)?.focus();
  } finally {
    redrawing = false;
  }
}

/** Sends a move once: from then on these moves are spent, and the drawing offers none of them
 * (the page may still show this moment while the game moves on). A refusal offers the same moves
 * again (the page draws them anew), with the selection as it was; a move that went through
 * clears the selection. */
async function sendMove(offer, command) {
  if (offer.spent) return;
  offer.spent = true;
  pending = true;
  redraw();
  try {
    await offer.send(command);
  } finally {
    pending = false;
  }
  if (offer.spent) pick = null;
}

function syncControls() {
  if (panel?.root.isConnected) panel.sync();
}

/** A move on the table: a button, outlined, named by the move's words (which hold its visible
 * text, so that what is seen is what is said), clicked or pressed with Enter or Space. */
function playButton(kind, text, label, action, attributes = {}) {
  return h("button", {
    type: "button", "data-play": kind, role: "button", tabindex: 0, "aria-label": label, title: label,
    onclick: (event) => {
      event.stopPropagation();
      action();
    },
    ...attributes,
  }, text);
}

/** A part of the table that a click anywhere on also makes its move (its button's, for the
 * keyboard and assistive technology). */
function clickable(element, button) {
  element.classList.add("playable");
  element.addEventListener("click", (event) => {
    if (event.target.closest("button, a, input, select")) return;
    button.click();
  });
  return element;
}

function neverMind(label, action) {
  return h("button", { type: "button", class: "never-mind", "data-unselect": "", "aria-label": label, onclick: action },
    "Never mind");
}

// -- the drawing ----------------------------------------------------------------------------------

function coyoteCard(value, small = false) {
  const special = SPECIAL[value.kind];
  return card({
    code: `${value.kind}:${value.value}`,
    label: cardName(value),
    face: special ?? String(value.value),
    detail: words(value.kind),
    tone: value.kind,
    small,
  });
}

function feathers(count) {
  const feather = () =>
    s("svg", { viewBox: "0 0 12 28", class: "feather", "aria-hidden": "true" },
      s("path", { d: "M6 1C1 9 2 18 6 27C10 18 11 9 6 1Z" }),
      s("path", { d: "M6 4V27", class: "quill" }));
  return h("div", { class: "feathers", "data-feathers": count, role: "img",
    "aria-label": plural(count, "feather") }, Array.from({ length: count }, feather));
}

function seat(view, item, context, offer) {
  const marks = [
    view.turn === item.seat && !view.finished ? "to bid" : null,
    view.bidder === item.seat && isSet(view.bid) && !isSet(view.canceller) ? `bid ${view.bid}` : null,
    view.starter === item.seat ? "started the round" : null,
    !item.in_play ? "out" : null,
    view.winner === item.seat ? "winner" : null,
    view.shaman && item.shaman_available ? "Shaman power left" : null,
  ];
  const head = item.cards.map((value) =>
    value === null ? hiddenCard(`a card on ${seatName(item.seat)}'s head, hidden from this view`) : coyoteCard(value));
  const target = offer && TARGETED.has(pick?.power) && Number.isInteger(pick.number)
    ? offer.bids.get(bidKey(pick.number, pick.power, item.seat)) : null;
  // The seat a chosen power may name: its button says the bid ("Bid 4 with Take a Card").
  const button = target ? playButton("target", `Bid ${target.number} with ${powerName(target.power)}`,
    commandWords(target, view), () => sendMove(offer, target), { "data-target": item.seat }) : null;
  const panelled = seatPanel(item.seat, context, marks, feathers(item.feathers),
    zone(`head-${item.seat}`, `On ${seatName(item.seat)}'s head`, head),
    button ? h("p", { class: "target-choice" }, button) : null);
  return button ? clickable(panelled, button) : panelled;
}

/** The bid that stands (or the cancelled one, to be bid again): the answers' natural place. */
function standingBid(view, offer) {
  const cancelled = isSet(view.canceller);
  const caption = cancelled ? "Cancelled bid" : view.finished ? "Last bid" : "Current bid";
  const number = cancelled ? h("s", {}, String(view.cancelled_bid)) : isSet(view.bid) ? String(view.bid) : "–";
  const said = cancelled
    ? `${seatName(view.bidder)}'s bid was cancelled by ${seatName(view.canceller)}: ${seatName(view.bidder)} bids again, ` +
      `${isSet(view.bid) ? `above ${view.bid}` : "any other number"}.`
    : isSet(view.bid)
      ? `by ${seatName(view.bidder)}${view.two_feathers ? ", with 2 Feathers: the loser loses two" : ""}` +
        `${view.lynx_barred ? ", repeated with the Eye of the Lynx" : ""}.`
      : view.finished ? "The game is over." : "No bid yet: the round opens with a bid.";
  const bid = h("div", { class: "bid-now", "data-bid": isSet(view.bid) ? view.bid : "" },
    h("span", { class: "bid-caption" }, caption),
    h("span", { class: "bid-number" }, number),
    h("span", { class: "bid-by" }, said));
  const answers = offer?.answers ?? [];
  if (!answers.length) return bid;
  if (answers.length === 1) {
    const [answer] = answers;
    const button = playButton("answer", ANSWERS[answer.type], commandWords(answer, view),
      () => sendMove(offer, answer), { "data-answer": answer.type });
    bid.append(h("span", { class: "bid-answer" }, button));
    return clickable(bid, button);
  }
  // Several answers: the bid is picked first, then one answer among them (or none).
  const names = answers.map((answer) => ANSWERS[answer.type]);
  const either = `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  const toggle = () => {
    pick.answering = !pick.answering;
    redraw(pick.answering ? ".answer-menu [data-play]" : ".bid-now [data-play]");
  };
  const picker = playButton("bid", "Answer this bid",
    `Answer this bid of ${view.bid} by ${seatName(view.bidder)}: ${either}`, toggle,
    { "aria-expanded": pick.answering ? "true" : "false" });
  bid.append(h("span", { class: "bid-answer" }, picker));
  clickable(bid, picker);
  if (!pick.answering) return bid;
  bid.classList.add("selected");
  const menu = h("div", { class: "answer-menu", role: "group", "aria-label": `Your answer to ${whoseBid(view)}` },
    h("span", { class: "menu-caption" }, "Your answer:"),
    answers.map((answer) => playButton("answer", ANSWERS[answer.type], commandWords(answer, view),
      () => sendMove(offer, answer), { "data-answer": answer.type })),
    neverMind("Never mind: choose no answer yet", () => {
      pick.answering = false;
      redraw(".bid-now [data-play]");
    }));
  return h("div", { class: "bid-choice" }, bid, menu);
}

/** Escape lets go of the selection: the bid picked to answer, or the power waiting for a seat. */
function escape(event) {
  if (event.key !== "Escape" || !pick) return;
  if (pick.answering) {
    event.preventDefault();
    pick.answering = false;
    redraw(".bid-now [data-play]");
  } else if (TARGETED.has(pick.power)) {
    event.preventDefault();
    letGoOfPower();
  }
}

/** The power waiting for a seat is dropped: the bid goes without one (the controls say so). */
function letGoOfPower() {
  pick.power = null;
  pick.target = null;
  syncControls();
  redraw();
  if (panel?.root.isConnected) panel.root.querySelector("#coyote-power")?.focus();
}

/** While a power that names a player is chosen: what to click, and a way back. */
function targetPrompt(offer) {
  if (!offer || !TARGETED.has(pick?.power)) return null;
  const ready = Number.isInteger(pick.number) && (offer.targets.get(pick.power) ?? [])
    .some((target) => offer.bids.has(bidKey(pick.number, pick.power, target)));
  const what = pick.power === "take-a-card" ? "the seat that gets an extra card" : "the player who answers your bid next";
  return h("div", { class: "play-prompt", role: "status", "data-selected": pick.power },
    h("span", {}, ready
      ? `${powerName(pick.power)} with your bid of ${pick.number}: click ${what}.`
      : `${powerName(pick.power)}: first choose a number you may bid.`),
    neverMind(`Never mind: bid without ${powerName(pick.power)}`, letGoOfPower));
}

function lastRound(result) {
  if (!result) return null;
  const hands = result.hands.map((cards, holder) =>
    cards.length ? zone(`revealed-${holder}`, seatName(holder), cards.map((value) => coyoteCard(value, true))) : null);
  return h("section", { class: "last-round", "aria-label": `Round ${result.round}, as it was counted` },
    h("h3", {}, `Round ${result.round}: ${seatName(result.challenger)} called Coyote! on ${result.bid}`),
    h("p", {}, `The count was ${result.total}: ${seatName(result.loser)} lost ${plural(result.feathers_lost, "feather")}.`),
    h("div", { class: "revealed" }, hands,
      result.teepee_card ? zone("teepee-card", "Drawn by the Teepee", [coyoteCard(result.teepee_card, true)]) : null));
}

const pileBack = (size) => (size ? [hiddenCard("the draw pile, face down", true)] : []);

/** The control of the drawing that has the focus, as a selector to find it in a new drawing. */
function focusedIn(element) {
  const active = document.activeElement;
  if (!element || !active || active === element || !element.contains(active)) return null;
  const names = ["data-play", "data-answer", "data-target", "data-unselect"].filter((name) => active.hasAttribute(name));
  const within = active.closest(".answer-menu") ? ".answer-menu " : active.closest(".play-prompt") ? ".play-prompt " : "";
  return names.length ? within + names.map((name) => `[${name}="${CSS.escape(active.getAttribute(name))}"]`).join("") : null;
}

export function draw(view, context) {
  // The page draws the table anew as the game and the moves on offer change: the focus stays on
  // the same control when it is drawn again.
  const focus = redrawing ? null : focusedIn(shown?.element);
  const given = offered(context.play);
  // The page draws moves a move was sent from: it was refused, and they are on offer again.
  if (given?.spent && !redrawing) given.spent = false;
  ensurePick(given);
  const offer = given?.spent ? null : given;
  const element = h("div", { class: "coyote", "data-drawing": "coyote" },
    targetPrompt(offer),
    h("div", { class: "seats" }, view.seats.map((item) => seat(view, item, context, offer))),
    h("div", { class: "centre" },
      standingBid(view, offer),
      facts([
        ["Round", view.round],
        ["Bids this round", view.bids.length ? view.bids.join(", ") : "none"],
        ["Play goes", view.direction],
        ["Out of the game", view.eliminated.length ? listed(view.eliminated.map(seatName)) : null],
      ]),
      h("div", { class: "piles" },
        zone("draw-pile", `Draw pile: ${plural(view.draw_pile_size, "card")}`,
          view.draw_pile ? view.draw_pile.map((value) => coyoteCard(value, true))
            : pileBack(view.draw_pile_size)),
        zone("discard", `Discard pile: ${plural(view.discard.length, "card")}`,
          view.discard.map((value) => coyoteCard(value, true)))),
      lastRound(view.last_round)));
  if (offer) element.addEventListener("keydown", (event) => escape(event));
  if (focus) queueMicrotask(() => (element.isConnected ? element.querySelector(focus)?.focus() : null));
  shown = { element, view, context };
  return element;
}

// -- the play panel's controls: a number to bid, a power and its target, the answers --------------

/** The play panel's controls for Coyote's moves, or null when none is on offer. */
export function controls(actions, view) {
  const offer = offered(actions);
  ensurePick(offer);
  if (!offer || offer.spent) {
    panel = null;
    return null;
  }
  const rebid = isSet(view?.canceller) && view.viewer === view.bidder;
  const parts = [];
  if (rebid) {
    parts.push(h("p", { class: "note", "data-rebid": "" },
      `Your bid of ${view.cancelled_bid} was cancelled by ${seatName(view.canceller)}: bid again, a different number` +
      `${isSet(view.bid) ? ` above ${view.bid}` : ""}, without a power.`));
  }
  if (offer.answers.length) {
    parts.push(h("p", { class: "coyote-answers row" },
      h("span", {}, `Answer ${whoseBid(view)}:`),
      offer.answers.map((answer) => h("button", {
        type: "button",
        "data-answer": answer.type,
        "aria-label": commandWords(answer, view),
        title: commandWords(answer, view),
        onclick: () => sendMove(offer, answer),
      }, ANSWERS[answer.type]))));
  }
  if (offer.min !== null) parts.push(bidForm(offer, view, rebid));
  const root = h("div", { class: "coyote-controls", "data-controls": "coyote" }, parts);
  return root;
}

function bidForm(offer, view, rebid) {
  const verb = rebid ? "Bid again" : isSet(view?.bid) ? (offer.answers.length ? "or raise to" : "Raise to") : "Open with";
  const number = h("input", {
    type: "number", id: "coyote-number", "data-number": "", min: offer.min, max: offer.max, step: 1,
    inputmode: "numeric", required: true, value: pick.number ?? "",
  });
  const power = offer.powers.length ? h("select", { id: "coyote-power", "data-power": "" },
    h("option", { value: "" }, "no Shaman power"),
    offer.powers.map((name) => h("option", { value: name }, powerName(name)))) : null;
  const target = h("select", { id: "coyote-target", "data-target": "" });
  const targetLabel = h("label", { class: "coyote-target" }, "on ", target);
  const button = h("button", { type: "submit", "data-bid": "", class: "primary" }, "Bid");
  const note = h("p", { class: "note coyote-note", "aria-live": "polite" });
  const except = offer.gaps && rebid ? `, except ${view.cancelled_bid}` : "";

  const sync = () => {
    const typed = Number(number.value);
    if (document.activeElement !== number && number.value !== String(pick.number ?? "")) number.value = pick.number ?? "";
    if (power) power.value = pick.power ?? "";
    const seats = TARGETED.has(pick.power) ? offer.targets.get(pick.power) ?? [] : [];
    targetLabel.hidden = seats.length === 0;
    fill(target, h("option", { value: "" }, "choose a seat…"),
      seats.map((item) => h("option", { value: String(item) }, someone(item, view))));
    target.value = isSet(pick.target) && seats.includes(pick.target) ? String(pick.target) : "";
    const command = chosenBid(offer);
    button.disabled = command === null;
    button.textContent = command ? `Bid ${command.number}` : "Bid";
    button.setAttribute("aria-label", command ? commandWords(command, view) : "Bid: choose a legal bid first");
    const legal = Number.isInteger(typed) && offer.numbers.has(typed);
    note.classList.toggle("error", number.value !== "" && !legal);
    note.textContent = number.value !== "" && !legal
      ? `${number.value} is not a bid you may make now: bid ${offer.min} to ${offer.max}${except}.`
      : command?.power ? `${commandWords(command, view)}.`
        : TARGETED.has(pick.power) ? `${powerName(pick.power)} names a player: choose one here, or click a seat on the table.`
          : `A bid from ${offer.min} to ${offer.max}${except}.`;
  };

  number.addEventListener("input", () => {
    const typed = Number(number.value);
    pick.number = number.value !== "" && Number.isInteger(typed) ? typed : null;
    sync();
    if (TARGETED.has(pick.power)) redraw();
  });
  power?.addEventListener("change", () => {
    pick.power = power.value || null;
    pick.target = null;
    pick.answering = false;
    sync();
    redraw();
  });
  target.addEventListener("change", () => {
    pick.target = target.value === "" ? null : Number(target.value);
    sync();
  });
  const form = h("form", { class: "coyote-bid row", "aria-label": "Your bid" },
    h("label", {}, `${verb} `, number), power ? h("label", {}, "with ", power) : null, targetLabel, button);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const command = chosenBid(offer);
    if (command) sendMove(offer, command);
    else sync();
  });
  panel = { root: form, sync };
  sync();
  return h("div", { class: "coyote-raise" }, form, note);
}

// -- the timeline's sentences ---------------------------------------------------------------------

const dealt = (e) => `${seatName(e.seat)} gets ${cardName(e.card)} on the head${e.extra ? " (an extra card: Take a Card)" : ""}.`;

export const sentences = {
  "coyote.deck-shuffled": (e) =>
    `${plural(e.size, "card")} are shuffled into a new draw pile (${words(e.reason)})` +
    `${e.order ? `; the top card is ${cardName(e.order[0])}` : ""}.`,
  "coyote.round-started": (e) => `Round ${e.round} begins; ${seatName(e.starter)} bids first.`,
  "coyote.card-dealt": dealt,
  "coyote.bid-made": (e) =>
    `${seatName(e.seat)} bids ${e.number}` +
    `${e.power ? ` with the power ${powerName(e.power)}` : ""}` +
    `${e.target !== null && e.target !== undefined ? ` on ${seatName(e.target)}` : ""}` +
    `${e.rebid ? " (bidding again after a Cancel)" : ""}.`,
  "coyote.lynx-called": (e) => `${seatName(e.seat)} calls the Eye of the Lynx on ${e.number}.`,
  "coyote.bid-cancelled": (e) => `${seatName(e.seat)} cancels ${seatName(e.bidder)}'s bid of ${e.number}.`,
  "coyote.challenged": (e) =>
    `${seatName(e.seat)} calls Coyote! on ${seatName(e.bidder)}'s bid of ${e.bid}; the cards are shown: ` +
    `${e.hands.map((cards, holder) => (cards.length ? `${seatName(holder)} ${listed(cards.map(cardName))}` : null)).filter(Boolean).join("; ")}.`,
  "coyote.teepee-drew": (e) => `${seatName(e.seat)}'s Teepee draws ${cardName(e.card)}.`,
  "coyote.counted": (e) => `The count is ${e.total}: ${seatName(e.loser)} loses ${plural(e.feathers_lost, "feather")}.`,
  "coyote.eliminated": (e) => `${seatName(e.seat)} has no feather left and is out.`,
  "coyote.round-ended": (e) => `The round ends${e.moon ? "; the Moon sends every card back to be shuffled" : ""}.`,
  "coyote.game-won": (e) => `${seatName(e.seat)} wins the game.`,
};

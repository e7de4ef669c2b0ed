// Coyote: the cards on each head (never the viewer's own), feathers, the bidding, the piles.

import { h, listed, plural, s, seatName } from "../dom.js";
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

function seat(view, item, context) {
  const marks = [
    view.turn === item.seat && !view.finished ? "to bid" : null,
    view.bidder === item.seat ? `bid ${view.bid}` : null,
    view.starter === item.seat ? "started the round" : null,
    !item.in_play ? "out" : null,
    view.winner === item.seat ? "winner" : null,
    view.shaman && item.shaman_available ? "Shaman power left" : null,
  ];
  const head = item.cards.map((value) =>
    value === null ? hiddenCard(`a card on ${seatName(item.seat)}'s head, hidden from this view`) : coyoteCard(value));
  return seatPanel(item.seat, context, marks, feathers(item.feathers),
    zone(`head-${item.seat}`, `On ${seatName(item.seat)}'s head`, head));
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

export function draw(view, context) {
  const bid = view.bid === null ? "no bid yet" : `${view.bid}, by ${seatName(view.bidder)}`;
  return h("div", { class: "coyote", "data-drawing": "coyote" },
    h("div", { class: "seats" }, view.seats.map((item) => seat(view, item, context))),
    h("div", { class: "centre" },
      facts([
        ["Round", view.round],
        ["Current bid", bid],
        ["Bids this round", view.bids.length ? view.bids.join(", ") : "none"],
        ["Play goes", view.direction],
        ["Two feathers at stake", view.two_feathers ? "yes" : null],
        ["Cancelled bid", view.cancelled_bid === null ? null : `${view.cancelled_bid}, by ${seatName(view.canceller)}`],
        ["Out of the game", view.eliminated.length ? listed(view.eliminated.map(seatName)) : null],
      ]),
      h("div", { class: "piles" },
        zone("draw-pile", `Draw pile: ${plural(view.draw_pile_size, "card")}`,
          view.draw_pile ? view.draw_pile.map((value) => coyoteCard(value, true))
            : pileBack(view.draw_pile_size)),
        zone("discard", `Discard pile: ${plural(view.discard.length, "card")}`,
          view.discard.map((value) => coyoteCard(value, true)))),
      lastRound(view.last_round)));
}

const dealt = (e) => `${seatName(e.seat)} gets ${cardName(e.card)} on the head${e.extra ? " (an extra card: Take a Card)" : ""}.`;

export const sentences = {
  "coyote.deck-shuffled": (e) =>
    `${plural(e.size, "card")} are shuffled into a new draw pile (${words(e.reason)})` +
    `${e.order ? `; the top card is ${cardName(e.order[0])}` : ""}.`,
  "coyote.round-started": (e) => `Round ${e.round} begins; ${seatName(e.starter)} bids first.`,
  "coyote.card-dealt": dealt,
  "coyote.bid-made": (e) =>
    `${seatName(e.seat)} bids ${e.number}` +
    `${e.power ? ` with the power ${words(e.power)}` : ""}` +
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

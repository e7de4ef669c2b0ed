// Big Manitou: the three hunting grounds with their booty and the cards played there, each
// player's hand (the viewer's own only), pile and booty, the Totem and the Horse.

import { h, listed, plural, seatName } from "../dom.js";
import { card, facts, handCards, icon, seatColour, seatPanel, words, zone } from "./common.js";


export const cardName = (kind) => (kind ? words(kind) : "a hidden card");
export function tileName(kind) {
  const [name, count] = kind.split("-");
  if (name === "tepee") return `${count} ${count === "1" ? "Tepee" : "Tepees"}`;
  if (name === "buffalo") return `${count} Buffalo`;
  return words(kind);
}

function manitouCard(kind, { owner = null, faceUp = true, small = false } = {}) {
  const hunter = kind.startsWith("hunter-");
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

const tiles = (name, caption, kinds) =>
  h("div", { class: "tiles", "data-zone": name, role: "group", "aria-label": caption },
    h("span", { class: "zone-caption" }, caption), kinds.length ? kinds.map(tile) : h("span", { class: "empty" }, "none"));

function ground(view, item, index) {
  return h("section", { class: "ground", "data-ground": index, "aria-label": `Hunting ground ${index + 1}` },
    h("h3", {}, `Hunting ground ${index + 1}${view.evaluating === index ? " (being evaluated)" : ""}`),
    tiles(`ground-${index}-booty`, "Booty", item.tiles),
    zone(`ground-${index}`, "Cards played", item.cards.map((placed) =>
      manitouCard(placed.card, { owner: placed.owner, faceUp: placed.face_up }))));
}

function player(view, item, context) {
  const marks = [
    view.to_act.includes(item.seat) && !view.finished ? "to act" : null,
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
      ["Cards to choose", item.cards_to_choose && !item.has_chosen ? item.cards_to_choose : null],
    ], "facts inline"),
    zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, handCards(item.hand, item.hand_size, (kind) => manitouCard(kind), item.seat)),
    zone(`pile-${item.seat}`, `Face-down pile (${item.pile_size})`, pile),
    tiles(`booty-${item.seat}`, "Booty won", item.tiles));
}

export function draw(view, context) {
  const outcome = view.finished ? `Final scores ${view.scores.join(", ")}` : null;
  return h("div", { class: "big-manitou", "data-drawing": "big-manitou" },
    facts([
      ["Hunt", `${view.hunt} of ${view.hunts}`],
      ["Now", words(view.phase)],
      ["First player", seatName(view.first_player)],
      ["Tiles in the bag", view.bag_size],
      ["Out of the game", view.removed.length ? plural(view.removed.length, "tile") : null],
      ["Result", outcome],
    ]),
    h("div", { class: "grounds" }, view.grounds.map((item, index) => ground(view, item, index))),
    h("div", { class: "seats" }, view.players.map((item) => player(view, item, context))));
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

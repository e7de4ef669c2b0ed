// Tribù: each player's chains (Tribe card, Dioramas, the active card face down beside them),
// hands and leaders (the viewer's own only), the piles, the Azione cards played, an attack.

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
  return card({
    code: name,
    label: `${cardName(name)} (${words(kind)})`,
    face: coloured ? words(vase) : words(name.replace("feathers-of-", "").replace("multidiorama", "multi")),
    detail: coloured ? `${colour} vase` : words(kind),
    tone: coloured ? `${kind}-${colour}` : kind,
    small,
  });
}

function chain(item, owner) {
  const flags = [item.complete ? "complete" : null, item.protected ? "protected" : null, item.magical ? "magical" : null,
    item.lone ? "lone" : null, item.fresh ? "new this turn" : null].filter(Boolean);
  let active = [];
  if (item.has_active) {
    active = [item.active === null ? hiddenCard(`the active card beside ${seatName(owner)}'s ${item.character} chain`) : tribuCard(item.active)];
  }
  return h("div", { class: "chain", "data-chain": item.character },
    zone(`chain-${owner}-${item.character}`, `${words(item.character)} chain: ${plural(item.spheres, "sphere")}${flags.length ? `, ${flags.join(", ")}` : ""}`,
      [tribuCard(item.character), ...item.dioramas.map((name) => tribuCard(name))]),
    zone(`active-${owner}-${item.character}`, "Active", active));
}

function player(view, item, context) {
  const marks = [view.current === item.seat && !view.finished ? "to play" : null, item.blocked ? "blocked" : null,
    view.first_player === item.seat ? "played first" : null];
  const leader = item.leader === null ? [hiddenCard(`${seatName(item.seat)}'s Tribe Leader, face down`)] : [tribuCard(item.leader)];
  return seatPanel(item.seat, context, marks,
    facts([["Total", item.total], ["Complete chains", item.complete_chains]], "facts inline"),
    h("div", { class: "row" },
      zone(`leader-${item.seat}`, item.leader_revealed ? "Leader (revealed)" : "Leader", leader),
      zone(`hand-${item.seat}`, `Hand (${item.hand_size})`, handCards(item.hand, item.hand_size, (name) => tribuCard(name), item.seat))),
    h("div", { class: "chains" }, item.chains.map((value) => chain(value, item.seat))));
}

export function draw(view, context) {
  const attack = view.attack
    ? `${seatName(view.attack.attacker)}'s ${cardName(view.attack.card)} against ${seatName(view.attack.seat)}'s ${view.attack.chain} chain`
    : null;
  return h("div", { class: "tribu", "data-drawing": "tribu" },
    facts([
      ["Challenge", view.challenge], ["Turn", view.turn], ["Now", words(view.phase)],
      ["To play", view.finished ? null : seatName(view.current)], ["Attack waiting for an answer", attack],
      ["Cards to discard", view.discards_due || null], ["Draw pile rebuilt", view.rebuilds || null],
    ]),
    h("div", { class: "piles" },
      zone("draw-pile", `Draw pile: ${plural(view.draw_pile_size, "card")}`,
        view.draw_pile ? view.draw_pile.map((name) => tribuCard(name, true))
          : view.draw_pile_size ? [hiddenCard("the draw pile, face down", true)] : []),
      zone("discard-top", `Discard pile: ${plural(view.discard_size, "card")}${view.discard_top_takeable ? ", its top may be taken" : ""}`,
        view.discard_top ? [tribuCard(view.discard_top)] : []),
      zone("played", "Azione cards played", view.played.map((name) => tribuCard(name, true)))),
    h("div", { class: "seats" }, view.players.map((item) => player(view, item, context))));
}

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

// Each event in a sentence. The kernel's events are described here, each kind's in its own
// module (kinds/); an event nobody describes (a kind or an event added later) still gets a
// plain sentence from its fields, so that the timeline never breaks.

import { listed, plural, seatName, words } from "./dom.js";
import { kindModule } from "./kinds/index.js";

export const short = (hex) => (hex ? `${hex.slice(0, 16)}…` : "");

const seconds = (value) => (value === null || value === undefined ? "no limit" : `${value} s`);

/** A moment in the reader's own time and language. */
export const when = (time) => new Date(time).toLocaleString();

/** Seats by number in words: [1] -> "seat 1", [1, 2] -> "seats 1 and 2". */
export const seatNumbers = (seats) => `${seats.length === 1 ? "seat" : "seats"} ${listed(seats.map(String))}`;

// Characters that would reorder or hide the sentence around them (a player's entropy is any text).
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A player's entropy as said in a sentence: quoted, cut short when long, and each character
 * that would reorder or hide the text around it shown as "�" (the JSON has it as it is). */
const quoted = (text) => {
  const safe = text.replace(UNSAFE, "\ufffd");
  return `“${safe.length > 40 ? `${safe.slice(0, 40)}…` : safe}”`;
};

const KERNEL = {
  "game.created": (e) =>
    `A game of ${e.kind} for ${e.seats} players is set up (rules version ${e.rules_version}); ` +
    `the seed is committed to as ${short(e.commitment)}` +
    `${e.seed_chosen_by_creator ? ", a seed the creator chose" : ""}.`,
  "game.seed-revealed": (e) =>
    `The seed is revealed (${short(e.seed)}): anyone can now re-derive every shuffle.`,
  "game.time-control": (e) =>
    `Time control: ${seconds(e.per_move_seconds)} per move, ${seconds(e.total_seconds)} in all, ` +
    `${seconds(e.increment_seconds)} added per move.`,
  "game.clock": (e) => `The referee's clock reads ${e.at}.`,
  "game.bots": (e) =>
    `The referee plays ${listed(e.seats.map((bot) => `${seatName(bot.seat)} (${bot.strategy})`))}.`,
  "game.table-opened": (e) =>
    `The table is opened: players take their own seats (${e.visibility === "private"
      ? "with the invitation code: the table is not listed" : "anyone may: the table is listed"}). ` +
    `Nothing is dealt until every seat is taken; unless it is full by ${when(e.expires_at)}, it is cancelled.`,
  "game.seat-taken": (e) =>
    `${e.name} takes seat ${e.seat}` +
    `${e.entropy ? `, adding ${quoted(e.entropy)} to the randomness of the deal` : ""}.`,
  "game.seat-left": (e) => `${seatName(e.seat)} gets up: the seat is open again.`,
  "game.table-cancelled": (e) =>
    `The table is cancelled: nobody took ${seatNumbers(e.open_seats)} in time. Nothing was dealt.`,
  "game.resigned": (e) => `${seatName(e.seat)} resigns.`,
  "game.timed-out": (e) => `${seatName(e.seat)} runs out of time.`,
  "game.abandoned": (e) => `The game is abandoned after ${plural(e.idle_seconds, "second")} without a move.`,
  "game.stand-in": (e) =>
    `${seatName(e.seat)} has left: the referee plays for it, and what follows is its automatic move.`,
};

function scalar(value) {
  if (value === null) return "hidden";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A plain sentence for any event: its type and its fields. */
export function plainSentence(event) {
  const fields = Object.entries(event)
    .filter(([name]) => name !== "type")
    .map(([name, value]) => `${name.replaceAll("_", " ")} ${scalar(value)}`);
  const name = words(String(event.type).split(".").pop());
  return fields.length ? `${name}: ${fields.join("; ")}.` : `${name}.`;
}

/** The sentence of one event (`event` as the API gives it, with its `type`). */
export function describe(event) {
  const [prefix] = String(event.type).split(".");
  const sentences = prefix === "game" ? KERNEL : kindModule(prefix).sentences ?? {};
  const sentence = sentences[event.type];
  if (!sentence) return plainSentence(event);
  try {
    return sentence(event);
  } catch {
    return plainSentence(event); // a field changed shape: say what is there
  }
}

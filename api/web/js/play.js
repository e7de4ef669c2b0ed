// Playing from the game page. When the page's seat is to act, its legal commands (the API's
// legal-commands, every page of them) become actions: each kind's drawing may offer them where
// they are natural (a card, a space), and this panel lists every one of them in words. A command
// goes with the version the page shows (`expected_version`) and a fresh Idempotency-Key, so a
// double click or a retry cannot play it twice; a refusal shows the rule's message and changes
// nothing on the page.

import { ApiError, gamePath, getJson, postOnce, remove } from "./api.js";
import { plainSentence } from "./describe.js";
import { fill, h, seatName } from "./dom.js";
import { kindModule } from "./kinds/index.js";
import { freshKey, keepReceipt } from "./seats.js";

const PAGE = 1000;
const MOST = 50_000; // commands read at most (Shaman Coyote at six seats offers some 14,000)
const LISTED_OPEN = 40; // more moves than this are listed folded
const MOST_LISTED = 500; // moves written out in the list at most (a hunt's secret choice has 13,000)

/** A command in words: the kind's own sentence, else its type and fields. */
export function commandWords(kind, command, view) {
  const words = kindModule(kind).commandWords;
  if (words) {
    try {
      const said = words(command, view);
      if (said) return said;
    } catch {
      // a field of another shape: said plainly below
    }
  }
  return plainSentence(command);
}

/** Every legal command of the seat now, and the version they are legal at (read again if the
 * game moved on between two pages of them). */
async function legalCommands(gameId, token) {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const commands = [];
    let version = null;
    for (let offset = 0; offset < MOST; offset += PAGE) {
      const page = await getJson(`${gamePath(gameId)}/legal-commands`, { token, params: { offset, limit: PAGE } });
      if (version !== null && page.version !== version) break; // moved on: read them all again
      version = page.version;
      commands.push(...page.commands);
      if (commands.length >= page.total || page.commands.length === 0) return { commands, version };
    }
  }
  return { commands: [], version: null };
}

export class PlayPanel {
  /** `onPlayed(result)`: a command was accepted; `onChange()`: the actions on offer changed. */
  constructor(root, { gameId, onPlayed, onLeft, onChange }) {
    Object.assign(this, { root, gameId, onPlayed, onLeft, onChange });
    this.commands = [];
    this.version = null;
    this.busy = false;
    this.asked = 0;
    this.listOpen = false; // whether the person unfolded the list of every move: kept on redraws
  }

  /** What the drawing may offer: the commands the seat may send now, and how to send one. */
  get actions() {
    return this.commands.length && !this.busy ? { commands: this.commands, send: (command) => this.send(command) } : null;
  }

  /** Called whenever the game or the page's seat changes. */
  async update({ detail, token, seat, view }) {
    Object.assign(this, { detail, token, seat, view });
    const asked = ++this.asked;
    this.root.hidden = token === null || seat === null;
    if (this.root.hidden) return this.offer([]);
    if (detail.status === "waiting") return this.show(this.waiting());
    if (detail.status !== "active") {
      this.offer([]);
      return this.show(h("p", {}, `You played ${seatName(seat)}.`));
    }
    if (!detail.to_act.includes(seat)) {
      this.offer([]);
      const whose = detail.to_act.length ? detail.to_act.map(seatName).join(", ") : "nobody";
      return this.show(h("p", { "data-turn": "theirs" }, `Waiting for ${whose} to play.`), this.resignation());
    }
    if (detail.version !== this.listedAt && this.commands.length) {
      // The game moved on (another seat's secret choice, say): the moves on offer were listed at
      // an older version and would be refused (409); none is offered until they are read again.
      this.offer([]);
      this.show(h("p", { "data-turn": "reading" }, "Reading your moves…"));
    }
    let legal;
    try {
      legal = await legalCommands(this.gameId, token);
    } catch (error) {
      if (asked === this.asked) this.show(h("p", { class: "error", role: "alert" }, `Your moves could not be read: ${error.message}`));
      return undefined;
    }
    if (asked !== this.asked) return undefined; // the game moved on meanwhile
    const same = legal.version === this.version && this.commands.length === legal.commands.length &&
      detail.version === this.listedAt && this.root.querySelector('[data-turn="yours"]') !== null;
    if (same) return undefined; // the same moves: the panel stays as it is (a refusal shown, a choice)
    this.version = legal.version;
    this.listedAt = detail.version;
    this.offer(legal.commands);
    return this.show(this.choices(), this.resignation());
  }

  offer(commands) {
    const changed = commands.length || this.commands.length;
    this.commands = commands;
    if (changed) this.onChange();
  }

  show(...blocks) {
    fill(this.root, h("h2", { id: "play-heading" }, this.seat === null ? "Play" : `You are ${seatName(this.seat)}`),
      ...blocks, h("p", { id: "play-refusal", class: "error", role: "alert", hidden: true }));
  }

  waiting() {
    return [h("p", {}, "The table is waiting for its other players; the game starts when every seat is taken."),
      h("button", { type: "button", "data-action": "leave", onclick: () => this.leave() }, "Leave the table")];
  }

  choices() {
    const view = this.view;
    const kind = this.detail.kind;
    const listed = this.commands.slice(0, MOST_LISTED);
    const list = h("ul", { class: "commands", "aria-label": "Your moves" }, listed.map((command, index) =>
      h("li", {}, h("button", {
        type: "button",
        "data-command": index,
        "data-command-type": command.type,
        onclick: () => this.send(command),
      }, commandWords(kind, command, view)))),
    this.commands.length > MOST_LISTED
      ? h("li", { class: "note" }, `…and ${this.commands.length - MOST_LISTED} more: choose them on the table or with the controls above.`)
      : null);
    const controls = this.controls(kind, view);
    return [
      h("p", { "data-turn": "yours" }, `Your turn: ${this.commands.length === 1 ? "one move is" : `${this.commands.length} moves are`} open to you. ` +
        "Choose one here (or on the table, where the drawing offers it)."),
      controls,
      // Every move in words, always there; folded when the kind's own controls say it shorter.
      controls || this.commands.length > LISTED_OPEN ? this.folded(list) : list,
    ];
  }

  /** The list of every move, folded unless the person unfolded it (a redraw keeps it so). */
  folded(list) {
    const details = h("details", { class: "all-commands", open: this.listOpen },
      h("summary", {}, `Every move, listed (${this.commands.length})`), list);
    details.addEventListener("toggle", () => { this.listOpen = details.open; });
    return details;
  }

  /** The kind's own compact controls for these moves (a bid's number, a hand's cards), if it
   * has any: `controls(actions, view)` in its module answers an element or null. */
  controls(kind, view) {
    const make = kindModule(kind).controls;
    if (!make) return null;
    try {
      return make(this.actions, view) ?? null;
    } catch (error) {
      console.error(`the ${kind} controls failed; the listed moves remain`, error);
      return null;
    }
  }

  resignation() {
    const confirm = h("button", { type: "button", class: "danger", hidden: true, "data-action": "resign-confirm",
      onclick: () => this.send({ type: "game.resign" }) }, "Yes, resign");
    const resign = h("button", { type: "button", "data-action": "resign", onclick: () => {
      confirm.hidden = false;
      confirm.focus();
    } }, "Resign…");
    return h("p", { class: "row" }, resign, " ", confirm);
  }

  refusal(message) {
    const box = this.root.querySelector("#play-refusal");
    if (!box) return;
    box.hidden = message === null;
    box.textContent = message ?? "";
  }

  /** Sends a command; the answer moves the page on, a refusal is shown and changes nothing. */
  async send(command) {
    if (this.busy) return; // a double click: the first one is on its way
    this.busy = true;
    this.setDisabled(true);
    this.refusal(null);
    // The version the moves were listed at: a move chosen from an older list is refused (409).
    const body = { command, expected_version: this.version ?? this.detail.version };
    try {
      const result = await postOnce(`${gamePath(this.gameId)}/commands`, { token: this.token, json: body, key: freshKey() });
      keepReceipt(this.gameId, this.seat, result.receipt);
      this.busy = false;
      this.asked += 1; // an answer still on its way for the moves before is dropped
      this.offer([]);
      this.show(h("p", { "data-turn": "sent" }, "Your move is in."));
      this.onPlayed(result);
    } catch (error) {
      this.busy = false;
      this.setDisabled(false);
      this.refusal(refused(error));
      this.onChange();
    }
  }

  async leave() {
    try {
      const left = await remove(`${gamePath(this.gameId)}/seats/${this.seat}`, { token: this.token });
      keepReceipt(this.gameId, this.seat, left?.receipt);
      this.onLeft();
    } catch (error) {
      this.refusal(refused(error));
    }
  }

  /** Disables the panel's buttons while a move is on its way; enabling again leaves those the
   * kind's controls had disabled themselves as they were. */
  setDisabled(disabled) {
    const buttons = [...this.root.querySelectorAll("button")];
    if (disabled) {
      this.disabledBefore = new Set(buttons.filter((button) => button.disabled));
      for (const button of buttons) button.disabled = true;
      return;
    }
    for (const button of buttons) button.disabled = this.disabledBefore?.has(button) ?? false;
  }
}

/** A refusal in words: the rule's message, and which rule. */
export function refused(error) {
  if (!(error instanceof ApiError)) return `The move could not be sent: ${error.message}`;
  const problem = error.problem ?? {};
  const rule = problem.rule_id ? ` (rule ${problem.rule_id})` : "";
  if (error.status === 409 && problem.current_version) {
    return "The game moved on before your move arrived: look at the table again and choose anew.";
  }
  return `Refused: ${problem.detail ?? error.message}${rule}`;
}

// The timeline: every event in a sentence, stepped with buttons, a slider or the keyboard
// (arrows, Home, End, Page Up and Page Down on the list), each step calling `onSelect(seq)`.

import { describe } from "./describe.js";
import { h, seatName, withNames } from "./dom.js";

const PAGE = 10;

export class Timeline {
  constructor(root, { onSelect, label = "Events" }) {
    this.onSelect = onSelect;
    this.records = [];
    this.names = null;
    this.selected = null;
    this.items = new Map();
    this.slider = h("input", { type: "range", min: 1, max: 1, value: 1, class: "scrubber", "aria-label": "Scrub through the events",
      oninput: () => this.scrub(Number(this.slider.value)) });
    this.position = h("span", { class: "position", "aria-live": "polite" });
    const button = (text, label, step) => h("button", { type: "button", "aria-label": label, onclick: () => this.step(step) }, text);
    this.controls = h("div", { class: "timeline-controls" },
      button("«", "First event", -Infinity), button("‹", "Previous event", -1),
      this.slider,
      button("›", "Next event", 1), button("»", "Last event", Infinity));
    this.list = h("ol", { class: "events", role: "listbox", tabindex: 0, "aria-label": label, onkeydown: (event) => this.key(event) });
    root.append(this.controls, this.position, this.list);
  }

  setRecords(records) {
    this.records = [];
    this.names = null; // an open table's players as of the last event added, by seat
    this.items.clear();
    this.list.replaceChildren();
    this.add(records);
  }

  add(records) {
    for (const record of records) {
      if (this.items.has(record.seq)) continue;
      this.records.push(record);
      const event = record.event;
      // Each event is told with the seats named as they were then: a player is named from the
      // event that seats them, and still named in the event of their leaving.
      if (event.type === "game.seat-taken") this.names = Object.assign([...(this.names ?? [])], { [event.seat]: event.name });
      const [who, sentence] = withNames(this.names, () => [
        record.seat === null || record.seat === undefined ? "opening" : `by ${seatName(record.seat)}`,
        describe(event),
      ]);
      if (event.type === "game.seat-left") this.names = Object.assign([...(this.names ?? [])], { [event.seat]: null });
      const item = h("li", {
        id: `event-${record.seq}`, role: "option", "data-seq": record.seq, "data-type": event.type,
        "aria-selected": "false", title: record.recorded_at ?? null, onclick: () => this.choose(record.seq),
      },
      h("span", { class: "seq" }, record.seq),
      h("span", { class: "who" }, who),
      h("span", { class: "sentence" }, sentence));
      this.items.set(record.seq, item);
      this.list.append(item);
    }
    this.slider.max = String(this.last || 1);
    this.slider.disabled = this.records.length < 2;
    this.showPosition();
  }

  get last() {
    return this.records.length ? this.records.at(-1).seq : 0;
  }

  /** Highlights the event; `onSelect` is the caller's to call (see `choose`). */
  select(seq) {
    this.items.get(this.selected)?.setAttribute("aria-selected", "false");
    this.selected = seq;
    const item = this.items.get(seq);
    if (item) {
      item.setAttribute("aria-selected", "true");
      this.list.setAttribute("aria-activedescendant", item.id);
      this.reveal(item);
    }
    this.slider.value = String(seq);
    this.showPosition();
  }

  /** Scrolls the list, and only the list, to show the item. */
  reveal(item) {
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < this.list.scrollTop) this.list.scrollTop = top;
    else if (bottom > this.list.scrollTop + this.list.clientHeight) this.list.scrollTop = bottom - this.list.clientHeight;
  }

  choose(seq) {
    const bounded = Math.min(Math.max(seq, 1), this.last);
    if (!this.last || bounded === this.selected) return;
    this.select(bounded);
    this.onSelect(bounded);
  }

  step(delta) {
    const index = this.records.findIndex((record) => record.seq === this.selected);
    const next = Math.min(Math.max(index + delta, 0), this.records.length - 1);
    if (this.records[next]) this.choose(this.records[next].seq);
  }

  scrub(seq) {
    this.select(seq);
    clearTimeout(this.scrubbing);
    this.scrubbing = setTimeout(() => this.onSelect(seq), 120); // not one request per pixel
  }

  key(event) {
    const steps = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, PageDown: PAGE, PageUp: -PAGE, Home: -Infinity, End: Infinity };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.step(steps[event.key]);
  }

  /** Marks the first event an audit found wrong. */
  markBad(seq) {
    for (const item of this.list.querySelectorAll(".bad")) {
      item.classList.remove("bad");
      item.querySelector(".flag")?.remove();
    }
    const item = this.items.get(seq);
    if (!item) return;
    item.classList.add("bad");
    item.append(h("span", { class: "flag" }, " (the first event the audit finds wrong)"));
  }

  showPosition() {
    this.position.textContent = this.selected ? `Event ${this.selected} of ${this.last}` : `${this.last} events`;
  }
}

// The front page (/): the games a page at a time, filtered by kind and status; a game opened by
// its id; a bundle file checked, with its events and the first one found wrong, and the receipts
// chosen beside it held against it (receipts.js).

import { getJson, kinds, post } from "./api.js";
import { reportView } from "./audit.js";
import { setUpReceiptsCheck } from "./receipts.js";
import { fill, h, plural } from "./dom.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const PAGE_SIZE = 20;

let catalogue = new Map();
const pages = { cursors: [null], at: 0, next: null };

/** Who sits at an open table ("Ann, Bob; 1 open"); nothing for a table its creator seated. */
function seated(game) {
  if (!game.names) return null;
  const names = game.names.filter(Boolean);
  const open = game.status === "waiting" ? (game.open_seats ?? []).length : 0;
  const said = [names.length ? names.join(", ") : "nobody yet", open ? `${open} open` : null].filter(Boolean).join("; ");
  // Each name on its own, so that a narrow screen can cut a long one short (the title has all).
  const last = names.length - 1;
  const shown = names.length ? names.map((name, index) => [index ? " " : "",
    h("span", { class: "seat-entry" }, h("span", { class: "seat-name" }, name), index < last ? "," : open ? ";" : "")]) : `nobody yet${open ? ";" : ""}`;
  return h("span", { class: "seat-names", "data-names": "", title: said }, shown, open ? ` ${open} open` : null);
}

/** The status in words: a waiting table says how many players it still needs. */
function statusText(game) {
  if (game.status !== "waiting") return game.status;
  return `waiting for ${plural((game.open_seats ?? []).length, "player")}`;
}

function row(game) {
  const title = catalogue.get(game.kind)?.title ?? game.kind;
  return h("tr", { "data-game": game.game_id, "data-status": game.status },
    h("td", {}, h("a", { href: `/games/${game.game_id}`, "aria-label": `${title}, game ${game.game_id}` }, h("code", {}, game.game_id))),
    h("td", {}, title), h("td", { "data-seats": "" }, game.seats, seated(game)), h("td", { "data-status-text": "" }, statusText(game)),
    h("td", {}, game.version), h("td", {}, new Date(game.updated_at).toLocaleString()));
}

async function showGames() {
  const status = $("games-status");
  status.textContent = "Loading…";
  try {
    const page = await getJson("/v1/games", {
      params: { kind: $("filter-kind").value, status: $("filter-status").value, cursor: pages.cursors[pages.at], limit: PAGE_SIZE },
    });
    pages.next = page.next_cursor;
    fill($("games").tBodies[0], page.games.map(row));
    status.textContent = page.games.length ? `Page ${pages.at + 1}: ${plural(page.games.length, "game")}.` : "No game matches.";
  } catch (error) {
    status.textContent = `The games could not be listed: ${error.message}`;
  }
  $("next-page").disabled = !pages.next;
  $("first-page").disabled = pages.at === 0;
}

function decodeEvent(event) {
  try {
    const bytes = Uint8Array.from(atob(event.body), (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return { type: event.type ?? "unreadable", note: "this event's body is not readable JSON" };
  }
}

/** The bundle's own events, as recorded in the file, for the report to point into. */
function bundleEvents(bytes) {
  try {
    const bundle = JSON.parse(new TextDecoder().decode(bytes));
    return bundle.events.map((event) => ({ seq: event.seq, seat: event.seat, recorded_at: event.recorded_at, event: decodeEvent(event) }));
  } catch {
    return [];
  }
}

async function verify(file) {
  const box = $("verification");
  fill(box, h("p", {}, `Checking ${file.name}…`));
  const bytes = await file.arrayBuffer(); // sent exactly as read: the digest covers the bytes
  let report;
  try {
    report = await post("/v1/audits", { body: bytes, contentType: "application/octet-stream" });
  } catch (error) {
    fill(box, h("p", { class: "error", "data-refused": error.status }, `${file.name} could not be checked: ${error.message}`));
    return;
  }
  const events = h("div", { class: "bundle-events" });
  const timeline = new Timeline(events, { onSelect: () => {}, label: "The bundle's events" });
  timeline.setRecords(bundleEvents(bytes));
  timeline.markBad(report.first_bad_seq);
  // The game is linked only by a UUID: the API answers no other id, and the page does not take
  // that on trust.
  const summary = h("p", {}, `${file.name}: game `,
    UUID.test(report.game_id ?? "") ? h("a", { href: `/games/${report.game_id}` }, h("code", {}, report.game_id)) : "?",
    ` (${report.kind}, ${report.version} events, ${report.status}).`);
  fill(box, summary, reportView(report, { onSeq: (seq) => timeline.choose(seq) }), h("h3", {}, "Its events"), events);
  if (report.first_bad_seq !== null) timeline.choose(report.first_bad_seq);
}

$("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  Object.assign(pages, { cursors: [null], at: 0 });
  showGames();
});
$("next-page").addEventListener("click", () => {
  pages.cursors[pages.at + 1] = pages.next;
  pages.at += 1;
  showGames();
});
$("first-page").addEventListener("click", () => {
  pages.at = 0;
  showGames();
});
$("open-game").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = $("open-id").value.trim();
  if (UUID.test(id)) location.assign(`/games/${id}`);
});
setUpReceiptsCheck($("receipt-files").form);
$("bundle-file").addEventListener("change", (event) => {
  const [file] = event.target.files;
  if (file) verify(file);
});

kinds()
  .then((listed) => {
    catalogue = listed;
    for (const [kind, info] of catalogue) $("filter-kind").append(h("option", { value: kind }, info.title));
  })
  .catch(() => {}) // without the catalogue the kind filter offers "any" only; the list still shows
  .finally(showGames);

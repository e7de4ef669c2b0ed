// The game page (/games/{id}): the table drawn at any event, the timeline, live updates, the
// outcome and the audit; a seat's player takes a seat here and plays (play.js). Everything
// comes from the public API; a seat token goes nowhere but into Authorization headers, and is
// kept in this tab's storage only (seats.js).

import { ApiError, allEvents, gamePath, getJson, kinds, post, postOnce } from "./api.js";
import { reportView } from "./audit.js";
import { seatNumbers, when } from "./describe.js";
import { fill, h, listed, nameSeats, plural, seatName, withNames, words } from "./dom.js";
import { seatColour } from "./kinds/common.js";
import { drawView } from "./kinds/index.js";
import { LiveStream } from "./live.js";
import { PlayPanel, refused } from "./play.js";
import { revealed } from "./reveal.js";
import { Timeline } from "./timeline.js";
import {
  forgetToken, freshKey, keepReceipt, seatLink, storeToken, storedInvitation, storedReceipts, storedToken, takeFragment,
} from "./seats.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const $ = (id) => document.getElementById(id);

takeFragment(gameId); // a link's seat token or invitation code, into the tab's storage

const page = {
  token: storedToken(gameId), // a seat's token: here, and in the tab's storage
  seat: null,
  detail: null,
  catalogue: new Map(),
  states: new Map(), // seq -> StateAt, for the current viewer
  wanted: null, // the seq whose state should be on the table
  following: true, // the table moves on with live events while the last one is shown
  live: null,
  generation: 0, // bumped whenever the viewer changes: older answers are dropped
  shown: null, // the StateAt on the table
  audits: 0, // bumped with each audit asked for: only the latest one is shown
  audited: null, // the version the audit on the page checked
};

const timeline = new Timeline($("timeline"), { onSelect: (seq) => show(seq) });
const play = new PlayPanel($("play"), {
  gameId,
  onPlayed: () => refreshSoon(0),
  onLeft: () => {
    forgetToken(gameId);
    page.token = null;
    load().then(viewing).catch(fail);
  },
  // Redrawn with the moves on offer, or without any when the state shown is not the latest.
  onChange: () => {
    if (page.shown !== null) drawState(page.shown);
  },
});

/** Whether a state is the game as it is now (the one a move is made on). */
const isLatest = (state) => state.seq >= timeline.last && state.seq >= (page.detail?.version ?? 0);

function fail(error) {
  const box = $("page-error");
  box.hidden = false;
  box.textContent = error.message ?? String(error);
}

function clearFailure() {
  $("page-error").hidden = true;
}

async function stateAt(seq) {
  if (!page.states.has(seq)) {
    page.states.set(seq, getJson(`${gamePath(gameId)}/states/${seq}`, { token: page.token }));
  }
  try {
    return await page.states.get(seq);
  } catch (error) {
    page.states.delete(seq);
    throw error;
  }
}

/** Puts the state after event `seq` on the table (the latest asked for wins). */
async function show(seq) {
  const generation = page.generation;
  page.wanted = seq;
  page.following = seq === timeline.last;
  timeline.select(seq);
  $("board").setAttribute("aria-busy", "true");
  let state;
  try {
    state = await stateAt(seq);
  } catch (error) {
    if (page.wanted === seq) fail(error);
    return;
  }
  if (page.wanted !== seq || page.generation !== generation) return;
  drawState(state);
}

/** The seats nobody had taken at a table waiting for its players, or cancelled unfilled (none
 * once the table is full, or at a table its creator seated). */
function openSeats(names, status) {
  if ((status !== "waiting" && status !== "cancelled") || !names) return [];
  return names.flatMap((name, seat) => (name ? [] : [seat]));
}

/** The state on the table, its seats named as they were at that moment. */
function drawState(state) {
  withNames(state.names, () => drawNamed(state));
}

function drawNamed(state) {
  const everything = state.seat_views !== null && state.seat_views !== undefined;
  const view = everything ? revealed(state.view, state.seat_views) : state.view;
  const board = $("board");
  const left = new Map((state.left ?? []).map((gone) => [gone.seat, gone.how]));
  const open = new Set(openSeats(state.names, state.status));
  const openNote = state.status === "cancelled" ? "nobody sat here" : "open: nobody sits here yet";
  const actions = isLatest(state) ? play.actions : null; // a move is made on the game as it is now
  fill(board, drawView(page.detail.kind, view, { viewer: page.seat, everything, left, open, openNote, play: actions }));
  if (state.clocks) board.append(clocks(state));
  page.shown = state;
  tick();
  board.dataset.seq = String(state.seq);
  board.dataset.status = state.status;
  board.dataset.viewer = page.seat === null ? "spectator" : String(page.seat);
  board.removeAttribute("aria-busy");
  heading();
  $("table-note").textContent = state.status === "waiting"
    ? `The table waits for its players: nothing is dealt until every seat is taken, and ${plural(open.size, "seat")} ${open.size === 1 ? "is" : "are"} open here.`
    : state.status === "cancelled"
      ? "The table was cancelled before it was full: nothing was ever dealt."
      : everything
        ? "The game is over, so nothing about it is secret: every hand and hidden card of this moment is shown."
        : page.seat === null
          ? "As a spectator sees it: cards hidden from everyone at the table are drawn face down."
          : `As ${seatName(page.seat)} saw it: cards hidden from that seat are drawn face down.`;
  $("raw-state").textContent = JSON.stringify(state, null, 2);
}

/** "The table after event 7 of 25": the game's version as the page knows it now, which a
 * live game moves on even while an older event is shown. */
function heading() {
  if (page.shown === null) return;
  const version = Math.max(page.shown.version, timeline.last, page.detail?.version ?? 0);
  $("table-heading").textContent = `The table after event ${page.shown.seq} of ${version}`;
}

const GONE = { resignation: "resigned", timeout: "timed out" };

/** Minutes and seconds: 605.2 -> "10:05". */
function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Each seat's clock at the state shown (the API's `clocks`, beside the view). A running clock
 * of the latest state counts down to its deadline (`tick`); one of a past state is as it was. */
function clocks(state) {
  const control = page.detail.time_control;
  const limits = control ? [
    control.total_seconds === null ? null : `${clockText(control.total_seconds)} in all`,
    control.per_move_seconds === null ? null : `${clockText(control.per_move_seconds)} a move`,
    control.increment_seconds ? `${control.increment_seconds} s added per move` : null,
  ].filter(Boolean) : [];
  const gone = new Map((state.left ?? []).map((item) => [item.seat, item.how]));
  return h("section", { class: "clocks", "aria-label": "Clocks" },
    h("h3", {}, "Clocks", limits.length ? h("span", { class: "clock-limits" }, ` (${listed(limits)})`) : null),
    h("ul", { class: "clock-list" }, state.clocks.map((clock) => {
      const left = clock.remaining_seconds === null ? "no total limit" : clockText(clock.remaining_seconds);
      return h("li", {
        class: `clock${clock.running ? " running" : ""}`,
        "data-clock": clock.seat,
        "data-running": clock.running ? "true" : "false",
        "data-deadline": clock.running && clock.deadline ? clock.deadline : null,
      },
      h("span", { class: "clock-seat" }, seatName(clock.seat)), " ",
      h("span", { class: "clock-left", "data-left": "" }, left),
      clock.remaining_seconds === null && !clock.running ? null : " left",
      h("span", { class: "clock-state" }, gone.has(clock.seat) ? `, ${GONE[gone.get(clock.seat)] ?? gone.get(clock.seat)}`
        : clock.running ? ", running" : ", waiting"));
    })));
}

/** Counts the running clocks down, once a second, while the latest state of a live game is on
 * the table; a past state's clocks stay as they were. */
function tick() {
  const latest = page.shown !== null && page.shown.seq >= timeline.last && page.detail?.status === "active";
  for (const clock of $("board").querySelectorAll(".clocks [data-deadline]")) {
    if (!latest) continue;
    const left = (Date.parse(clock.dataset.deadline) - Date.now()) / 1000;
    clock.querySelector("[data-left]").textContent = clockText(left);
  }
}
setInterval(tick, 1000);

const SEATING = {
  open: "open: each player holds their own seat token",
  creator: "by its creator: its creator held every seat's token",
};

const over = (status) => status === "finished" || status === "cancelled";

function renderSummary() {
  const detail = page.detail;
  nameSeats(detail.names); // the seats' names from now on, wherever the page names a seat
  const title = page.catalogue.get(detail.kind)?.title ?? detail.kind;
  document.title = `Referee: ${title}, game ${detail.game_id.slice(0, 8)}`;
  $("game-title").textContent = `${title} · ${detail.game_id}`;
  $("summary-heading").textContent = `${title}, ${detail.seats} players`;
  const seating = detail.seating ?? "creator";
  const facts = [
    ["Status", detail.status],
    ["Events", detail.version],
    ["To act", detail.to_act.length ? listed(detail.to_act.map(seatName)) : "nobody"],
    ["Rules version", detail.rules_version],
    ["Created", new Date(detail.created_at).toLocaleString()],
    ["Last event", new Date(detail.updated_at).toLocaleString()],
    ["Seating", SEATING[seating] ?? seating],
  ];
  fill($("facts"), facts.map(([term, value]) => [h("dt", {}, term), h("dd", { "data-fact": term.toLowerCase() }, String(value))]));
  fill($("players"), players(detail));
  fill($("outcome"), waiting(detail) ?? outcome(detail.outcome, detail.left, detail.names));
  heading();
  sitting(detail);
  $("copy-seat-link").hidden = page.token === null;
  $("save-receipts").hidden = storedReceipts(gameId, page.seat).length === 0;
  play.update({ detail, token: page.token, seat: page.seat, view: detail.view });
}

/** The form to take a seat: shown at a table waiting for players, to a page that holds none. */
function sitting(detail) {
  const open = detail.status === "waiting" && page.seat === null ? detail.open_seats ?? [] : [];
  $("sit").hidden = open.length === 0;
  const select = $("sit-seat");
  const chosen = select.value;
  fill(select, h("option", { value: "" }, "the first open one"),
    open.map((seat) => h("option", { value: String(seat) }, `seat ${seat}`)));
  select.value = open.includes(Number(chosen)) ? chosen : "";
}

$("sit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const refusal = $("sit-refusal");
  refusal.hidden = true;
  const seat = $("sit-seat").value;
  const body = { name: $("sit-name").value, entropy: $("sit-entropy").value };
  if (seat !== "") body.seat = Number(seat);
  const invitation = storedInvitation(gameId);
  if (invitation) body.invitation_code = invitation;
  try {
    const granted = await postOnce(`${gamePath(gameId)}/seats`, { json: body, key: freshKey() });
    storeToken(gameId, granted.token);
    keepReceipt(gameId, granted.seat, granted.receipt);
    page.token = granted.token;
    await load();
    viewing();
  } catch (error) {
    refusal.hidden = false;
    refusal.textContent = error instanceof ApiError ? refused(error) : `You could not sit: ${error.message}`;
  }
});

$("copy-seat-link").addEventListener("click", async () => {
  if (page.token === null) return;
  const link = seatLink(gameId, page.token);
  try {
    await navigator.clipboard.writeText(link);
    $("viewing").textContent = "The link to your seat is copied: open it on your other device. It holds your token: keep it to yourself.";
  } catch {
    $("viewing").textContent = "The browser did not let the page copy the link.";
  }
});

// The receipts this browser was given for the game, and one of its head as it stands now, saved
// as the file `referee bot` keeps: what a player holds in a dispute (README, "Disputes").
$("save-receipts").addEventListener("click", async () => {
  const receipts = [...storedReceipts(gameId, page.seat)];
  try {
    receipts.push(await getJson(`${gamePath(gameId)}/receipt`));
  } catch {
    // the head's receipt is a bonus: the ones kept are saved without it
  }
  const record = { game_id: gameId, ...(page.seat === null ? {} : { seat: page.seat }), receipts };
  const file = new Blob([JSON.stringify(record)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(file), download: `receipts-${gameId}${page.seat === null ? "" : `-seat${page.seat}`}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  $("viewing").textContent = `${receipts.length} receipts saved: keep the file with the game's export.`;
});

/** An open table's players, seat by seat: who sits where, and the seats still open. */
function players(detail) {
  if (!detail.names) return null;
  const open = new Set(detail.open_seats ?? []);
  return [h("h2", { class: "visually-hidden" }, "Players"),
    h("ol", { class: "players", start: 0, "aria-label": "Players, by seat" }, detail.names.map((name, seat) => {
      const item = h("li", { "data-player": seat, class: name ? null : "open" },
        h("span", { class: "seat-dot", "aria-hidden": "true" }),
        name ? seatName(seat) : `Seat ${seat}: ${open.has(seat) ? "open" : detail.status === "cancelled" ? "nobody came" : "nobody"}`);
      item.style.setProperty("--seat", seatColour(seat)); // CSSOM: the pages allow no inline style
      return item;
    }))];
}

/** A table still waiting for its players: how many, and until when. */
function waiting(detail) {
  if (detail.status !== "waiting") return null;
  const open = detail.open_seats ?? [];
  const until = detail.expires_at ? ` (expires at ${when(detail.expires_at)})` : "";
  return h("section", { class: "waiting", "data-waiting": open.length },
    h("h2", {}, `Waiting for ${plural(open.length, "player")}${until}.`), " ",
    h("p", {}, `${words(seatNumbers(open))} ${open.length === 1 ? "is" : "are"} open. Nothing is dealt until every ` +
      "seat is taken; if the table is not full by then, it is cancelled. This page follows it live."));
}

const ENDINGS = {
  rules: "by its rules",
  resignation: "by resignation",
  timeout: "on time",
  abandoned: "abandoned, with no move for too long",
  // "cancelled" (an open table nobody filled in time) is said in a sentence of its own: `cancelled`.
};

const ordinal = (n) => `${n}${["th", "st", "nd", "rd"][n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10 <= 3 ? n % 10 : 0]}`;

/** A cancelled table's end: the seats nobody took (open in its names, or as its last event says). */
function cancelled(names) {
  const event = timeline.records.findLast((record) => record.event.type === "game.table-cancelled")?.event;
  const seats = names ? names.flatMap((name, seat) => (name ? [] : [seat])) : event?.open_seats ?? [];
  return h("section", { class: "outcome cancelled", "data-ending": "cancelled" },
    h("h2", {}, `The table was cancelled: nobody took ${seatNumbers(seats)} in time.`), " ",
    h("p", {}, "Nothing was dealt. The seed it would have been dealt from is revealed (see the audit)."));
}

/** The outcome in sentences: who won (alone, shared, nobody), each place with its score, ties
 * and tie-breaks said in words, and the seats that left; a cancelled table's own sentence. */
function outcome(result, left = [], names = null) {
  if (!result.finished) return null;
  if (result.ending === "cancelled") return cancelled(names);
  const ending = result.ending ? ` ${ENDINGS[result.ending] ?? `(${result.ending})`}` : "";
  const scores = result.scores;
  // "Seat 2 (14)"; a named seat has its brackets already: "Ann (seat 0), score 14".
  const scored = (seat) => (!scores ? seatName(seat)
    : seatName(seat) === `Seat ${seat}` ? `${seatName(seat)} (${scores[seat]})` : `${seatName(seat)}, score ${scores[seat]}`);
  const winners = result.winners.map(seatName);
  const won = winners.length === 0
    ? result.ending === "abandoned" ? "Nobody won: the game was abandoned." : "Nobody won: the game is a draw."
    : winners.length === 1 ? `${winners[0]} won.` : `${listed(winners)} share the win.`;
  const notes = [];
  result.ranking.forEach((group, index) => {
    if (group.length > 1 && index > 0) notes.push(`${listed(group.map(seatName))} share ${ordinal(index + 1)} place.`);
    const next = result.ranking[index + 1];
    if (scores && next) {
      const level = next.filter((seat) => group.some((other) => scores[other] === scores[seat]));
      if (level.length) {
        notes.push(`${listed(group.map(seatName))} and ${listed(level.map(seatName))} scored the same ` +
          `(${scores[level[0]]}): ${listed(group.map(seatName))} ${group.length > 1 ? "are" : "is"} placed ahead by the game's tie-break.`);
      }
    }
  });
  const gone = left.map((item) => `${seatName(item.seat)} ${item.how === "timeout" ? "ran out of time" : GONE[item.how] ?? item.how}.`);
  // A space between the blocks too, so that their text never runs together when read as text.
  const blocks = [
    h("h2", {}, `The game is over${ending}.`),
    h("p", { class: "won" }, won),
    result.ranking.length
      ? h("ol", { class: "ranking", "aria-label": "Ranking" }, result.ranking.map((group, place) =>
        [h("li", { "data-place": place + 1 }, `${ordinal(place + 1)}: `, listed(group.map(scored)), ";"), " "]))
      : null,
    notes.length || gone.length ? h("p", { class: "ties" }, [...notes, ...gone].join(" ")) : null,
    scores ? h("p", { class: "scores", "data-scores": scores.join(",") },
      `Scores: ${scores.map((score, seat) => `${seatName(seat)} ${score}`).join(", ")}.`) : null,
  ].filter(Boolean);
  return h("section", { class: "outcome", "data-winners": result.winners.join(",") },
    blocks.flatMap((block) => [block, " "]));
}

async function loadAudit() {
  const body = $("audit-body");
  const detail = page.detail;
  const seed = timeline.records.find((record) => record.event.type === "game.seed-revealed")?.event.seed;
  const file = `${detail.kind}-${detail.game_id}.json`;
  const proof = h("dl", { class: "facts proof" },
    h("dt", {}, "Commitment (sha256 of the seed)"), h("dd", { class: "hex", "data-commitment": detail.commitment }, detail.commitment),
    h("dt", {}, "Seed"), h("dd", { class: "hex", "data-seed": seed ?? "" }, seed ?? "secret until the game is over"));
  const download = over(detail.status)
    ? h("p", {}, h("a", { href: `${gamePath(gameId)}/export`, download: file, "data-export": "" }, "Download the bundle"),
      " and check it offline, with no server: ", h("code", { "data-command": "" }, `referee verify ${file}`))
    : h("p", {}, "The bundle can be downloaded once the game is over.");
  const again = h("button", { type: "button", onclick: () => loadAudit() }, "Check again");
  const asked = ++page.audits;
  if (!body.querySelector("[data-audit-version]")) fill(body, h("p", { class: "note" }, "Checking…"));
  try {
    const report = await getJson(`${gamePath(gameId)}/audit`, { token: page.token });
    if (asked !== page.audits) return; // a later check is on its way
    page.audited = report.version;
    timeline.markBad(report.first_bad_seq);
    fill(body, h("p", { class: "as-of", "data-audit-version": report.version }, auditAge()),
      reportView(report, { onSeq: (seq) => timeline.choose(seq) }), proof, download, again);
  } catch (error) {
    if (asked !== page.audits) return;
    fill(body, h("p", { class: "error" }, `The audit could not run: ${error.message}`), proof, download, again);
  }
}

/** What the audit on the page covers, and whether the game has moved on since. */
function auditAge() {
  const version = Math.max(timeline.last, page.detail?.version ?? 0);
  return page.audited >= version
    ? `As of event ${page.audited}, the latest.`
    : `As of event ${page.audited}; the game is at event ${version} now: checking again…`;
}

let auditing = null;
/** A live game's audit is checked again once its events pause (an audit reads every event:
 * not more than once every few seconds). */
function auditLater() {
  const shown = $("audit-body").querySelector("[data-audit-version]");
  if (shown) shown.textContent = auditAge();
  if (auditing !== null) return;
  auditing = setTimeout(() => {
    auditing = null;
    loadAudit();
  }, 2000);
}

function liveStatus(status) {
  $("live-status").textContent = status;
  $("live-status").dataset.live = status;
}

function startLive() {
  page.live?.stop();
  page.live = null;
  if (over(page.detail.status)) {
    liveStatus(page.detail.status === "cancelled" ? "off: the table was cancelled" : "off: the game is over");
    return;
  }
  const ticketed = page.token !== null;
  const token = page.token;
  const live = new LiveStream({
    ticketed,
    open: async (after, again) => {
      if (again) {
        const now = await getJson(gamePath(gameId), { token });
        if (over(now.status) && now.version === after) {
          gameOver();
          return null;
        }
      }
      const url = new URL(`${gamePath(gameId)}/events/stream`, location.origin);
      url.searchParams.set("after", String(after));
      if (ticketed) url.searchParams.set("ticket", (await post(`${gamePath(gameId)}/stream-tickets`, { token })).ticket);
      return url.pathname + url.search;
    },
    onRecord: (record) => arrived(record),
    onEnd: () => gameOver(),
    onStatus: (status) => liveStatus(status),
  });
  page.live = live;
  live.start(timeline.last);
}

let refreshing = null;
function arrived(record) {
  timeline.add([record]);
  heading();
  auditLater();
  if (page.following) show(record.seq);
  refreshSoon(150);
}

/** The summary (to act, version, the moves on offer) read again once a burst of events is in. */
function refreshSoon(delay) {
  clearTimeout(refreshing);
  refreshing = setTimeout(async () => {
    const before = page.detail.status;
    page.detail = await getJson(gamePath(gameId), { token: page.token });
    renderSummary();
    // The last seat is taken and the game dealt: the table moves on to the game as it starts.
    if (before === "waiting" && page.detail.status === "active" && !page.following) show(timeline.last);
  }, delay);
}

/** Everything is public now: read it all again. */
async function gameOver() {
  page.live?.stop();
  await load();
}

async function load() {
  clearFailure();
  page.generation += 1;
  page.states.clear();
  try {
    page.detail = await getJson(gamePath(gameId), { token: page.token });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || page.token === null) throw error;
    forgetToken(gameId); // a token no longer good here (its player left the seat): a spectator
    page.token = null;
    page.detail = await getJson(gamePath(gameId));
  }
  page.seat = page.detail.seat;
  renderSummary();
  timeline.setRecords(await allEvents(gameId, page.token));
  // A move made between the two reads (a bot's, say): the summary catches up with the events.
  if (timeline.last > page.detail.version) refreshSoon(0);
  const seq = page.following || page.wanted === null ? timeline.last : Math.min(page.wanted, timeline.last);
  await show(seq);
  startLive();
  await loadAudit();
}

function viewing() {
  $("viewing").textContent = page.seat === null ? "Viewing as a spectator." : `Viewing as ${seatName(page.seat)}.`;
}

$("seat-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("seat-token");
  const candidate = input.value.trim();
  input.value = ""; // out of the page's DOM as soon as it is read
  if (!candidate) return;
  try {
    await getJson(gamePath(gameId), { token: candidate });
  } catch (error) {
    $("viewing").textContent = `That token was refused: ${error.message}`;
    return;
  }
  page.token = candidate;
  storeToken(gameId, candidate);
  await load().catch(fail);
  viewing();
});

$("spectate").addEventListener("click", async () => {
  page.token = null;
  forgetToken(gameId);
  await load().catch(fail);
  viewing();
});

// Without the catalogue the page still works: it names the kind by its id instead of its title.
const catalogue = kinds().then((listed) => { page.catalogue = listed; }).catch(() => {});
Promise.all([catalogue, load()])
  .then(() => {
    viewing();
    renderSummary();
  })
  .catch(fail);

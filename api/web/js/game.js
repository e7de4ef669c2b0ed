// The game page (/games/{id}): the table drawn at any event, the timeline, live updates, the
// outcome and the audit. Everything comes from the public API; a seat token pasted here lives
// in this module's memory only and goes nowhere but into Authorization headers.

import { allEvents, gamePath, getJson, kinds, post } from "./api.js";
import { reportView } from "./audit.js";
import { short } from "./describe.js";
import { fill, h, listed, seatName } from "./dom.js";
import { drawView } from "./kinds/index.js";
import { LiveStream } from "./live.js";
import { revealed } from "./reveal.js";
import { Timeline } from "./timeline.js";

const gameId = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const $ = (id) => document.getElementById(id);

const page = {
  token: null, // a seat's token: this variable is the only place it is kept
  seat: null,
  detail: null,
  catalogue: new Map(),
  states: new Map(), // seq -> StateAt, for the current viewer
  wanted: null, // the seq whose state should be on the table
  following: true, // the table moves on with live events while the last one is shown
  live: null,
  generation: 0, // bumped whenever the viewer changes: older answers are dropped
};

const timeline = new Timeline($("timeline"), { onSelect: (seq) => show(seq) });

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

function drawState(state) {
  const everything = state.seat_views !== null && state.seat_views !== undefined;
  const view = everything ? revealed(state.view, state.seat_views) : state.view;
  const board = $("board");
  fill(board, drawView(page.detail.kind, view, { viewer: page.seat, everything }));
  if (view.clocks !== undefined) board.append(clocks(view.clocks));
  board.dataset.seq = String(state.seq);
  board.dataset.viewer = page.seat === null ? "spectator" : String(page.seat);
  board.removeAttribute("aria-busy");
  $("table-heading").textContent = `The table after event ${state.seq} of ${state.version}`;
  $("table-note").textContent = everything
    ? "The game is over, so nothing about it is secret: every hand and hidden card of this moment is shown."
    : page.seat === null
      ? "As a spectator sees it: cards hidden from everyone at the table are drawn face down."
      : `As ${seatName(page.seat)} saw it: cards hidden from that seat are drawn face down.`;
  $("raw-state").textContent = JSON.stringify(state, null, 2);
}

function clocks(value) {
  return h("section", { class: "clocks", "aria-label": "Clocks" }, h("h3", {}, "Clocks"),
    h("pre", {}, JSON.stringify(value, null, 2)));
}

function renderSummary() {
  const detail = page.detail;
  const title = page.catalogue.get(detail.kind)?.title ?? detail.kind;
  document.title = `Referee: ${title}, game ${detail.game_id.slice(0, 8)}`;
  $("game-title").textContent = `${title} · ${detail.game_id}`;
  $("summary-heading").textContent = `${title}, ${detail.seats} players`;
  const facts = [
    ["Status", detail.status],
    ["Events", detail.version],
    ["To act", detail.to_act.length ? listed(detail.to_act.map(seatName)) : "nobody"],
    ["Rules version", detail.rules_version],
    ["Created", new Date(detail.created_at).toLocaleString()],
    ["Last event", new Date(detail.updated_at).toLocaleString()],
  ];
  fill($("facts"), facts.map(([term, value]) => [h("dt", {}, term), h("dd", { "data-fact": term.toLowerCase() }, String(value))]));
  fill($("outcome"), outcome(detail.outcome));
}

function outcome(result) {
  if (!result.finished) return null;
  const ending = result.ending ? ` (${result.ending})` : "";
  return h("section", { class: "outcome", "data-winners": result.winners.join(",") },
    h("h2", {}, `The game is over${ending}`),
    h("p", {}, result.winners.length ? `Won by ${listed(result.winners.map(seatName))}.` : "Nobody won."),
    result.ranking.length
      ? h("ol", { class: "ranking", "aria-label": "Ranking" }, result.ranking.map((group, place) =>
        h("li", { "data-place": place + 1 }, `${place + 1}. `, listed(group.map((seat) =>
          result.scores ? `${seatName(seat)}: ${result.scores[seat]}` : seatName(seat))))))
      : null,
    result.scores ? h("p", { class: "scores", "data-scores": result.scores.join(",") },
      `Scores: ${result.scores.map((score, seat) => `${seatName(seat)} ${score}`).join(", ")}.`) : null);
}

async function loadAudit() {
  const body = $("audit-body");
  const detail = page.detail;
  const seed = timeline.records.find((record) => record.event.type === "game.seed-revealed")?.event.seed;
  const file = `${detail.kind}-${detail.game_id}.json`;
  const proof = h("dl", { class: "facts proof" },
    h("dt", {}, "Commitment (sha256 of the seed)"), h("dd", { class: "hex", "data-commitment": detail.commitment }, detail.commitment),
    h("dt", {}, "Seed"), h("dd", { class: "hex", "data-seed": seed ?? "" }, seed ?? "secret until the game is over"));
  const download = detail.status === "finished"
    ? h("p", {}, h("a", { href: `${gamePath(gameId)}/export`, download: file, "data-export": "" }, "Download the bundle"),
      " and check it offline, with no server: ", h("code", { "data-command": "" }, `referee verify ${file}`))
    : h("p", {}, "The bundle can be downloaded once the game is over.");
  const again = h("button", { type: "button", onclick: () => loadAudit() }, "Check again");
  fill(body, h("p", { class: "note" }, "Checking…"));
  try {
    const report = await getJson(`${gamePath(gameId)}/audit`, { token: page.token });
    timeline.markBad(report.first_bad_seq);
    fill(body, reportView(report, { onSeq: (seq) => timeline.choose(seq) }), proof, download, again);
  } catch (error) {
    fill(body, h("p", { class: "error" }, `The audit could not run: ${error.message}`), proof, download, again);
  }
}

function liveStatus(status) {
  $("live-status").textContent = status;
  $("live-status").dataset.live = status;
}

function startLive() {
  page.live?.stop();
  page.live = null;
  if (page.detail.status !== "active") {
    liveStatus("off: the game is over");
    return;
  }
  const ticketed = page.token !== null;
  const token = page.token;
  const live = new LiveStream({
    ticketed,
    open: async (after, again) => {
      if (again) {
        const now = await getJson(gamePath(gameId), { token });
        if (now.status === "finished" && now.version === after) {
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
  if (page.following) show(record.seq);
  clearTimeout(refreshing); // the summary (to act, version) once a burst of events is in
  refreshing = setTimeout(async () => {
    page.detail = await getJson(gamePath(gameId), { token: page.token });
    renderSummary();
  }, 150);
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
  page.detail = await getJson(gamePath(gameId), { token: page.token });
  page.seat = page.detail.seat;
  renderSummary();
  timeline.setRecords(await allEvents(gameId, page.token));
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
  await load().catch(fail);
  viewing();
});

$("spectate").addEventListener("click", async () => {
  page.token = null;
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

// The front page's play section: start a table of any kind (alone against the server's bots in
// one click, or with every setting), and join a public table waiting for players. A seat taken
// here is kept in the tab's storage (seats.js) and the game's page opens on it.

import { ApiError, gamePath, getJson, kinds, postOnce } from "./api.js";
import { fill, h, plural } from "./dom.js";
import { refused } from "./play.js";
import { freshKey, keepReceipt, storeToken, storedInvitation } from "./seats.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "referee.name";
// "Coyote against three bots": a table a person alone fills with the server's bots.
const QUICK_SEATS = { coyote: 4 };
const WHO = [
  ["you", "you"],
  ["player", "another player"],
  ["greedy", "a bot (greedy)"],
  ["random", "a bot (random)"],
];

let catalogue = new Map();

function myName() {
  const name = $("my-name").value.trim();
  if (!name) {
    $("my-name").focus();
    throw new Error("Say your name first: the other players see it.");
  }
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage refused: the name is asked again next time
  }
  return name;
}

function said(box, error) {
  box.hidden = false;
  box.textContent = error instanceof ApiError ? refused(error) : error.message;
}

/** Creates a table with the creator's own seat, keeps its token, and opens the game's page. */
async function startTable(body, refusalBox) {
  refusalBox.hidden = true;
  let created;
  try {
    created = await postOnce("/v1/games", { json: body, key: freshKey() });
  } catch (error) {
    said(refusalBox, error);
    return;
  }
  const mine = created.seat_tokens[0];
  if (mine) storeToken(created.game_id, mine.token);
  keepReceipt(created.game_id, mine?.seat ?? null, created.receipt);
  if (created.invitation_code) {
    try {
      sessionStorage.setItem(`referee.invite.${created.game_id}`, created.invitation_code);
    } catch {
      // the page will not offer the invitation link: the code was shown once, here
    }
  }
  location.assign(`/games/${encodeURIComponent(created.game_id)}`);
}

function quickStart(kind) {
  const seats = QUICK_SEATS[kind.kind] ?? kind.min_seats;
  const bots = Array.from({ length: seats - 1 }, (_, index) => ({ seat: index + 1, strategy: "greedy" }));
  try {
    const name = myName();
    return startTable({ kind: kind.kind, seats, bots, open_table: { visibility: "private", creator: { name } } }, $("start-refusal"));
  } catch (error) {
    said($("start-refusal"), error);
    return undefined;
  }
}

// -- the full form: kind, seats, options, who plays each seat, time, visibility ----------------

function optionField(name, schema, value) {
  const label = schema.description ?? name.replaceAll("_", " ");
  const id = `option-${name}`;
  if (schema.type === "boolean") {
    return h("label", {}, h("input", { type: "checkbox", id, "data-option": name, "data-kind": "boolean", checked: value === true }), ` ${label}`);
  }
  if (schema.type === "integer") {
    return h("label", {}, `${label} `, h("input", { type: "number", id, "data-option": name, "data-kind": "integer",
      value: value ?? "", min: schema.minimum, max: schema.maximum, step: 1 }));
  }
  // Anything else (a nullable number, an object) as JSON: rare, and still every option there is.
  return h("label", {}, `${label} (JSON) `, h("input", { type: "text", id, "data-option": name, "data-kind": "json",
    value: JSON.stringify(value ?? null), spellcheck: "false" }));
}

function options(kind) {
  const root = kind.options_schema.$defs?.Options ?? kind.options_schema;
  const fields = Object.entries(root.properties ?? {}).map(([name, schema]) =>
    optionField(name, schema, kind.default_options[name]));
  return fields.length ? fields : [h("p", { class: "note" }, "The game as printed: it has no options.")];
}

function readOptions() {
  const values = {};
  for (const input of $("start-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.dataset.kind === "boolean") values[name] = input.checked;
    else if (input.dataset.kind === "integer") values[name] = input.value === "" ? undefined : Number(input.value);
    else values[name] = JSON.parse(input.value);
  }
  return values;
}

function seatChoices(seats) {
  return Array.from({ length: seats }, (_, seat) =>
    h("label", {}, `Seat ${seat}: `, h("select", { "data-seat": seat },
      WHO.map(([value, text]) => h("option", { value, selected: (seat === 0 ? "you" : "greedy") === value }, text)))));
}

function kindChosen() {
  const kind = catalogue.get($("start-kind").value);
  if (!kind) return;
  fill($("start-seats"), kind.seat_counts.map((count) => h("option", { value: String(count) }, String(count))));
  fill($("start-options"), options(kind));
  seatsChosen();
}

function seatsChosen() {
  fill($("start-who"), seatChoices(Number($("start-seats").value)));
}

function timeControl() {
  const perMove = Number($("start-per-move").value);
  const total = Number($("start-total").value);
  const increment = Number($("start-increment").value);
  if (!perMove && !total) return null;
  return {
    per_move_seconds: perMove || null,
    total_seconds: total ? total * 60 : null,
    increment_seconds: increment || 0,
  };
}

function startFromForm(event) {
  event.preventDefault();
  const box = $("start-refusal");
  try {
    const name = myName();
    const who = [...$("start-who").querySelectorAll("[data-seat]")].map((select) => select.value);
    const mine = who.indexOf("you");
    if (who.filter((value) => value === "you").length > 1) throw new Error("You can take one seat only.");
    const bots = who.flatMap((value, seat) => (value === "greedy" || value === "random" ? [{ seat, strategy: value }] : []));
    const body = {
      kind: $("start-kind").value,
      seats: Number($("start-seats").value),
      options: readOptions(),
      bots,
      time_control: timeControl(),
      open_table: {
        visibility: $("start-private").checked ? "private" : "public",
        creator: mine < 0 ? null : { name, seat: mine, entropy: $("start-entropy").value },
      },
    };
    return startTable(body, box);
  } catch (error) {
    said(box, error);
    return undefined;
  }
}

// -- tables waiting for players ------------------------------------------------------------------

async function join(game, button) {
  const box = $("join-refusal");
  box.hidden = true;
  try {
    const name = myName();
    button.disabled = true;
    const body = { name };
    const invitation = storedInvitation(game.game_id);
    if (invitation) body.invitation_code = invitation;
    const granted = await postOnce(`${gamePath(game.game_id)}/seats`, { json: body, key: freshKey() });
    storeToken(game.game_id, granted.token);
    keepReceipt(game.game_id, granted.seat, granted.receipt);
    location.assign(`/games/${encodeURIComponent(game.game_id)}`);
  } catch (error) {
    button.disabled = false;
    said(box, error);
  }
}

function waitingRow(game) {
  const title = catalogue.get(game.kind)?.title ?? game.kind;
  const open = (game.open_seats ?? []).length;
  const seated = (game.names ?? []).filter(Boolean);
  const button = h("button", { type: "button", "data-join": game.game_id }, "Join");
  button.addEventListener("click", () => join(game, button));
  return h("li", { "data-waiting-game": game.game_id },
    h("a", { href: `/games/${game.game_id}` }, `${title}, ${game.seats} players`), ": ",
    seated.length ? `${seated.join(", ")} ${seated.length === 1 ? "waits" : "wait"}` : "nobody sits yet",
    `, ${plural(open, "seat")} open. `, button);
}

async function showWaiting() {
  const status = $("waiting-status");
  try {
    const page = await getJson("/v1/games", { params: { status: "waiting", limit: 20 } });
    fill($("waiting-tables"), page.games.map(waitingRow));
    status.textContent = page.games.length ? "" : "No public table is waiting for players now: start one.";
  } catch (error) {
    status.textContent = `The tables could not be listed: ${error.message}`;
  }
}

async function setUp() {
  try {
    $("my-name").value = localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    // no storage: the name field starts empty
  }
  catalogue = await kinds();
  fill($("quick-start"), [...catalogue.values()].map((kind) => {
    const seats = QUICK_SEATS[kind.kind] ?? kind.min_seats;
    return h("button", { type: "button", "data-quick": kind.kind, onclick: () => quickStart(kind) },
      `${kind.title} against ${seats - 1 === 1 ? "a bot" : `${seats - 1} bots`}`);
  }));
  fill($("start-kind"), [...catalogue.values()].map((kind) => h("option", { value: kind.kind }, kind.title)));
  kindChosen();
  $("start-kind").addEventListener("change", kindChosen);
  $("start-seats").addEventListener("change", seatsChosen);
  $("start-form").addEventListener("submit", startFromForm);
  $("refresh-waiting").addEventListener("click", showWaiting);
  await showWaiting();
}

setUp().catch((error) => {
  $("start-refusal").hidden = false;
  $("start-refusal").textContent = `The page could not start: ${error.message}`;
});

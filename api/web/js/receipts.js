// Receipts held against a bundle, in the browser: the front page's bundle check takes them.
// The check `referee verify BUNDLE --keys KEYS --receipts FILE...` makes (api/verify/receipts.py),
// made here with the browser's own cryptography (WebCrypto: Ed25519 and HMAC-SHA256), so that
// neither the receipts nor the verdict depend on the server. A receipt is a DSSE envelope whose
// Ed25519 signature covers PAE(type, payload); its statement pins the history up to its version
// with HMAC-SHA256 under a key derived from the game's seed, which a finished game's bundle
// reveals. A receipt that does not verify with a listed key, or is of another game, is unusable:
// no evidence either way. A valid receipt the bundle contradicts proves that the record was
// changed after the receipt was given. Every value read from a file is shown as text only.

import { getJson } from "./api.js";
import { fill, h, plural } from "./dom.js";

export const RECEIPT_TYPE = "application/vnd.referee.receipt+json";
const RECEIPT_KINDS = ["creation", "command", "head"];
const STATUSES = ["waiting", "active", "finished", "cancelled"];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PIN = /^[0-9a-f]{64}$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;
// RFC 8032's first test key: whether this browser's WebCrypto knows Ed25519 at all.
const PROBE_KEY = "11qYAYKxCrfVS/7TyWQHOg7hcvPaYiMlrwIaaPcHURo=";
const ENVELOPE_FIELDS = ["payload", "payloadType", "signatures"];

/** What cannot serve as evidence: a file that is no receipt, a signature that does not verify. */
export class Unusable extends Error {}

const text = new TextEncoder();
const quoted = (value) => JSON.stringify(String(value));
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isInt = (value) => Number.isSafeInteger(value);

function concat(...parts) {
  const all = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** Strict base64 (RFC 4648 section 4, padded), as the verifier reads it. */
function fromBase64(value, what) {
  if (typeof value !== "string" || !BASE64.test(value)) throw new Unusable(`its ${what} is not base64`);
  return Uint8Array.from(atob(value), (char) => char.charCodeAt(0));
}

/** Bytes from hex, or null where it is not hex. */
function fromHex(value) {
  if (typeof value !== "string" || !HEX.test(value)) return null;
  return Uint8Array.from(value.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** DSSE's pre-authentication encoding: what the signature covers. */
export function pae(type, payload) {
  const kind = text.encode(type);
  return concat(text.encode(`DSSEv1 ${kind.length} `), kind, text.encode(` ${payload.length} `), payload);
}

async function hmac(key, ...message) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, concat(...message)));
}

const ZERO = new Uint8Array([0]);

/** The key of a game's pins: HMAC-SHA256(seed, "referee.receipts" 0x00 || game id). */
export const pinKey = (seed, gameId) => hmac(seed, text.encode("referee.receipts"), ZERO, text.encode(gameId));
export const headPin = async (key, eventHash) => toHex(await hmac(key, text.encode("head"), ZERO, eventHash));
export const commandPin = async (key, body) => toHex(await hmac(key, text.encode("command"), ZERO, body));

/** An instant as nanoseconds since 1970 (a BigInt: microseconds compare exactly), or null. */
export function instant(value) {
  const found = typeof value === "string" ? TIME.exec(value) : null;
  if (!found) return null;
  const [, year, month, day, hour, minute, second, fraction = "", zulu, sign, offsetHours, offsetMinutes] = found;
  const millis = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(millis)) return null;
  const offset = zulu ? 0 : (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  return (BigInt(millis) - BigInt(offset) * 60_000n) * 1_000_000n + BigInt(fraction.padEnd(9, "0"));
}

/** The exact text of a member of a JSON document's top-level object (`options` is compared as
 * recorded, byte for byte), or null. The document is known to parse. */
export function rawMember(json, name) {
  let at = 0;
  const space = () => {
    while (at < json.length && " \t\r\n".includes(json[at])) at += 1;
  };
  const string = () => {
    const start = at;
    for (at += 1; json[at] !== '"'; at += 1) if (json[at] === "\\") at += 1;
    at += 1;
    return json.slice(start, at);
  };
  const value = () => {
    const start = at;
    let depth = 0;
    while (at < json.length) {
      const char = json[at];
      if (char === '"') {
        string();
        if (depth === 0) break;
        continue;
      }
      if (char === "{" || char === "[") {
        depth += 1;
      } else if (char === "}" || char === "]") {
        depth -= 1;
        if (depth < 0) break; // the end of the top-level object: a number or literal ends here
        if (depth === 0) {
          at += 1;
          break;
        }
      } else if (depth === 0 && (char === "," || " \t\r\n".includes(char))) {
        break;
      }
      at += 1;
    }
    return json.slice(start, at);
  };
  space();
  if (json[at] !== "{") return null;
  at += 1;
  for (;;) {
    space();
    if (json[at] !== '"') return null;
    const key = JSON.parse(string());
    space();
    at += 1; // the colon
    space();
    const raw = value();
    if (key === name) return raw;
    space();
    if (json[at] !== ",") return null;
    at += 1;
  }
}

function parseJson(bytes, what) {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new Unusable(`${what}: ${error.message}`);
  }
}

/** Whether this browser verifies Ed25519 signatures (WebCrypto, in a secure context). */
export async function ed25519Supported() {
  if (!globalThis.isSecureContext || !globalThis.crypto?.subtle) return false;
  try {
    await crypto.subtle.importKey("raw", fromBase64(PROBE_KEY, "key"), { name: "Ed25519" }, false, ["verify"]);
    return true;
  } catch {
    return false;
  }
}

/** The public keys of a key list (GET /v1/keys, or a copy kept), by id, ready to verify. */
export async function readKeys(listed, name) {
  if (!isObject(listed) || !Array.isArray(listed.keys)) throw new Unusable(`${name}: not a key list (GET /v1/keys)`);
  const keys = new Map();
  for (const key of listed.keys) {
    if (!isObject(key) || typeof key.key_id !== "string") throw new Unusable(`${name}: a key without an id`);
    if ((key.algorithm ?? "Ed25519") !== "Ed25519") throw new Unusable(`${name}: key ${quoted(key.key_id)} is not an Ed25519 key`);
    let raw;
    try {
      raw = fromBase64(key.public_key, `public key ${quoted(key.key_id)}`);
    } catch (error) {
      throw new Unusable(`${name}: ${error.message}`);
    }
    if (raw.length !== 32) throw new Unusable(`${name}: public key ${quoted(key.key_id)} is not 32 bytes`);
    keys.set(key.key_id, await crypto.subtle.importKey("raw", raw, { name: "Ed25519" }, false, ["verify"]));
  }
  return keys;
}

function isEnvelope(value) {
  return isObject(value) && Object.keys(value).every((field) => ENVELOPE_FIELDS.includes(field))
    && typeof value.payload === "string" && typeof value.payloadType === "string" && Array.isArray(value.signatures)
    && value.signatures.every((signature) => isObject(signature) && typeof signature.keyid === "string" && typeof signature.sig === "string"
      && Object.keys(signature).every((field) => field === "keyid" || field === "sig"));
}

/** The envelopes of a receipts file: one receipt, a list of them, or `{"receipts": [...]}`. */
export function readReceipts(bytes) {
  const found = parseJson(bytes, "Not JSON");
  const envelopes = Array.isArray(found) ? found : isObject(found) && "receipts" in found ? found.receipts : [found];
  if (!Array.isArray(envelopes) || !envelopes.every(isEnvelope)) throw new Unusable("Not a receipt or a list of receipts.");
  if (!envelopes.length) throw new Unusable("The file holds no receipt.");
  return envelopes;
}

/** The payload of an envelope once a signature by one of `keys` is found valid over it. */
async function openEnvelope(envelope, keys) {
  if (envelope.payloadType !== RECEIPT_TYPE) throw new Unusable(`it is a ${quoted(envelope.payloadType)}, not a ${quoted(RECEIPT_TYPE)}`);
  const payload = fromBase64(envelope.payload, "payload");
  if (!envelope.signatures.length) throw new Unusable("it carries no signature");
  const unknown = [];
  for (const signature of envelope.signatures) {
    const key = keys.get(signature.keyid);
    if (!key) {
      unknown.push(quoted(signature.keyid));
      continue;
    }
    let valid = false;
    try {
      valid = await crypto.subtle.verify({ name: "Ed25519" }, key, fromBase64(signature.sig, "signature"), pae(RECEIPT_TYPE, payload));
    } catch {
      valid = false;
    }
    if (!valid) throw new Unusable(`its signature by key ${quoted(signature.keyid)} does not verify: the statement or the signature was changed`);
    return payload;
  }
  throw Object.assign(new Unusable(`it is signed by ${unknown.join(", ")}, not a listed key`), { unlisted: true });
}

/** The statement of a receipt's payload, its fields checked. */
function statementOf(payload) {
  const said = parseJson(payload, "a signed statement that is no receipt");
  const wrong = (field) => new Unusable(`a signed statement that is no receipt: its ${field} is missing or malformed`);
  if (!isObject(said) || !RECEIPT_KINDS.includes(said.receipt)) throw wrong("kind of receipt");
  const fields = {
    game_id: typeof said.game_id === "string", version: isInt(said.version), head: PIN.test(said.head ?? ""),
    recorded_at: instant(said.recorded_at) !== null,
    ...(said.receipt === "creation" ? {
      kind: typeof said.kind === "string", rules_version: typeof said.rules_version === "string", seats: isInt(said.seats),
      options: "options" in said, seating: said.seating === "creator" || said.seating === "open", commitment: typeof said.commitment === "string",
    } : {}),
    ...(said.receipt === "command" ? {
      command_id: isInt(said.command_id), seat: said.seat === null || isInt(said.seat), first_seq: isInt(said.first_seq), command: PIN.test(said.command ?? ""),
    } : {}),
    ...(said.receipt === "head" ? { status: STATUSES.includes(said.status) } : {}),
  };
  const missing = Object.entries(fields).find(([, fine]) => !fine);
  if (missing) throw wrong(missing[0]);
  return said;
}

const sentence = (said) => `${said.charAt(0).toUpperCase()}${said.slice(1)}${said.endsWith(".") ? "" : "."}`;

/** A receipt's statement once its signature verifies and its game is the bundle's. */
async function receiptOf(envelope, keys, gameId) {
  let payload;
  try {
    payload = await openEnvelope(envelope, keys);
  } catch (error) {
    if (!(error instanceof Unusable)) throw error;
    throw Object.assign(new Unusable(`not a receipt of this referee: ${error.message}`), { unlisted: error.unlisted === true });
  }
  const said = statementOf(payload);
  if (said.game_id !== gameId) throw new Unusable(`a receipt of game ${said.game_id}, not of ${gameId}`);
  return { said, payloadText: new TextDecoder().decode(payload) };
}

/** The bundle's fields the receipts are held against. Throws an Error saying what is wrong. */
function readBundle(bytes) {
  let json;
  let bundle;
  try {
    json = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    bundle = JSON.parse(json);
  } catch (error) {
    throw new Error(`it is not JSON: ${error.message}`);
  }
  if (!isObject(bundle) || typeof bundle.game_id !== "string" || !isInt(bundle.version)
      || !Array.isArray(bundle.events) || !Array.isArray(bundle.commands) || !bundle.events.every(isObject)
      || !bundle.commands.every(isObject)) {
    throw new Error("it is not a game bundle");
  }
  const seed = bundle.seed === null || bundle.seed === undefined ? null : fromHex(bundle.seed);
  if (seed === null && bundle.seed !== null && bundle.seed !== undefined) throw new Error("its seed is not hex");
  return { ...bundle, seed, rawOptions: rawMember(json, "options"), seating: bundle.seating ?? "creator" };
}

const contradicted = (reason, seq, command = false) => ({ reason, seq, command });

/** How the bundle contradicts a receipt's statement, if it does (null: it does not). */
async function contradiction(bundle, said, key, payloadText) {
  const version = said.version;
  if (version > bundle.version || version < 1) {
    return contradicted(`the referee had accepted ${version} events, and the bundle holds ${bundle.version}.`, bundle.version + 1);
  }
  const event = bundle.events[version - 1];
  if (event?.seq !== version) return contradicted(`the bundle has no event numbered ${version} in its place.`, version);
  if (key) {
    const hash = fromHex(event.hash);
    if (hash === null || (await headPin(key, hash)) !== said.head) {
      return contradicted(`the history up to event ${version} is not the one it pins.`, version);
    }
  }
  const recorded = instant(event.recorded_at);
  if (recorded === null || recorded !== instant(said.recorded_at)) {
    return contradicted(`event ${version} was recorded at ${said.recorded_at}, the bundle says ${event.recorded_at}.`, version);
  }
  if (said.receipt === "creation") {
    const stated = {
      kind: said.kind === bundle.kind, "rules version": said.rules_version === bundle.rules_version, seats: said.seats === bundle.seats,
      options: rawMember(payloadText, "options") === bundle.rawOptions, seating: said.seating === bundle.seating,
      commitment: said.commitment === bundle.commitment,
    };
    const differ = Object.keys(stated).filter((name) => !stated[name]);
    return differ.length ? contradicted(`the game was created with another ${differ.join(", ")}.`, 1) : null;
  }
  if (said.receipt === "command") {
    const command = bundle.commands.find((item) => item.id === said.command_id);
    const first = said.first_seq;
    if (!command) return contradicted(`command ${said.command_id} is missing.`, first, true);
    if ((command.seat ?? null) !== said.seat || command.first_seq !== first || command.last_seq !== version) {
      return contradicted(
        `command ${said.command_id} was seat ${said.seat}'s and produced events ${first}..${version}; the bundle says seat `
          + `${command.seat}, events ${command.first_seq}..${command.last_seq}.`,
        Math.min(first, command.first_seq), true);
    }
    if (key) {
      let body = null;
      try {
        body = fromBase64(command.body, "body");
      } catch {
        body = null;
      }
      if (body === null || (await commandPin(key, body)) !== said.command) {
        return contradicted(`command ${said.command_id} is not the command that was accepted.`, first, true);
      }
    }
    return null;
  }
  const over = said.status === "finished" || said.status === "cancelled";
  if (over && bundle.version !== version) {
    return contradicted(`the game was over at event ${version}; the bundle goes on to event ${bundle.version}.`, version + 1);
  }
  return null;
}

/** A receipt in words: "creation", "command 4", "head, finished". */
function kindOf(said) {
  if (said.receipt === "command") return `command ${said.command_id}`;
  if (said.receipt === "head") return `head, ${said.status}`;
  return "creation";
}

/** Where the record differs: after the last version the receipts confirm, at or before the
 * contradicted one. */
function where(found, confirmed, version, held) {
  if (found.command) return { first: found.seq, text: `The first event that differs is ${found.seq} (the command's record was changed).` };
  let first = confirmed + 1;
  let last = Math.min(version, held + 1);
  if (found.seq < first) first = last = found.seq;
  if (first >= last) return { first, text: `The first event that differs is ${first}.` };
  return { first, last, text: `The first event that may differ is one of ${first}..${last}: the receipts confirm events 1..${confirmed} unchanged.` };
}

/**
 * Every receipt of `files` ([{name, bytes}]) held against the bundle (its bytes), signatures
 * checked with `keys` (readKeys). Answers the verdict ("changed", "confirmed", "partial": the
 * bundle does not reveal the seed, "none": no receipt is usable), every receipt with what was
 * found (in the files' order), and the first contradicted one with where the record differs.
 */
export async function checkReceipts(bundleBytes, files, keys) {
  const bundle = readBundle(bundleBytes);
  const receipts = [];
  for (const { name, bytes } of files) {
    let envelopes;
    try {
      envelopes = readReceipts(bytes);
    } catch (error) {
      if (!(error instanceof Unusable)) throw error;
      receipts.push({ label: name, unusable: sentence(error.message) });
      continue;
    }
    for (const [index, envelope] of envelopes.entries()) {
      const label = envelopes.length > 1 ? `${name} #${index + 1}` : name;
      try {
        receipts.push({ label, ...(await receiptOf(envelope, keys, bundle.game_id)) });
      } catch (error) {
        if (!(error instanceof Unusable)) throw error;
        receipts.push({ label, unusable: sentence(error.message), unlisted: error.unlisted === true });
      }
    }
  }
  const key = bundle.seed ? await pinKey(bundle.seed, bundle.game_id) : null;
  const usable = receipts.filter((receipt) => receipt.said);
  const ordered = [...usable].sort((a, b) => a.said.version - b.said.version); // stable: files' order
  let confirmed = 0;
  let first = null;
  for (const receipt of ordered) {
    receipt.found = await contradiction(bundle, receipt.said, key, receipt.payloadText);
    if (first) continue;
    if (!receipt.found) {
      confirmed = Math.max(confirmed, receipt.said.version);
    } else {
      const place = where(receipt.found, confirmed, receipt.said.version, bundle.version);
      first = { receipt, ...place, seq: receipt.found.command ? receipt.found.seq : Math.min(confirmed + 1, receipt.found.seq) };
    }
  }
  const verdict = first ? "changed" : !usable.length ? "none" : key ? "confirmed" : "partial";
  return { verdict, receipts, first, confirmed, held: usable.length, seeded: key !== null, gameId: bundle.game_id };
}

const RESULTS = {
  matches: ["passed", "Matches"],
  agrees: ["partial", "Agrees; pins unopened"],
  contradicted: ["failed", "Contradicted"],
  unusable: ["skipped", "Unusable"],
};

function resultOf(receipt, seeded) {
  if (receipt.unusable) return "unusable";
  if (receipt.found) return "contradicted";
  return seeded ? "matches" : "agrees";
}

/** The receipts check as the page shows it: a changed record first and loudest, then each
 * receipt with what was found. `keysFrom` says where the keys came from. */
export function receiptsView(result, { keysFrom, keyIds = [], onSeq } = {}) {
  const receipts = plural(result.held, "usable receipt");
  const unusable = result.receipts.filter((receipt) => receipt.unusable).length;
  const unlisted = result.receipts.some((receipt) => receipt.unlisted);
  let headline;
  if (result.verdict === "changed") {
    const { receipt, text: place, seq } = result.first;
    headline = h("div", { class: "receipts-alarm", role: "alert", "data-receipts-verdict": "changed", "data-receipt": receipt.label, "data-first-seq": seq },
      h("p", { class: "verdict verdict-failed" }, "The record was changed after a receipt was given."),
      h("p", {}, h("strong", {}, receipt.label), ` (${kindOf(receipt.said)}, version ${receipt.said.version}) is contradicted: ${receipt.found.reason}`),
      h("p", {}, place, " ", h("button", { type: "button", class: "link", "data-bad-seq": seq, onclick: () => onSeq?.(seq) }, `Show event ${seq}`)));
  } else {
    const said = {
      confirmed: ["passed", `Receipts: ${receipts}, up to version ${result.confirmed}: each pins this very history.`],
      partial: ["partial", `Receipts: ${receipts}: their times, commands and versions agree with the bundle; their pins open with the seed, which this bundle of a running game does not reveal.`],
      none: ["skipped", "Receipts: none of the receipts given can serve as evidence, for or against the bundle."],
    }[result.verdict];
    headline = h("p", { class: `verdict verdict-${said[0]}`, "data-receipts-verdict": result.verdict }, said[1]);
  }
  return h("div", { class: "receipts-report", "data-receipts": result.verdict },
    headline,
    unusable ? h("p", { class: "note", "data-unusable": unusable },
      `${plural(unusable, "receipt")} could not be used: ${unusable === 1 ? "it proves" : "they prove"} nothing either way.`
        + (unlisted && keysFrom === "server" ? " One is signed by a key this server does not list: check it with a keys file you kept." : "")) : null,
    // Every receipt, one a row: open where one is contradicted or unusable (a long game's list
    // stays folded when all is well).
    h("details", { class: "receipts-each", open: result.verdict === "changed" || unusable > 0 },
      h("summary", {}, `Each receipt (${result.receipts.length})`),
    h("table", { class: "checks receipts-table" },
      h("caption", { class: "visually-hidden" }, "Each receipt held against the bundle"),
      h("thead", {}, h("tr", {}, ["Receipt", "What it pins", "Result", "What was found"].map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, result.receipts.map((receipt) => {
        const found = resultOf(receipt, result.seeded);
        const [verdict, shown] = RESULTS[found];
        const detail = receipt.unusable ?? (receipt.found ? sentence(receipt.found.reason) : found === "matches"
          ? `Events 1..${receipt.said.version} as pinned, and when.`
          : `Event ${receipt.said.version}'s time, the version and any command agree.`);
        return h("tr", { "data-receipt": receipt.label, "data-result": found },
          h("th", { scope: "row" }, receipt.label),
          h("td", {}, receipt.said ? `${kindOf(receipt.said)}, version ${receipt.said.version}` : "?"),
          h("td", {}, h("span", { class: `verdict verdict-${verdict}` }, shown)),
          h("td", { class: "detail" }, detail));
      })))),
    h("p", { class: "note", "data-keys-from": keysFrom },
      keysFrom === "server"
        ? "Signatures checked in this browser with the keys this server lists now (GET /v1/keys)"
        : `Signatures checked in this browser with the keys of ${keysFrom}`,
      keyIds.length ? [": ", keyIds.join(", "), "."] : "."));
}

// The front page's bundle check: receipt files and the keys beside the bundle file. The server's
// audit of the bundle is shown by index.js; the receipts are checked here, in the page.

async function chosenKeys(form) {
  const fromFile = form.querySelector("input[name=receipt-keys]:checked")?.value === "file";
  if (!fromFile) {
    let listed;
    try {
      listed = await getJson("/v1/keys");
    } catch (error) {
      throw new Unusable(`The server's keys could not be read: ${error.message}`);
    }
    return { keys: await readKeys(listed, "the server's keys (GET /v1/keys)"), from: "server" };
  }
  const [file] = document.getElementById("keys-file").files;
  if (!file) return null;
  const listed = parseJson(new Uint8Array(await file.arrayBuffer()), `${file.name} is not JSON`);
  return { keys: await readKeys(listed, file.name), from: file.name };
}

function showBundleEvent(seq) {
  const item = document.querySelector(`#verification #event-${seq}`);
  if (!item) return;
  item.click();
  item.scrollIntoView({ block: "nearest" });
}

export function setUpReceiptsCheck(form) {
  const $ = (id) => document.getElementById(id);
  const box = $("receipts-verification");
  let runs = 0;
  async function recheck() {
    const run = ++runs;
    const fromFile = form.querySelector("input[name=receipt-keys]:checked")?.value === "file";
    $("keys-file").disabled = !fromFile;
    const [bundle] = $("bundle-file").files;
    const receiptFiles = [...$("receipt-files").files];
    if (!receiptFiles.length) {
      fill(box);
      return;
    }
    if (!bundle) {
      fill(box, h("p", { class: "note" }, "Choose the bundle file to hold the receipts against."));
      return;
    }
    if (!(await ed25519Supported())) {
      fill(box, h("p", { class: "error", "data-receipts-verdict": "unsupported" },
        "This browser cannot check the receipts' signatures here: it needs WebCrypto with Ed25519, which browsers give to pages "
          + "served over HTTPS or from this computer only. Check them offline instead: referee verify BUNDLE --keys KEYS --receipts FILE…"));
      return;
    }
    fill(box, h("p", {}, `Checking ${plural(receiptFiles.length, "receipt file")} against ${bundle.name}…`));
    let view;
    try {
      const chosen = await chosenKeys(form);
      if (!chosen) {
        view = h("p", { class: "note" }, "Choose the keys file you kept (GET /v1/keys) to check the receipts with.");
      } else {
        const files = await Promise.all(receiptFiles.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })));
        const result = await checkReceipts(new Uint8Array(await bundle.arrayBuffer()), files, chosen.keys);
        view = receiptsView(result, { keysFrom: chosen.from, keyIds: [...chosen.keys.keys()], onSeq: showBundleEvent });
      }
    } catch (error) {
      const why = error instanceof Unusable ? error.message : `${bundle.name} could not be read: ${error.message}`;
      view = h("p", { class: "error", "data-receipts-verdict": "unreadable" }, `The receipts could not be checked. ${why}`);
    }
    if (run === runs) fill(box, view); // a later choice is being checked: that one shows
  }
  for (const id of ["bundle-file", "receipt-files", "keys-file"]) $(id).addEventListener("change", recheck);
  for (const choice of form.querySelectorAll("input[name=receipt-keys]")) choice.addEventListener("change", recheck);
}


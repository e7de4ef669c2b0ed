// A person's seats in this browser tab. A seat token is kept in the tab's own storage
// (sessionStorage), by game, so that a reload keeps the seat; it is never put in a cookie, a
// query string or anything the server logs. A link for another device carries it in the URL's
// fragment (#seat=…), which browsers never send to a server; the page takes it from there into
// the tab's storage and wipes it from the address at once. A private table's invitation code
// travels the same way (#invite=…).

const tokenKey = (gameId) => `referee.seat.${gameId}`;
const inviteKey = (gameId) => `referee.invite.${gameId}`;

function read(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null; // storage refused (a privacy mode): the seat lasts as long as the page
  }
}

function write(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // storage refused: nothing to keep
  }
}

export const storedToken = (gameId) => read(tokenKey(gameId));
export const storeToken = (gameId, token) => write(tokenKey(gameId), token);
export const forgetToken = (gameId) => write(tokenKey(gameId), null);
export const storedInvitation = (gameId) => read(inviteKey(gameId));

/** What the address's fragment brings (a seat token, an invitation code), moved into the tab's
 * storage; the fragment is then removed from the address and from the tab's history. */
export function takeFragment(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("seat");
  const invite = fragment.get("invite");
  if (token) write(tokenKey(gameId), token);
  if (invite) write(inviteKey(gameId), invite);
  if (token || invite) history.replaceState(history.state, "", location.pathname + location.search);
}

// The receipts the referee gave this browser for a game (README, "Disputes"): kept for good in
// the browser's own storage (localStorage), by game and seat (two seats played from one browser
// keep two lists), as the referee signed them. They tell nothing hidden and hold no token, so
// they may outlive the tab; the person saves them as a file that `referee verify --receipts`
// and the front page's bundle check read.
const receiptsKey = (gameId, seat) => `referee.receipts.${gameId}.${seat ?? "none"}`;

/** The receipts kept for this game and seat (null: given to a creator who took no seat). */
export function storedReceipts(gameId, seat) {
  try {
    const kept = JSON.parse(localStorage.getItem(receiptsKey(gameId, seat)) ?? "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return []; // storage refused, or something else under our key
  }
}

/** Keeps the receipt of an answer that changed the game (none: nothing to keep). */
export function keepReceipt(gameId, seat, receipt) {
  if (!receipt) return;
  const kept = storedReceipts(gameId, seat);
  kept.push(receipt);
  try {
    localStorage.setItem(receiptsKey(gameId, seat), JSON.stringify(kept));
  } catch {
    // storage refused or full: the receipt was still shown to the page, not kept
  }
}

/** A link that opens this seat on another device: the token rides in the fragment only. */
export const seatLink = (gameId, token) =>
  `${location.origin}/games/${encodeURIComponent(gameId)}#seat=${encodeURIComponent(token)}`;

/** A link that lets someone take a seat at a private table. */
export const inviteLink = (gameId, code) =>
  `${location.origin}/games/${encodeURIComponent(gameId)}#invite=${encodeURIComponent(code)}`;

/** A fresh Idempotency-Key: the same one is sent again when a request is retried. */
export const freshKey = () =>
  globalThis.crypto?.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (byte) => byte.toString(16).padStart(2, "0")).join("");

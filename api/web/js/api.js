// The public API (/v1), as the pages read it. A seat token is passed in by the caller for each
// request and kept nowhere here.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `The API answered ${status}.`);
    this.status = status;
    this.problem = problem;
  }
}

function headers(token, extra = {}) {
  const all = { Accept: "application/json", ...extra };
  if (token) all.Authorization = `Bearer ${token}`;
  return all;
}

async function answer(response) {
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

export async function getJson(path, { token = null, params = {} } = {}) {
  const query = new URLSearchParams(
    Object.entries(params).filter(([, value]) => value !== null && value !== undefined && value !== ""),
  ).toString();
  const response = await fetch(query ? `${path}?${query}` : path, { headers: headers(token) });
  return answer(response);
}

export async function post(path, { token = null, body = null, contentType = "application/json", extra = {} } = {}) {
  const response = await fetch(path, {
    method: "POST",
    headers: headers(token, { "Content-Type": contentType, ...extra }),
    body,
  });
  return answer(response);
}

/** A JSON body POSTed with an Idempotency-Key: a retry after a lost answer sends the same key,
 * so the request is made once whatever happens on the way. */
export async function postOnce(path, { token = null, json, key }) {
  const request = () => post(path, { token, body: JSON.stringify(json), extra: { "Idempotency-Key": key } });
  try {
    return await request();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return request(); // the network failed: the same key again
  }
}

export async function remove(path, { token = null } = {}) {
  return answer(await fetch(path, { method: "DELETE", headers: headers(token) }));
}

export const gamePath = (gameId) => `/v1/games/${encodeURIComponent(gameId)}`;

/** Every event of a game as the caller may see it, a page of 1000 at a time. */
export async function allEvents(gameId, token, after = 0) {
  const records = [];
  for (;;) {
    const page = await getJson(`${gamePath(gameId)}/events`, {
      token,
      params: { after, limit: 1000 },
    });
    records.push(...page.events);
    if (page.events.length < 1000) return records;
    after = page.events.at(-1).seq;
  }
}

/** The catalogue of kinds, by kind. */
export async function kinds() {
  const body = await getJson("/v1/kinds");
  return new Map(body.kinds.map((kind) => [kind.kind, kind]));
}

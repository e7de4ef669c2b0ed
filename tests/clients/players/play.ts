// A whole game of any kind, played through the TypeScript client that @hey-api/openapi-ts
// generates from the committed OpenAPI document (tests/clients/test_typescript_client.py puts
// it in ./client beside this file, compiles both with `tsc --strict` and runs the result).
//
//     node play.js BASE_URL KIND SEATS SEED [SEATING]
//
// SEATING is `creator` (the default: the creator is given every seat's token; the game is dealt
// from SEED), or `public` or `private`: an open table, whose seed is the referee's (SEED is not
// sent). Its creator does not play: each player takes a seat under a name of their own with the
// client's `takeSeat` (a random Idempotency-Key, the sitting retried once with it; a private
// table's invitation code), and gets that seat's token alone; one tries a taken seat first,
// which the client answers as its typed `error`, the 409 problem.
//
// Every seat to act sends the last of its legal commands, as the client typed it, until the
// game is over; then the exported bundle's bytes are verified. Prints one JSON line. No casts,
// no `any`, nothing untyped from the API.

import { randomUUID } from 'node:crypto';
import { type Client, createClient } from './client/client';
import {
  createGame,
  getGame,
  listLegalCommands,
  playCommand,
  takeSeat,
  verifyBundle,
} from './client/sdk.gen';
import type {
  CommandRequest,
  LegalCommandPage,
  NewBigManitouGame,
  NewCoyoteGame,
  NewManitouIslandGame,
  NewTribuGame,
  NewWindRiverGame,
  OpenTableRequest,
  SeatGranted,
  SitRequest,
} from './client/types.gen';

const MAX_COMMANDS = 20_000; // far beyond the longest game: a stuck game fails
const SEAT_TAKEN = 'urn:referee:problem:seat-taken';

type LegalCommand = LegalCommandPage['commands'][number];

type NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame;

// An open table's seed is the referee's: `seed` is undefined then, and left out of the body.
function newGame(kind: string, seats: number, seed?: string, open_table?: OpenTableRequest): NewGame {
  switch (kind) {
    case 'coyote':
      return { kind: 'coyote', seats, seed, open_table };
    case 'big-manitou':
      return { kind: 'big-manitou', seats, seed, open_table };
    case 'manitou-island':
      if (seats !== 2 && seats !== 4) throw new Error('Manitou island is played by 2 or 4');
      return { kind: 'manitou-island', seats, seed, open_table };
    case 'wind-river':
      return { kind: 'wind-river', seats, seed, open_table };
    case 'tribu':
      return { kind: 'tribu', seats, seed, open_table };
    default:
      throw new Error(`no such kind: ${kind}`);
  }
}

async function main(baseUrl: string, kind: string, seats: number, seed: string, seating: string): Promise<void> {
  const spectator = createClient({ baseUrl }); // a spectator needs no credentials
  const tokens = new Map<number, string>();
  let gameId: string;
  if (seating === 'creator') {
    const created = await createGame({
      client: spectator,
      body: newGame(kind, seats, seed),
      throwOnError: true,
    });
    gameId = created.data.game_id;
    for (const seat of created.data.seat_tokens) tokens.set(seat.seat, seat.token);
  } else if (seating === 'public' || seating === 'private') {
    gameId = await openTableFilled(spectator, kind, seats, seating, tokens);
  } else {
    throw new Error(`no such seating: ${seating}`);
  }
  const players = new Map(
    [...tokens].map(([seat, token]) => [
      seat,
      createClient({ baseUrl, headers: { Authorization: `Bearer ${token}` } }),
    ]),
  );
  for (let played = 0; played < MAX_COMMANDS; played++) {
    const shown = await getGame({ client: spectator, path: { game_id: gameId }, throwOnError: true });
    if (shown.data.outcome.finished) {
      const verdict = await verified(baseUrl, gameId);
      const { seating, names } = shown.data;
      console.log(JSON.stringify({ kind, commands: played, verdict, seating, names }));
      return;
    }
    const seat = shown.data.to_act[0];
    const player = seat === undefined ? undefined : players.get(seat);
    if (player === undefined) throw new Error(`no player for seat ${seat}`);
    const command = await lastLegalCommand(player, gameId);
    if (command === undefined) throw new Error(`seat ${seat} has no legal command`);
    const request: CommandRequest = { command, expected_version: shown.data.version };
    await playCommand({ client: player, path: { game_id: gameId }, body: request, throwOnError: true });
  }
  throw new Error(`the game did not end within ${MAX_COMMANDS} commands`);
}

// An open table its creator does not play at, each seat then taken by its own player ("Player
// 1", "Player 2"...): the game's id; each seat's token, as its player got it, into `tokens`.
async function openTableFilled(
  client: Client,
  kind: string,
  seats: number,
  visibility: 'public' | 'private',
  tokens: Map<number, string>,
): Promise<string> {
  const table: OpenTableRequest = { visibility, creator: null };
  const created = await createGame({ client, body: newGame(kind, seats, undefined, table), throwOnError: true });
  const { game_id: gameId, status, seat_tokens: given } = created.data;
  if (status !== 'waiting' || given.length > 0) throw new Error(`not an open table that waits: ${status}`);
  const code = created.data.invitation_code ?? undefined;
  if ((visibility === 'private') !== (code !== undefined)) {
    throw new Error(`a ${visibility} table with the invitation code ${code}`);
  }
  for (let seat = 0; seat < seats; seat++) {
    const name = `Player ${seat + 1}`;
    if (seat > 0) {
      // A taken seat first: without throwOnError the client answers its typed 409 problem.
      const taken = await takeSeat({ client, path: { game_id: gameId }, body: { name, seat: 0, invitation_code: code } });
      const answered = taken.response?.status; // no response: the request itself failed
      if (answered !== 409 || taken.error?.type !== SEAT_TAKEN) {
        throw new Error(`a taken seat was answered ${answered}: ${JSON.stringify(taken.error)}`);
      }
    }
    const request: SitRequest = { name, entropy: `${name}'s dice`, invitation_code: code };
    const key = randomUUID(); // random and secret: whoever sends it again gets the token
    const granted = await sit(client, gameId, request, key);
    const again = await sit(client, gameId, request, key); // a retry, as after a lost answer
    if (again.seat !== granted.seat || again.token !== granted.token || again.replayed !== true) {
      throw new Error(`a retried sitting was not answered the first one: ${JSON.stringify(again)}`);
    }
    const expected = seat === seats - 1 ? 'active' : 'waiting';
    if (granted.seat !== seat || granted.name !== name || granted.status !== expected) {
      throw new Error(`${name} was not seated at seat ${seat} (${expected}): ${JSON.stringify(granted)}`);
    }
    tokens.set(seat, granted.token);
  }
  return gameId;
}

// A seat taken (201), or given again (`replayed`) to a retry with the same Idempotency-Key.
async function sit(client: Client, gameId: string, body: SitRequest, key: string): Promise<SeatGranted> {
  const answer = await takeSeat({
    client,
    path: { game_id: gameId },
    body,
    headers: { 'Idempotency-Key': key },
    throwOnError: true,
  });
  if (answer.response.status !== 201) {
    throw new Error(`no seat for ${body.name}: ${answer.response.status}`);
  }
  return answer.data;
}

// The last command of the seat's list (it ends long games sooner than the first): one read for
// the list's length, one for its last command.
async function lastLegalCommand(player: Client, gameId: string): Promise<LegalCommand | undefined> {
  const read = (offset: number) =>
    listLegalCommands({
      client: player,
      path: { game_id: gameId },
      query: { offset, limit: 1 },
      throwOnError: true,
    });
  const first = await read(0);
  const last = first.data.total > 1 ? await read(first.data.total - 1) : first;
  return last.data.commands[0];
}

// A bundle is a file: its bytes are downloaded and sent back unchanged.
async function verified(baseUrl: string, gameId: string): Promise<string> {
  const file = await fetch(`${baseUrl}/v1/games/${gameId}/export`);
  if (!file.ok) throw new Error(`export: ${file.status}`);
  const bytes = new Blob([await file.arrayBuffer()], { type: 'application/octet-stream' });
  const report = await verifyBundle({ client: createClient({ baseUrl }), body: bytes, throwOnError: true });
  return report.data.verdict;
}

const [baseUrl, kind, seats, seed, seating = 'creator'] = process.argv.slice(2);
if (baseUrl === undefined || kind === undefined || seats === undefined || seed === undefined) {
  throw new Error('usage: node play.js BASE_URL KIND SEATS SEED [SEATING]');
}
main(baseUrl, kind, Number(seats), seed, seating).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

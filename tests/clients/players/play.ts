// A whole game of any kind, played through the TypeScript client that @hey-api/openapi-ts
// generates from the committed OpenAPI document (tests/clients/test_typescript_client.py puts
// it in ./client beside this file, compiles both with `tsc --strict` and runs the result).
//
//     node play.js BASE_URL KIND SEATS SEED
//
// Every seat to act sends the last of its legal commands, as the client typed it, until the
// game is over; then the exported bundle's bytes are verified. Prints one JSON line. No casts,
// no `any`, nothing untyped from the API.

import { type Client, createClient } from './client/client';
import {
  createGame,
  getGame,
  listLegalCommands,
  playCommand,
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
} from './client/types.gen';

const MAX_COMMANDS = 20_000; // far beyond the longest game: a stuck game fails

type LegalCommand = LegalCommandPage['commands'][number];

type NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame;

function newGame(kind: string, seats: number, seed: string): NewGame {
  switch (kind) {
    case 'coyote':
      return { kind: 'coyote', seats, seed };
    case 'big-manitou':
      return { kind: 'big-manitou', seats, seed };
    case 'manitou-island':
      if (seats !== 2 && seats !== 4) throw new Error('Manitou island is played by 2 or 4');
      return { kind: 'manitou-island', seats, seed };
    case 'wind-river':
      return { kind: 'wind-river', seats, seed };
    case 'tribu':
      return { kind: 'tribu', seats, seed };
    default:
      throw new Error(`no such kind: ${kind}`);
  }
}

async function main(baseUrl: string, kind: string, seats: number, seed: string): Promise<void> {
  const spectator = createClient({ baseUrl }); // a spectator needs no credentials
  const created = await createGame({
    client: spectator,
    body: newGame(kind, seats, seed),
    throwOnError: true,
  });
  const gameId = created.data.game_id;
  const players = new Map(
    created.data.seat_tokens.map((seat) => [
      seat.seat,
      createClient({ baseUrl, headers: { Authorization: `Bearer ${seat.token}` } }),
    ]),
  );
  for (let played = 0; played < MAX_COMMANDS; played++) {
    const shown = await getGame({ client: spectator, path: { game_id: gameId }, throwOnError: true });
    if (shown.data.outcome.finished) {
      const verdict = await verified(baseUrl, gameId);
      console.log(JSON.stringify({ kind, commands: played, verdict }));
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

const [baseUrl, kind, seats, seed] = process.argv.slice(2);
if (baseUrl === undefined || kind === undefined || seats === undefined || seed === undefined) {
  throw new Error('usage: node play.js BASE_URL KIND SEATS SEED');
}
main(baseUrl, kind, Number(seats), seed).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

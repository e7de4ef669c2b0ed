"""The outside tamper run of issue 27: games played to the end over the real HTTP API by clients
that keep what the referee signs for them, then the record rewritten behind the service's back
by the database's owner (who also holds the seed keys, so that every hash is recomputed and every
hidden body sealed again), and the offline verifier given what the clients kept.

Each client keeps every receipt it is given (the creation for the creator, each accepted command
for the seat that sent it) and a head receipt (GET .../receipt) each time it sees a new version.
After the games end a checkpoint is signed and kept (GET /v1/checkpoints/latest), and so is the
key list (GET /v1/keys). Each rewrite is on a game of its own:

1. an event changed and every later event chained again: a hidden card dealt, and a bid (its
   command too, so that the rules cannot tell);
2. a command removed, its events with it, the later ones renumbered and chained again;
3. a finished game replaced by another whole game, played by the rules under the same id from
   another seed, with its commitment;
4. the checkpoint log rewritten too: the game's leaves changed, or deleted (the log closed up,
   or a gap left), and new checkpoints signed over it by the server, restarted.

The plain `referee verify BUNDLE` says what the bundle alone can say (which is nothing, when the
rules cannot tell either); the receipts (exit 4, naming the receipt and where the record first
differs) and the log proof against the kept checkpoint (exit 4) say that the record was changed
after the referee signed for it. A receipt that is not the referee's is refused (exit 2).

These tests run on a database of their own (made on the test run's PostgreSQL, dropped at the
end), and the log's rewrites each on another: a rewritten log would break every later proof
against a checkpoint kept on the shared database.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from psycopg import AsyncConnection, sql
from psycopg.conninfo import make_conninfo
from psycopg.rows import TupleRow

from api.app import create_app
from api.checkpoints import (
    LEAVES_PER_PAGE,
    Checkpointer,
    LogCorrupted,
    game_tag,
    logged_head,
    read_leaf,
)
from api.receipts import RECEIPT_TYPE, decode, encode, head_receipt
from api.service import Clock, utc_now
from api.signing import Envelope, SigningKeys
from api.verify import cli as verify_cli
from api.verify.receipts import read_keys, signed_checkpoint
from eventstore.bodies import BodySeal, command_place, event_place
from eventstore.chain import GENESIS_HASH, chain
from eventstore.provision import provision
from eventstore.seeds import SeedKeys
from eventstore.types import StreamHead
from referee.games import REGISTRY
from referee.games.coyote.commands import Bid
from referee.games.coyote.data import DECK
from referee.games.coyote.events import BidMade, CardDealt
from referee.kernel import Codec
from referee.kernel.lifecycle import KERNEL_EVENTS, Resign
from tests.api.conftest import running_app
from tests.api.helpers import Client, Game, assert_problem, create_game, detail, play
from tests.api.helpers import last_legal_command as last_legal
from tests.corpus.recorder import Player, Recorder
from tests.servers import app_settings
from tests.tamper import behind_the_back

if TYPE_CHECKING:  # not at run time: pytest would take a Test* class for tests
    from tests.conftest import TestServer

Conn = AsyncConnection[TupleRow]
COYOTE = Codec(REGISTRY["coyote"])
CHANGED = verify_cli.EXIT_CHANGED  # 4
UNREADABLE = verify_cli.EXIT_UNREADABLE  # 2


# -- a referee of our own -----------------------------------------------------------------------


@dataclass
class Referee:
    """An app on a database of its own, a client of it, and the owner's URL of that database."""

    app: Litestar
    http: Client
    owner_url: str
    seed_keys: SeedKeys

    @property
    def checkpointer(self) -> Checkpointer:
        checkpointer: Checkpointer = self.app.state.checkpointer
        return checkpointer


@asynccontextmanager
async def scratch_database(
    server: TestServer, seed_keys: SeedKeys
) -> AsyncIterator[tuple[str, str]]:
    """A new database on the test run's server, migrated and provisioned: (owner, login) URLs."""
    name = f"referee_receipts_{uuid.uuid4().hex[:12]}"
    async with await AsyncConnection.connect(server.owner_url, autocommit=True) as conn:
        await conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        owner = make_conninfo(server.owner_url, dbname=name)
        login = make_conninfo(server.app_url, dbname=name)
        await provision(owner, login, seed_keys, set_password=True)
        yield owner, login
    finally:
        async with await AsyncConnection.connect(server.owner_url, autocommit=True) as conn:
            await conn.execute(
                sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name))
            )


@asynccontextmanager
async def serving(
    owner: str, login: str, seed_keys: SeedKeys, clock: Clock = utc_now
) -> AsyncIterator[Referee]:
    """The real app on `login`'s database, started and stopped like a server process."""
    settings = app_settings(login, pool_min_size=1, pool_max_size=4, expensive_reads_per_minute=0)
    started = running_app(create_app(settings, clock=clock))
    app = await anext(started)
    try:
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]  # an ASGI app
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield Referee(app, http, owner, seed_keys)
    finally:
        with suppress(StopAsyncIteration):
            await anext(started)


@pytest.fixture(scope="module")
async def referee(
    test_server: TestServer, database_url: str, seed_keys: SeedKeys
) -> AsyncIterator[Referee]:
    """One referee for the rewrites of games (not of the log): its log stays honest.
    (`database_url`: the run's own database provisioned first, its login made.)"""
    async with (
        scratch_database(test_server, seed_keys) as (owner, login),
        serving(owner, login, seed_keys) as referee,
    ):
        yield referee


# -- clients that keep what they are given ------------------------------------------------------


@dataclass
class Keeper:
    """A seat's client: every receipt it is given, and a head receipt for each new version."""

    seat: int
    receipts: list[dict[str, Any]] = field(default_factory=list)
    seen: int = 0


@dataclass
class Table:
    game: Game
    keepers: list[Keeper]
    to_act: list[list[int]] = field(default_factory=list)  # before each command played

    async def saw(self, http: Client, version: int) -> None:
        """Every client sees the game at `version`: each asks for a head receipt if it is new."""
        for keeper in self.keepers:
            if version > keeper.seen:
                keeper.seen = version
                response = await http.get(f"{self.game.url}/receipt")
                assert response.status_code == 200, response.text
                keeper.receipts.append(response.json())


Chooser = Callable[[Client, Game, dict[str, Any]], Awaitable[tuple[int, dict[str, Any]]]]


async def new_table(http: Client, kind: str, seats: int, **fields: Any) -> Table:
    game = await create_game(http, kind=kind, seats=seats, **fields)
    table = Table(game, [Keeper(seat) for seat in range(seats)])
    table.keepers[0].receipts.append(game.created["receipt"])  # the creator sits at seat 0
    await table.saw(http, game.created["version"])
    return table


async def play_out(
    http: Client, table: Table, choose: Chooser, commands: int | None = None
) -> dict[str, Any]:
    """Commands chosen by `choose` until the game is over (or `commands` were played); every
    answer's receipt kept by the seat that sent the command."""
    state = await detail(http, table.game)
    played = 0
    while state["status"] != "finished" and (commands is None or played < commands):
        seat, command = await choose(http, table.game, state)
        table.to_act.append(state["to_act"])
        response = await play(http, table.game, seat, command, expected_version=state["version"])
        assert response.status_code == 200, (command, response.text)
        state = response.json()
        table.keepers[seat].receipts.append(state["receipt"])
        await table.saw(http, state["version"])
        played += 1
    return state


async def stepped_bids(
    http: Client, game: Game, state: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """Coyote: bids 1, 3, 5 in each round, then a challenge (so that the middle bid, 3, could
    have been 2 or 4 under the rules)."""
    seat = state["to_act"][0]
    bids = state["view"]["bids"]
    if len(bids) >= 3:
        return seat, {"type": "coyote.challenge"}
    return seat, {"type": "coyote.bid", "number": bids[-1] + 2 if bids else 1}


async def last_legal_command(
    http: Client, game: Game, state: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    seat = state["to_act"][0]
    return seat, await last_legal(http, game, seat)


async def coyote_to_the_end(referee: Referee, **fields: Any) -> Table:
    """A short Coyote game (3 seats, 1 feather: two rounds), played to the end."""
    table = await new_table(referee.http, "coyote", 3, options={"feathers": 1}, **fields)
    assert (await play_out(referee.http, table, stepped_bids))["status"] == "finished"
    return table


async def tribu_resigned(referee: Referee, commands: int = 8) -> Table:
    """A Tribù game for two: `commands` commands, then seat 1 resigns (which ends it)."""
    table = await new_table(referee.http, "tribu", 2)
    state = await play_out(referee.http, table, last_legal_command, commands)
    assert state["status"] == "active"
    resign = await play(referee.http, table.game, 1, {"type": "game.resign"})
    assert resign.status_code == 200, resign.text
    assert resign.json()["status"] == "finished"
    table.keepers[1].receipts.append(resign.json()["receipt"])
    await table.saw(referee.http, resign.json()["version"])
    return table


async def checkpoint_with(referee: Referee, game_id: str, version: int) -> None:
    """Sign checkpoints until the game's head at `version` is in one."""
    for _ in range(100):
        await referee.checkpointer.checkpoint_now()
        proof = await referee.http.get(f"/v1/games/{game_id}/inclusion")
        assert proof.status_code == 200, proof.text
        entries = proof.json()["entries"]
        last = entries and read_leaf(base64.b64decode(entries[-1]["leaf"]), game_id)
        if last and last.version == version:
            return
    pytest.fail(f"the head of game {game_id} at version {version} never went into the log")


@dataclass
class Kept:
    """What the clients kept beside their receipts: the keys and a checkpoint, as files."""

    keys: Path
    checkpoint: Path
    size: int


async def keep(referee: Referee, tmp_path: Path, *tables: Table) -> Kept:
    """After the games end: their heads checkpointed, the latest checkpoint and the keys kept."""
    for table in tables:
        await checkpoint_with(referee, table.game.id, table.keepers[0].seen)
    latest = await referee.http.get("/v1/checkpoints/latest")
    assert latest.status_code == 200, latest.text
    keys = await referee.http.get("/v1/keys")
    assert keys.status_code == 200, keys.text
    size = json.loads(base64.b64decode(latest.json()["payload"]))["size"]
    return Kept(
        write(tmp_path / "keys.json", keys.content),
        write(tmp_path / "kept.json", latest.content),
        size,
    )


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def receipt_files(tmp_path: Path, table: Table) -> list[Path]:
    return [
        write(tmp_path / f"seat{keeper.seat}.json", msgspec.json.encode(keeper.receipts))
        for keeper in table.keepers
    ]


async def export(referee: Referee, tmp_path: Path, game: Game) -> Path:
    response = await referee.http.get(f"{game.url}/export")
    assert response.status_code == 200, response.text
    return write(tmp_path / "bundle.json", response.content)


async def log_proof(referee: Referee, tmp_path: Path, game: Game, kept: Kept) -> Path:
    """The game's proof in the latest checkpoint, extending the kept one (asked after the
    rewrite, as a client would when a dispute arises)."""
    response = await referee.http.get(f"{game.url}/inclusion", params={"since": kept.size})
    assert response.status_code == 200, response.text
    return write(tmp_path / "log.json", response.content)


# -- the verifier, in process -------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    status: int
    out: str
    err: str

    def check(self, check_id: str) -> tuple[str, int | None, str]:
        """(verdict, event, detail) of a check in the rendered report."""
        found = re.search(
            rf"^(\w+) +{re.escape(check_id)}(?: \(event (\d+)\))?\n {{4}}.*\n {{4}}-> (.*)$",
            self.out,
            re.MULTILINE,
        )
        assert found is not None, f"no {check_id} check in:\n{self.out}{self.err}"
        return found[1], None if found[2] is None else int(found[2]), found[3]

    def has(self, check_id: str) -> bool:
        return re.search(rf"^\w+ +{re.escape(check_id)}\b", self.out, re.MULTILINE) is not None


def ran(
    capsys: pytest.CaptureFixture[str], command: Callable[[list[str]], int], *argv: object
) -> Run:
    """A verifier command run in process, with what it printed."""
    capsys.readouterr()
    status = command([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return Run(status, captured.out, captured.err)


def verify(capsys: pytest.CaptureFixture[str], *argv: object) -> Run:
    return ran(capsys, verify_cli.main, *argv)


def verify_pair(capsys: pytest.CaptureFixture[str], pair: Path, keys: Path) -> Run:
    return ran(capsys, verify_cli.main_pair, pair, "--keys", keys)


def statements(path: Path) -> list[tuple[str, Any]]:
    """(label, statement) of each receipt of a file, labelled as the verifier labels them."""
    envelopes = msgspec.json.decode(path.read_bytes(), type=list[Envelope])
    return [
        (
            f"{path} #{number}" if len(envelopes) > 1 else str(path),
            decode(base64.b64decode(envelope.payload)),
        )
        for number, envelope in enumerate(envelopes, start=1)
    ]


def first_contradicted(files: Sequence[Path], changed: int) -> tuple[set[str], int, int]:
    """Where the verifier must point for a record changed from event `changed` on: the labels of
    the receipts of the lowest version that reaches the change, that version, and the first
    event after every version the receipts confirm."""
    signed = [item for path in files for item in statements(path)]
    version = min(statement.version for _, statement in signed if statement.version >= changed)
    labels = {label for label, statement in signed if statement.version == version}
    confirmed = max(
        (statement.version for _, statement in signed if statement.version < changed), default=0
    )
    return labels, version, confirmed + 1


def assert_receipts_catch(run: Run, files: Sequence[Path], changed: int) -> None:
    """Exit 4; the report names a receipt of the first version that reaches the change, and
    the first event after what the receipts confirm, at or before the change."""
    assert run.status == CHANGED, run.out + run.err
    verdict, event, detail_ = run.check("receipts")
    labels, version, first = first_contradicted(files, changed)
    assert verdict == "FAILED", run.out
    assert any(detail_.startswith(f"{label} (") for label in labels), (labels, detail_)
    assert f"version {version}) is contradicted" in detail_, detail_
    assert "The record was changed after this receipt was given" in detail_, detail_
    assert first <= changed, (first, changed)
    if event is None:  # the receipts give a span, named in the detail, not as an event
        assert f"the first event that differs is one of {first}.." in detail_, detail_
        assert "\nverdict: FAILED" in run.out, run.out  # another check may name an event
    else:
        assert event == first, (event, first, changed, detail_)
        assert f"\nverdict: FAILED, first bad event {first}\n" in run.out, run.out


# -- the record, as its owner reads and writes it ----------------------------------------------


@dataclass
class EventRow:
    type: str
    body: bytes  # plain: opened if it was stored sealed
    sealed: bool
    seat: int | None
    command_id: int | None
    chance_cursor: int
    recorded_at: datetime


@dataclass
class CommandRow:
    id: int
    seat: int | None
    body: bytes  # plain
    sealed: bool
    idempotency_key: str | None
    first_seq: int
    last_seq: int
    recorded_at: datetime


@dataclass
class Record:
    game_id: str
    seed: bytes
    seed_chosen_by_creator: bool
    status: str
    created_at: datetime
    events: list[EventRow]
    commands: list[CommandRow]


async def read_record(conn: Conn, game_id: str, keys: SeedKeys) -> Record:
    """The game as stored, every sealed body opened with the seed keys."""
    cursor = await conn.execute(
        "SELECT seed_key_id, sealed_seed, seed_chosen_by_creator, status, created_at"
        " FROM games WHERE game_id = %s",
        [game_id],
    )
    row = await cursor.fetchone()
    assert row is not None
    key_id, sealed_seed, chosen, status, created_at = row
    seed = keys.open(game_id, key_id, bytes(sealed_seed))
    seal = BodySeal(game_id, seed)

    def plain(place: str, body: bytes, sealed: bool) -> bytes:
        opened = seal.open(place, bytes(body)) if sealed else bytes(body)
        assert opened is not None, place
        return opened

    cursor = await conn.execute(
        "SELECT seq, type, body, sealed, seat, command_id, chance_cursor, recorded_at"
        " FROM events WHERE game_id = %s ORDER BY seq",
        [game_id],
    )
    events = [
        EventRow(kind, plain(event_place(seq), body, sealed), sealed, seat, command, cursor_, at)
        for seq, kind, body, sealed, seat, command, cursor_, at in await cursor.fetchall()
    ]
    cursor = await conn.execute(
        "SELECT command_id, seat, body, sealed, idempotency_key, first_seq, last_seq, recorded_at"
        " FROM commands WHERE game_id = %s ORDER BY command_id",
        [game_id],
    )
    commands = [
        CommandRow(
            number, seat, plain(command_place(first), body, sealed), sealed, key, first, last, at
        )
        for number, seat, body, sealed, key, first, last, at in await cursor.fetchall()
    ]
    return Record(game_id, seed, chosen, status, created_at, events, commands)


async def write_record(conn: Conn, record: Record, keys: SeedKeys) -> list[bytes]:
    """Replace the game's stored record by `record`, as its owner with every guard lifted:
    events numbered 1, 2, 3 ... and chained from the zero hash, hidden bodies sealed at their
    places, the seed sealed, the game's row moved to match. The events' hashes."""
    game_id = record.game_id
    seal = BodySeal(game_id, record.seed)
    links = chain(GENESIS_HASH, [event.body for event in record.events])
    key_id, sealed_seed = keys.seal(game_id, record.seed)
    async with behind_the_back(conn):
        await conn.execute("DELETE FROM events WHERE game_id = %s", [game_id])
        await conn.execute("DELETE FROM commands WHERE game_id = %s", [game_id])
        async with conn.cursor() as cursor:
            await cursor.executemany(
                "INSERT INTO commands (game_id, command_id, seat, body, sealed, idempotency_key,"
                " first_seq, last_seq, recorded_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        game_id,
                        command.id,
                        command.seat,
                        seal.seal(command_place(command.first_seq), command.body)
                        if command.sealed
                        else command.body,
                        command.sealed,
                        command.idempotency_key,
                        command.first_seq,
                        command.last_seq,
                        command.recorded_at,
                    )
                    for command in record.commands
                ],
            )
            await cursor.executemany(
                "INSERT INTO events (game_id, seq, type, body, sealed, seat, command_id,"
                " chance_cursor, recorded_at, prev_hash, hash)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        game_id,
                        seq,
                        event.type,
                        seal.seal(event_place(seq), event.body) if event.sealed else event.body,
                        event.sealed,
                        event.seat,
                        event.command_id,
                        event.chance_cursor,
                        event.recorded_at,
                        prev_hash,
                        digest,
                    )
                    for seq, (event, (prev_hash, digest)) in enumerate(
                        zip(record.events, links, strict=True), start=1
                    )
                ],
            )
        await conn.execute(
            "UPDATE games SET version = %s, command_count = %s, status = %s, seed_key_id = %s,"
            " sealed_seed = %s, seed_chosen_by_creator = %s, created_at = %s, updated_at = %s"
            " WHERE game_id = %s",
            [
                len(record.events),
                len(record.commands),
                record.status,
                key_id,
                sealed_seed,
                record.seed_chosen_by_creator,
                record.created_at,
                record.events[-1].recorded_at,
                game_id,
            ],
        )
    return [digest for _, digest in links]


@asynccontextmanager
async def as_owner(referee: Referee) -> AsyncIterator[Conn]:
    async with await AsyncConnection.connect(referee.owner_url, autocommit=True) as conn:
        yield conn


async def rewrite(
    referee: Referee, game_id: str, change: Callable[[Record], Record]
) -> tuple[Record, Record]:
    """The game's record read, changed by `change` and written back: (before, after)."""
    async with as_owner(referee) as conn:
        before = await read_record(conn, game_id, referee.seed_keys)
        after = change(before)
        await write_record(conn, after, referee.seed_keys)
    return before, after


def seqs_of(record: Record, kind: str) -> list[int]:
    return [seq for seq, event in enumerate(record.events, start=1) if event.type == kind]


# -- the rewrites -------------------------------------------------------------------------------


def another_card(record: Record, seq: int) -> Record:
    """Event `seq` (a card dealt) deals another card of the deck."""
    dealt = COYOTE.decode_event(record.events[seq - 1].body)
    assert isinstance(dealt, CardDealt) and dealt.card is not None
    other = DECK[(dealt.card.id + 1) % len(DECK)]
    assert other != dealt.card
    events = list(record.events)
    events[seq - 1] = replace(
        events[seq - 1], body=COYOTE.encode(replace_struct(dealt, card=other))
    )
    return replace(record, events=events)


def another_bid(record: Record, seq: int, number: int) -> Record:
    """The bid of event `seq` made `number` instead: the command's body and its event both."""
    made = COYOTE.decode_event(record.events[seq - 1].body)
    assert isinstance(made, BidMade) and made.number != number
    command_id = record.events[seq - 1].command_id
    assert command_id is not None
    events, commands = list(record.events), list(record.commands)
    events[seq - 1] = replace(
        events[seq - 1], body=COYOTE.encode(replace_struct(made, number=number))
    )
    bid = COYOTE.decode_command(commands[command_id - 1].body)
    assert isinstance(bid, Bid) and bid.number == made.number, bid
    commands[command_id - 1] = replace(
        commands[command_id - 1], body=COYOTE.encode(replace_struct(bid, number=number))
    )
    return replace(record, events=events, commands=commands)


def without_command(record: Record, command_id: int) -> Record:
    """Command `command_id` and its events gone; the later commands and events renumbered."""
    gone = record.commands[command_id - 1]
    count = gone.last_seq - gone.first_seq + 1

    def moved(number: int | None) -> int | None:
        return number - 1 if number is not None and number > command_id else number

    events = [
        replace(event, command_id=moved(event.command_id))
        for event in record.events
        if event.command_id != command_id
    ]
    commands = [
        replace(
            command,
            id=command.id - 1,
            first_seq=command.first_seq - count,
            last_seq=command.last_seq - count,
        )
        if command.id > command_id
        else command
        for command in record.commands
        if command.id != command_id
    ]
    return replace(record, events=events, commands=commands)


def replace_struct(value: Any, **changes: Any) -> Any:
    return msgspec.structs.replace(value, **changes)


# -- the control --------------------------------------------------------------------------------

SEED = "c0" * 32


async def test_the_honest_game_verifies_with_its_receipts_and_the_log(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await coyote_to_the_end(referee, seed=SEED)
    kept = await keep(referee, tmp_path, table)
    # The log goes on: another game, a later checkpoint that must extend the kept one.
    later = await new_table(referee.http, "coyote", 3)
    await checkpoint_with(referee, later.game.id, later.game.created["version"])
    files = receipt_files(tmp_path, table)
    bundle = await export(referee, tmp_path, table.game)
    proof = await log_proof(referee, tmp_path, table.game, kept)
    run = verify(
        capsys,
        bundle,
        "--keys",
        kept.keys,
        "--receipts",
        *files,
        "--log",
        proof,
        "--checkpoint",
        kept.checkpoint,
    )
    assert run.status == 0, run.out + run.err
    count = sum(len(keeper.receipts) for keeper in table.keepers)
    verdict, _, detail_ = run.check("receipts")
    assert (verdict, detail_.split(",")[0]) == ("PASSED", f"{count} receipts")
    verdict, _, detail_ = run.check("checkpoint-log")
    assert (
        verdict == "PASSED" and f"It extends the checkpoint you kept (size {kept.size})" in detail_
    )
    latest = json.loads(
        base64.b64decode((await referee.http.get("/v1/checkpoints/latest")).json()["payload"])
    )
    assert latest["size"] > kept.size
    pair = await referee.http.get(
        "/v1/checkpoints/consistency", params={"first": kept.size, "second": latest["size"]}
    )
    assert pair.status_code == 200, pair.text
    run = verify_pair(capsys, write(tmp_path / "pair.json", pair.content), kept.keys)
    assert run.status == 0 and f"extends checkpoint {kept.size}" in run.out, run.out + run.err


# -- receipts that are not the referee's ---------------------------------------------------------


async def test_a_receipt_altered_or_signed_by_another_key_is_refused_not_counted(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each would contradict the (honest) bundle if it were evidence: it claims one more event
    than the game has. Refused as input (2), with or beside genuine receipts, and no report."""
    table = await coyote_to_the_end(referee)
    keys = write(tmp_path / "keys.json", (await referee.http.get("/v1/keys")).content)
    bundle = await export(referee, tmp_path, table.game)
    genuine = receipt_files(tmp_path, table)
    last = table.keepers[0].receipts[-1]
    statement = decode(base64.b64decode(last["payload"]))
    claim = encode(replace_struct(statement, version=statement.version + 1))
    altered = {**last, "payload": base64.b64encode(claim).decode()}  # the signature kept
    newer_private = "uQbDH3Lzew6zr+QnZGIE+zuCNFBPfaa7NeZzeWMqaNc="  # tests/servers.py's sign-newer
    retired = "N0Je3Ynr6P1bKvI2SRhtCdugoZgxhtIk1E+cJLffN88="  # sign-older: never signed here
    stranger = base64.b64encode(bytes(range(32))).decode()
    forgeries = {
        "altered": (altered, "its signature by key 'sign-newer' does not verify"),
        "retired": (
            sign(f"sign-older:{retired}", claim),
            "it is signed by 'sign-older', not a listed key",
        ),
        "stranger": (sign(f"intruder:{stranger}", claim), "it is signed by 'intruder'"),
        "impostor": (
            sign(f"sign-newer:{stranger}", claim),
            "its signature by key 'sign-newer' does not verify",
        ),
    }
    honest = sign(f"sign-newer:{newer_private}", claim)  # the same claim, with the real key:
    assert (
        verify(
            capsys,
            bundle,
            "--keys",
            keys,
            "--receipts",
            write(tmp_path / "honest.json", msgspec.json.encode(honest)),
        ).status
        == CHANGED
    )  # evidence (a control: the claim itself would be caught)
    for name, (forged, reason) in forgeries.items():
        path = write(tmp_path / f"{name}.json", msgspec.json.encode(forged))
        for receipts in ([path], [*genuine, path]):
            run = verify(capsys, bundle, "--keys", keys, "--receipts", *receipts)
            assert run.status == UNREADABLE, (name, run.out, run.err)
            assert run.out == "", run.out  # no report: nothing passed, nothing failed
            assert f"{path}: not a receipt of this referee: {reason}" in run.err, run.err
    assert verify(capsys, bundle, "--keys", keys, "--receipts", *genuine).status == 0


def sign(key: str, payload: bytes) -> dict[str, Any]:
    envelope: dict[str, Any] = msgspec.to_builtins(
        SigningKeys.parse(key).sign(RECEIPT_TYPE, payload)
    )
    return envelope


# -- 1. an event changed, every later event chained again ---------------------------------------


async def test_a_hidden_card_changed_and_the_chain_rebuilt(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A card of the second round's deal changed: the chain and the file hold, the rules see a
    card that is not the one the seed deals (exit 1, not knowing when it changed); the receipts
    and the log prove it changed after the referee signed (exit 4)."""
    table = await coyote_to_the_end(referee)
    kept = await keep(referee, tmp_path, table)
    files = receipt_files(tmp_path, table)

    def change(record: Record) -> Record:
        return another_card(record, changed)

    async with as_owner(referee) as conn:
        record = await read_record(conn, table.game.id, referee.seed_keys)
    changed = seqs_of(record, "coyote.card-dealt")[-1]  # the last deal: the second round's
    assert changed > record.commands[0].first_seq
    await rewrite(referee, table.game.id, change)
    bundle = await export(referee, tmp_path, table.game)

    plain = verify(capsys, bundle)
    assert plain.status == 1, plain.out
    assert plain.check("bundle")[0] == plain.check("hash-chain")[0] == "PASSED"
    assert f"verdict: FAILED, first bad event {changed}" in plain.out
    assert not plain.has("receipts") and "changed after" not in plain.out

    run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
    assert_receipts_catch(run, files, changed)
    assert run.check("hash-chain")[0] == "PASSED"

    proof = await log_proof(referee, tmp_path, table.game, kept)
    run = verify(
        capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
    )
    assert_log_catches(run, kept)


def assert_log_catches(run: Run, kept: Kept) -> None:
    """Exit 4 from the log: a leaf of the game contradicted, in a checkpoint that extends the
    kept one (the log itself was not rewritten)."""
    assert run.status == CHANGED, run.out + run.err
    verdict, event, detail_ = run.check("checkpoint-log")
    assert verdict == "FAILED", detail_
    assert re.match(r"Leaf \d+ \(version \d+, in checkpoint \d+\) is contradicted: ", detail_), (
        detail_
    )
    assert "The record was changed after the checkpoint was signed" in detail_, detail_
    # Only the end of the game is logged: the change lies in 1..end, and no event is named.
    assert event is None and "the first event that differs is one of 1.." in detail_, detail_


# -- 1b. a bid changed, command and event: the rules cannot tell --------------------------------


async def test_a_bid_changed_with_its_command_passes_every_check_of_the_bundle(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The middle bid of the first round (3, between 1 and 5) made 2, in the command as recorded
    and in its event, every later event chained again: the bundle alone passes every check
    (exit 0), which is why the receipts are needed; they and the log say otherwise (exit 4)."""
    table = await coyote_to_the_end(referee, seed=SEED)
    kept = await keep(referee, tmp_path, table)
    files = receipt_files(tmp_path, table)
    async with as_owner(referee) as conn:
        record = await read_record(conn, table.game.id, referee.seed_keys)
    changed = seqs_of(record, "coyote.bid-made")[1]
    await rewrite(referee, table.game.id, lambda record: another_bid(record, changed, 2))
    bundle = await export(referee, tmp_path, table.game)

    plain = verify(capsys, bundle)
    assert plain.status == 0, plain.out
    assert "verdict: PASSED" in plain.out
    assert (
        json.loads(
            base64.b64decode(
                msgspec.json.decode(bundle.read_bytes())["events"][changed - 1]["body"]
            )
        )["number"]
        == 2
    )

    run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
    assert_receipts_catch(run, files, changed)
    assert run.check("re-execution")[0] == "PASSED"  # the rules still see nothing wrong

    proof = await log_proof(referee, tmp_path, table.game, kept)
    run = verify(
        capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
    )
    assert_log_catches(run, kept)


# -- 2. a command removed -----------------------------------------------------------------------


async def test_a_command_removed_and_the_rest_renumbered(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command of the middle of a Tribù game removed, with its events; the later events
    renumbered and chained again, the later commands renumbered, the game's version lowered.
    The chain holds; the rules see the next command sent out of turn (exit 1); the receipts and
    the log say the record was changed after the referee signed (exit 4)."""
    table = await tribu_resigned(referee)
    kept = await keep(referee, tmp_path, table)
    files = receipt_files(tmp_path, table)
    async with as_owner(referee) as conn:
        record = await read_record(conn, table.game.id, referee.seed_keys)
    # One the next of which another seat sent, at a moment this seat alone was to act.
    removed = next(
        command
        for command, after in zip(record.commands[3:], record.commands[4:], strict=False)
        if table.to_act[command.id - 1] == [command.seat] != [after.seat]
    )
    before, after = await rewrite(
        referee, table.game.id, lambda record: without_command(record, removed.id)
    )
    assert (
        len(after.events) < len(before.events) and len(after.commands) == len(before.commands) - 1
    )
    bundle = await export(referee, tmp_path, table.game)
    assert msgspec.json.decode(bundle.read_bytes())["version"] == len(after.events)

    plain = verify(capsys, bundle)
    assert plain.status == 1, plain.out
    assert plain.check("bundle")[0] == plain.check("hash-chain")[0] == "PASSED"
    assert plain.check("stream")[0] == plain.check("seed")[0] == "PASSED"
    assert f"verdict: FAILED, first bad event {removed.first_seq}" in plain.out
    assert plain.check("re-execution")[:2] == ("FAILED", removed.first_seq)
    assert not plain.has("receipts") and "changed after" not in plain.out

    run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
    assert_receipts_catch(run, files, removed.first_seq)

    proof = await log_proof(referee, tmp_path, table.game, kept)
    run = verify(
        capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
    )
    assert_log_catches(run, kept)


# -- 3. a finished game replaced by another whole game -------------------------------------------


def forged_game(original: Record, seed: bytes, commands: int = 8) -> Record:
    """Another Tribù game for two under the same id, played by the rules from `seed` (chance is
    keyed by the game's id too: a game played under another id would not re-execute here), then
    resigned by seat 1; its times moved to the original's, its hidden events sealed as the
    service seals them."""
    game = REGISTRY["tribu"]
    recorder = Recorder(
        game,
        game.options_type(),
        2,
        game_id=original.game_id,
        seed=seed,
        seed_chosen_by_creator=original.seed_chosen_by_creator,
    )
    player = Player("forger", by_kind=True)
    for _ in range(commands):
        recorder.play(*player.choose(recorder.table))
    recorder.play(1, Resign())
    assert recorder.table.outcome().finished
    bundle = recorder.bundle()
    shift = original.created_at - bundle.created_at
    codec = Codec(game)

    def hidden(body: bytes) -> bool:
        event = codec.decode_event(body)
        return not isinstance(event, KERNEL_EVENTS) and game.redact(event, None) != event

    return replace(
        original,
        seed=seed,
        status="finished",
        events=[
            EventRow(
                event.type,
                event.body,
                hidden(event.body),
                event.seat,
                event.command_id,
                event.chance_cursor,
                event.recorded_at + shift,
            )
            for event in bundle.events
        ],
        commands=[
            CommandRow(
                command.id,
                command.seat,
                command.body,
                any(
                    hidden(event.body)
                    for event in bundle.events[command.first_seq - 1 : command.last_seq]
                ),
                None,
                command.first_seq,
                command.last_seq,
                command.recorded_at + shift,
            )
            for command in bundle.commands
        ],
    )


async def test_a_finished_game_replaced_by_another_whole_game(
    referee: Referee, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed, commitment, every event and command: the replaced game passes every check by
    itself (exit 0); the receipts contradict it from the creation on, and the log too (4)."""
    table = await tribu_resigned(referee)
    kept = await keep(referee, tmp_path, table)
    files = receipt_files(tmp_path, table)
    seed = bytes.fromhex("f0" * 32)
    before, after = await rewrite(referee, table.game.id, lambda record: forged_game(record, seed))
    assert before.seed != after.seed and before.events[0].body != after.events[0].body
    bundle = await export(referee, tmp_path, table.game)
    exported = msgspec.json.decode(bundle.read_bytes())
    assert (exported["seed"], exported["game_id"]) == (seed.hex(), table.game.id)
    assert exported["commitment"] != table.game.created["commitment"]

    plain = verify(capsys, bundle)
    assert plain.status == 0, plain.out
    assert "verdict: PASSED" in plain.out

    run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
    assert_receipts_catch(run, files, 1)
    assert "(creation, version" in run.check("receipts")[2]

    proof = await log_proof(referee, tmp_path, table.game, kept)
    run = verify(
        capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
    )
    assert_log_catches(run, kept)


# -- 4. the log rewritten too --------------------------------------------------------------------


async def game_in_two_checkpoints(referee: Referee) -> tuple[Table, list[int]]:
    """A Coyote game checkpointed while it runs and once it is over: its two leaves' versions."""
    table = await new_table(referee.http, "coyote", 3, options={"feathers": 1})
    midway = (await play_out(referee.http, table, stepped_bids, commands=5))["version"]
    await checkpoint_with(referee, table.game.id, midway)
    end = await play_out(referee.http, table, stepped_bids)
    assert end["status"] == "finished"
    return table, [midway, end["version"]]


async def leaves_of(conn: Conn, game_id: str) -> list[tuple[int, int, bytes]]:
    cursor = await conn.execute(
        "SELECT idx, version, leaf FROM log_leaves WHERE game_id = %s ORDER BY idx", [game_id]
    )
    return [(idx, version, bytes(leaf)) for idx, version, leaf in await cursor.fetchall()]


def logged_status(leaf: bytes, game_id: str) -> str:
    head = read_leaf(leaf, game_id)
    assert head is not None, leaf
    return head.status


async def latest_size(referee: Referee) -> int:
    latest = await referee.http.get("/v1/checkpoints/latest")
    assert latest.status_code == 200, latest.text
    size: int = json.loads(base64.b64decode(latest.json()["payload"]))["size"]
    return size


async def test_the_log_rewritten_and_nothing_signed_over_it(
    test_server: TestServer,
    database_url: str,
    seed_keys: SeedKeys,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The game's leaves rewritten to pin the rewritten record (a bid changed, which the rules
    cannot tell). The server still running holds the tree it signed: the leaves it now serves
    are not in it (409). Restarted, it reads the log anew and finds that its first leaves no
    longer give the root of its latest checkpoint: it serves no proof and signs nothing over
    them (409, LogCorrupted); the receipts still say what was changed (4). (An owner who also
    deletes the checkpoints signed since: the next test.)"""
    async with scratch_database(test_server, seed_keys) as (owner, login):
        async with serving(owner, login, seed_keys) as referee:
            table, logged = await game_in_two_checkpoints(referee)
            kept = await keep(referee, tmp_path, table)
            files = receipt_files(tmp_path, table)
            async with as_owner(referee) as conn:
                record = await read_record(conn, table.game.id, seed_keys)
            changed = seqs_of(record, "coyote.bid-made")[1]
            _, after = await rewrite(
                referee, table.game.id, lambda record: another_bid(record, changed, 2)
            )
            async with as_owner(referee) as conn:
                leaves = await leaves_of(conn, table.game.id)
                assert [version for _, version, _ in leaves] == logged
                assert logged[0] > changed  # both leaves pin the bid that was changed
                hashes = [
                    digest for _, digest in chain(GENESIS_HASH, [e.body for e in after.events])
                ]
                async with behind_the_back(conn):
                    for idx, version, leaf in leaves:
                        head = StreamHead(
                            game_id=table.game.id,
                            version=version,
                            status=logged_status(leaf, table.game.id),
                            hash=hashes[version - 1],
                            recorded_at=after.events[version - 1].recorded_at,
                        )
                        await conn.execute(
                            "UPDATE log_leaves SET leaf = %s WHERE idx = %s",
                            [logged_head(head_receipt(head, after.seed)), idx],
                        )
            # Still running, the server holds the tree it signed: the rewritten leaves it now
            # reads are not in it, and it says so rather than serve them.
            refused = await referee.http.get(
                f"{table.game.url}/inclusion", params={"since": kept.size}
            )
            assert refused.status_code == 409, refused.text
            assert refused.json()["type"] == "urn:referee:problem:corrupt-log"
            assert f"leaf {leaves[0][0]} is not the leaf that was signed" in refused.text
        async with serving(owner, login, seed_keys) as referee:  # restarted
            # Restarted, it reads the log anew: not the leaves its latest checkpoint was signed
            # over, so it serves no proof and signs nothing over them.
            refused = await referee.http.get(f"{table.game.url}/inclusion")
            assert_problem(refused, 409, "corrupt-log")
            later = await new_table(referee.http, "coyote", 3)
            with pytest.raises(LogCorrupted, match=f"checkpoint {kept.size} was signed over"):
                await referee.checkpointer.checkpoint_now()
            assert await latest_size(referee) == kept.size  # nothing signed since
            bundle = await export(referee, tmp_path, table.game)
            plain = verify(capsys, bundle)
            assert plain.status == 0 and "verdict: PASSED" in plain.out, plain.out
            run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
            assert_receipts_catch(run, files, changed)
            async with as_owner(referee) as conn:
                assert await leaves_of(conn, later.game.id) == []  # the new game waits too


async def test_the_games_leaves_deleted_and_the_log_signed_anew(
    test_server: TestServer,
    database_url: str,
    seed_keys: SeedKeys,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The game's leaves deleted from the log (a card changed in the record), the checkpoints
    signed over them deleted, the server restarted: it logs the rewritten head and signs
    checkpoints anew. First it cannot serve the kept checkpoint nor a proof from it (404s; the
    latest proof is refused as older than the kept checkpoint, 2); once the log has grown back
    past the kept size, the proof from it does not extend it (4). The pair the server serves
    then holds a checkpoint of the kept size signed anew: by itself it verifies (0); with the
    kept checkpoint put in its place it does not (4)."""
    async with scratch_database(test_server, seed_keys) as (owner, login):
        async with serving(owner, login, seed_keys) as referee:
            earlier = await new_table(referee.http, "coyote", 3)  # a game before it in the log
            await checkpoint_with(referee, earlier.game.id, earlier.game.created["version"])
            table, logged = await game_in_two_checkpoints(referee)
            kept = await keep(referee, tmp_path, table)
            assert kept.size == 1 + len(logged)
            files = receipt_files(tmp_path, table)
            async with as_owner(referee) as conn:
                record = await read_record(conn, table.game.id, seed_keys)
            changed = seqs_of(record, "coyote.card-dealt")[-1]
            await rewrite(referee, table.game.id, lambda record: another_card(record, changed))
            async with as_owner(referee) as conn, behind_the_back(conn):
                cursor = await conn.execute(
                    "DELETE FROM log_leaves WHERE game_id = %s RETURNING idx", [table.game.id]
                )
                first = min(idx for (idx,) in await cursor.fetchall())
                await conn.execute(  # the leaves after them moved down: no gap in the log
                    "UPDATE log_leaves l SET idx = n.idx FROM (SELECT idx AS old,"
                    " row_number() OVER (ORDER BY idx) - 1 AS idx FROM log_leaves) n"
                    " WHERE l.idx = n.old AND l.idx <> n.idx"
                )
                await conn.execute("DELETE FROM checkpoints WHERE size > %s", [first])
        async with serving(owner, login, seed_keys) as referee:  # restarted
            assert await referee.checkpointer.checkpoint_now() is not None
            size = await latest_size(referee)
            assert size == first + 1 < kept.size  # the rewritten head, logged again
            bundle = await export(referee, tmp_path, table.game)
            run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
            assert_receipts_catch(run, files, changed)

            assert_problem(await referee.http.get(f"/v1/checkpoints/{kept.size}"), 404, "not-found")
            refused = await referee.http.get(
                f"{table.game.url}/inclusion", params={"since": kept.size}
            )
            assert_problem(refused, 404, "not-found")
            assert f"No checkpoint of size {kept.size}." in refused.json()["detail"]
            latest = await referee.http.get(f"{table.game.url}/inclusion")
            assert latest.status_code == 200, latest.text
            proof = write(tmp_path / "latest-log.json", latest.content)
            run = verify(
                capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
            )
            assert run.status == UNREADABLE and run.out == "", run.out
            assert (
                f"its checkpoint ({size}) is older than the one you kept ({kept.size})" in run.err
            )

            while size <= kept.size:  # the log grows back, a checkpoint at each new game
                more = await new_table(referee.http, "coyote", 3)
                await checkpoint_with(referee, more.game.id, more.game.created["version"])
                size = await latest_size(referee)
            keys = read_keys(kept.keys.read_bytes(), "keys")
            again = await referee.http.get(f"/v1/checkpoints/{kept.size}")
            assert again.status_code == 200, again.text
            resigned = signed_checkpoint(msgspec.convert(again.json(), Envelope), keys, "served")
            original = signed_checkpoint(
                msgspec.json.decode(kept.checkpoint.read_bytes(), type=Envelope), keys, "kept"
            )
            assert resigned.size == original.size and resigned.root != original.root

            proof = await log_proof(referee, tmp_path, table.game, kept)
            run = verify(
                capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
            )
            assert run.status == CHANGED, run.out + run.err
            verdict, _, detail_ = run.check("checkpoint-log")
            assert verdict == "FAILED" and detail_.startswith(
                f"Checkpoint {size} does not extend the checkpoint you kept ({kept.size}): "
            ), detail_

            served = await referee.http.get(
                "/v1/checkpoints/consistency", params={"first": kept.size, "second": size}
            )
            assert served.status_code == 200, served.text
            pair = write(tmp_path / "pair.json", served.content)
            # A pair is self-contained: it cannot know which checkpoint of that size you kept.
            assert verify_pair(capsys, pair, kept.keys).status == 0
            spliced = {**served.json(), "first": json.loads(kept.checkpoint.read_bytes())}
            run = verify_pair(
                capsys, write(tmp_path / "spliced.json", json.dumps(spliced).encode()), kept.keys
            )
            assert run.status == CHANGED, run.out + run.err
            assert f"Checkpoint {size} does not extend checkpoint {kept.size}" in run.out


async def test_the_games_leaves_deleted_leaving_a_gap(
    test_server: TestServer,
    database_url: str,
    seed_keys: SeedKeys,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The game's leaves deleted from the middle of the log, nothing else: the running server
    serves a proof that holds none of them, which the verifier cannot count as a pass; once
    restarted, the server can serve no proof at all, nor sign: a corrupt-log problem."""
    async with scratch_database(test_server, seed_keys) as (owner, login):
        async with serving(owner, login, seed_keys) as referee:
            earlier = await new_table(referee.http, "coyote", 3)
            await checkpoint_with(referee, earlier.game.id, earlier.game.created["version"])
            table, logged = await game_in_two_checkpoints(referee)
            later = await new_table(referee.http, "coyote", 3)
            kept = await keep(referee, tmp_path, table, later)
            assert kept.size == 2 + len(logged)
            files = receipt_files(tmp_path, table)
            async with as_owner(referee) as conn:
                record = await read_record(conn, table.game.id, seed_keys)
            changed = seqs_of(record, "coyote.bid-made")[1]
            await rewrite(referee, table.game.id, lambda record: another_bid(record, changed, 2))
            async with as_owner(referee) as conn, behind_the_back(conn):
                await conn.execute("DELETE FROM log_leaves WHERE game_id = %s", [table.game.id])
            bundle = await export(referee, tmp_path, table.game)
            run = verify(capsys, bundle, "--keys", kept.keys, "--receipts", *files)
            assert_receipts_catch(run, files, changed)

            proof = await log_proof(referee, tmp_path, table.game, kept)
            assert json.loads(proof.read_bytes())["entries"] == []
            run = verify(
                capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
            )
            verdict, _, _ = run.check("checkpoint-log")
            assert run.status != 0 and verdict != "PASSED", run.out  # not a silent pass
            assert (run.status, verdict) in ((3, "PARTIAL"), (CHANGED, "FAILED")), run.out
        async with serving(owner, login, seed_keys) as referee:  # restarted
            refused = await referee.http.get(
                f"{table.game.url}/inclusion", params={"since": kept.size}
            )
            assert refused.status_code == 409, refused.text  # no proof, and no pretence of one
            assert refused.json()["type"] == "urn:referee:problem:corrupt-log"
            with pytest.raises(LogCorrupted, match=r"checkpoint \d+ was signed over"):
                await referee.checkpointer.checkpoint_now()
            assert await latest_size(referee) == kept.size  # nothing signed since


# -- 5. a game's leaves hidden, or the game dropped, the log's bytes untouched ------------------


@dataclass
class Ahead:
    """The server's clock, moved ahead at will: a checkpoint signed minutes after a game ended."""

    by: timedelta = timedelta(0)

    def __call__(self) -> datetime:
        return utc_now() + self.by


async def every_leaf(referee: Referee, tmp_path: Path, size: int) -> Path:
    """The log's leaves 0 .. size - 1, page after page, as a monitor reads them."""
    pages = []
    for start in range(0, size, LEAVES_PER_PAGE):
        page = await referee.http.get(
            "/v1/checkpoints/leaves", params={"start": start, "end": size}
        )
        assert page.status_code == 200, page.text
        pages.append(page.content)
    return write(tmp_path / "leaves.json", b"\n".join(pages))


def verify_log(capsys: pytest.CaptureFixture[str], *argv: object) -> Run:
    return ran(capsys, verify_cli.main_log, *argv)


async def test_a_finished_game_rewritten_and_its_old_leaves_filed_under_another_game(
    test_server: TestServer,
    database_url: str,
    seed_keys: SeedKeys,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A finished game's bid changed, and its leaves (whose bytes name it) filed under another
    game's id: the server's proof for the game shows only the rewritten head, logged anew, and
    by itself agrees with the bundle (0). Against the kept checkpoint, signed minutes after the
    game ended, the proof lacks the head that checkpoint holds (4); and the log's leaves up to
    it, read by number, hold the old heads by what they say, contradicted (4)."""
    clock = Ahead()
    async with (
        scratch_database(test_server, seed_keys) as (owner, login),
        serving(owner, login, seed_keys, clock) as referee,
    ):
        table, _ = await game_in_two_checkpoints(referee)
        clock.by = timedelta(minutes=5)
        kept = await keep(referee, tmp_path, table)
        async with as_owner(referee) as conn:
            record = await read_record(conn, table.game.id, seed_keys)
        changed = seqs_of(record, "coyote.bid-made")[1]
        await rewrite(referee, table.game.id, lambda record: another_bid(record, changed, 2))
        other = await new_table(referee.http, "coyote", 3)
        async with as_owner(referee) as conn, behind_the_back(conn):
            await conn.execute(
                "UPDATE log_leaves SET game_id = %s WHERE game_id = %s",
                [other.game.id, table.game.id],
            )
        await checkpoint_with(referee, table.game.id, table.keepers[0].seen)
        bundle = await export(referee, tmp_path, table.game)
        proof = await log_proof(referee, tmp_path, table.game, kept)
        entries = json.loads(proof.read_bytes())["entries"]
        assert entries and all(entry["index"] >= kept.size for entry in entries)  # old ones hid
        alone = verify(capsys, bundle, "--keys", kept.keys, "--log", proof)
        assert alone.status == 0, alone.out  # what an outside review found passing

        run = verify(
            capsys, bundle, "--keys", kept.keys, "--log", proof, "--checkpoint", kept.checkpoint
        )
        assert run.status == CHANGED, run.out + run.err
        verdict, _, detail_ = run.check("checkpoint-log")
        assert verdict == "FAILED", detail_
        assert detail_.startswith(f"Checkpoint {kept.size} was signed "), detail_
        assert "the proof shows no head of it" in detail_, detail_

        leaves = await every_leaf(referee, tmp_path, kept.size)
        run = verify(
            capsys, bundle, "--keys", kept.keys, "--leaves", leaves, "--checkpoint", kept.checkpoint
        )
        assert run.status == CHANGED, run.out + run.err
        verdict, _, detail_ = run.check("checkpoint-leaves")
        assert verdict == "FAILED", detail_
        assert re.match(
            rf"Leaf \d+ \(version \d+, in the checkpoint you kept, size {kept.size}\) is "
            "contradicted: the history up to event \\d+ is not the one it pins.",
            detail_,
        ), detail_


async def test_a_finished_game_dropped_from_the_database_is_still_in_the_log(
    test_server: TestServer,
    database_url: str,
    seed_keys: SeedKeys,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A finished game's rows deleted, its leaves left: the server has no game of that id, but
    its log still answers for it, and `referee verify-log` shows the game's heads from the
    leaves that rebuild the kept checkpoint (0); a game never logged is not there (1); leaves
    that do not rebuild it are a rewritten log (4)."""
    async with (
        scratch_database(test_server, seed_keys) as (owner, login),
        serving(owner, login, seed_keys) as referee,
    ):
        table, logged = await game_in_two_checkpoints(referee)
        kept = await keep(referee, tmp_path, table)
        async with as_owner(referee) as conn, behind_the_back(conn):
            for name in ("events", "commands", "seat_tokens", "games"):
                await conn.execute(
                    sql.SQL("DELETE FROM {} WHERE game_id = %s").format(sql.Identifier(name)),
                    [table.game.id],
                )
        assert_problem(await referee.http.get(f"{table.game.url}/export"), 404, "not-found")
        inclusion = await referee.http.get(f"{table.game.url}/inclusion")
        assert inclusion.status_code == 200, inclusion.text
        assert len(inclusion.json()["entries"]) == len(logged)

        leaves = await every_leaf(referee, tmp_path, kept.size)
        run = verify_log(
            capsys,
            leaves,
            "--keys",
            kept.keys,
            "--checkpoint",
            kept.checkpoint,
            "--game",
            table.game.id,
        )
        assert run.status == 0, run.out + run.err
        assert f"Game {table.game.id} is in the log" in run.out, run.out
        assert [int(v) for v in re.findall(r"version (\d+),", run.out)] == logged, run.out
        assert f"version {logged[-1]}, finished," in run.out, run.out

        never = str(uuid.uuid4())
        run = verify_log(
            capsys, leaves, "--keys", kept.keys, "--checkpoint", kept.checkpoint, "--game", never
        )
        assert run.status == 1 and f"They hold no head of game {never}." in run.out, run.out

        pages = [json.loads(line) for line in leaves.read_bytes().splitlines()]
        pages[0]["leaves"][0] = pages[0]["leaves"][1]
        forged = write(tmp_path / "forged.json", b"\n".join(json.dumps(p).encode() for p in pages))
        run = verify_log(capsys, forged, "--keys", kept.keys, "--checkpoint", kept.checkpoint)
        assert run.status == CHANGED and "the log was rewritten after you kept it" in run.out


async def test_the_leaves_by_number(
    test_server: TestServer, database_url: str, seed_keys: SeedKeys
) -> None:
    """Pages of at most LEAVES_PER_PAGE leaves, none past the latest checkpoint (a range with
    none in it: an empty page), a malformed range refused (400); a leaf changed behind the
    server's back is refused, not served (409)."""
    async with (
        scratch_database(test_server, seed_keys) as (owner, login),
        serving(owner, login, seed_keys) as referee,
    ):
        empty = await referee.http.get("/v1/checkpoints/leaves", params={"start": 0, "end": 5})
        assert empty.status_code == 200 and empty.json() == {"start": 0, "leaves": []}
        table, logged = await game_in_two_checkpoints(referee)
        await checkpoint_with(referee, table.game.id, logged[-1])
        size = await latest_size(referee)
        page = await referee.http.get(
            "/v1/checkpoints/leaves", params={"start": 0, "end": size + 10}
        )
        assert page.status_code == 200, page.text
        leaves = [base64.b64decode(leaf) for leaf in page.json()["leaves"]]
        # The log names a game by a hash of its id, never by the id: a private table's stays
        # unlisted for whoever reads the leaves.
        assert all(table.game.id.encode() not in leaf for leaf in leaves)
        assert all(game_tag(table.game.id).encode() in leaf for leaf in leaves)
        async with as_owner(referee) as conn:
            assert leaves == [leaf for _, _, leaf in await leaves_of(conn, table.game.id)]
        one = await referee.http.get("/v1/checkpoints/leaves", params={"start": 1, "end": 2})
        assert one.json() == {"start": 1, "leaves": [page.json()["leaves"][1]]}
        for start, end in ((3, 3), (9, 1), (2**53, 2**53)):  # nothing in the range
            nothing = await referee.http.get(
                "/v1/checkpoints/leaves", params={"start": start, "end": end}
            )
            assert nothing.json() == {"start": start, "leaves": []}, nothing.text
        for params in ({"start": -1, "end": 2}, {"start": 0}, {"start": 0, "end": 0}):
            refused = await referee.http.get("/v1/checkpoints/leaves", params=params)
            assert_problem(refused, 400, "malformed-request")
        async with as_owner(referee) as conn, behind_the_back(conn):
            await conn.execute("UPDATE log_leaves SET leaf = leaf || 'x'::bytea WHERE idx = 0")
        refused = await referee.http.get("/v1/checkpoints/leaves", params={"start": 0, "end": 1})
        assert_problem(refused, 409, "corrupt-log")


async def test_a_leaf_written_beside_the_referee_or_a_checkpoint_removed_is_never_signed(
    test_server: TestServer, database_url: str, seed_keys: SeedKeys
) -> None:
    """A leaf the owner adds after the latest checkpoint (a forged head of some game), or the
    latest checkpoint's row deleted: the referee signs nothing more over that log
    (LogCorrupted), whichever process looks."""
    async with (
        scratch_database(test_server, seed_keys) as (owner, login),
        serving(owner, login, seed_keys) as referee,
    ):
        table, logged = await game_in_two_checkpoints(referee)
        size = await latest_size(referee)
        async with as_owner(referee) as conn:
            (_, version, leaf), *_ = await leaves_of(conn, table.game.id)
            async with behind_the_back(conn):
                await conn.execute(
                    "INSERT INTO log_leaves (idx, game_id, version, leaf) VALUES (%s, %s, %s, %s)",
                    [size, table.game.id, 999, leaf],
                )
        later = await new_table(referee.http, "coyote", 3)
        with pytest.raises(
            LogCorrupted, match=f"holds {size + 1} leaves and its latest checkpoint {size}"
        ):
            await referee.checkpointer.checkpoint_now()
        async with as_owner(referee) as conn, behind_the_back(conn):
            await conn.execute("DELETE FROM log_leaves WHERE idx = %s", [size])
        assert await referee.checkpointer.checkpoint_now() is not None  # as it was: it signs
        grown = await latest_size(referee)
        async with as_owner(referee) as conn, behind_the_back(conn):
            await conn.execute("DELETE FROM checkpoints WHERE size = %s", [grown])
        await new_table(referee.http, "coyote", 3)
        with pytest.raises(LogCorrupted, match=f"its latest checkpoint {size}"):
            await referee.checkpointer.checkpoint_now()
        async with as_owner(referee) as conn:
            assert [v for _, v, _ in await leaves_of(conn, later.game.id)] == [
                later.game.created["version"]
            ]
        assert logged and version == logged[0]

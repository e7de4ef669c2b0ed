"""The proofs of open tables: a table whose players took their own seats is audited, exported
and verified offline like any game. Re-execution opens it again from its creation events and
plays every sitting and leaving; the deal at the last sitting is re-derived from the key that
covers every seat's entropy (referee/kernel/CHANCE.md, "Open tables").

Games are created, sat at and left over HTTP on the test run's PostgreSQL, played on through
the service, and exported over HTTP; forgeries are made on the exported bundle and sealed again,
so that only the deeper checks can see them, and each must fail where it was made.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from psycopg import AsyncConnection
from psycopg.rows import TupleRow, dict_row

from api.app import create_app
from api.audit import Archive
from api.bundle import (
    FORMAT_VERSION,
    Bundle,
    BundleCommand,
    BundleEvent,
    MalformedBundle,
    canonical_bytes,
    encode_bundle,
    read_bundle,
)
from api.cache import TableCache
from api.service import GameService
from api.verify import AuditReport, verify, verify_file
from api.verify.reexecution import SealedChance, SeedNeeded
from eventstore import VersionConflict
from eventstore.chain import event_hash
from eventstore.pool import Pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.kernel.lifecycle import CancelTable
from referee.kernel.table import NotYourTurn
from tests.audit.helpers import check, verdicts
from tests.corpus.generate import GAMES
from tests.corpus.recorder import Player
from tests.servers import app_settings
from tests.tamper import behind_the_back

Client = AsyncTestClient[Litestar]
Conn = AsyncConnection[TupleRow]
Json = dict[str, Any]
EVERY_CHECK = [
    "bundle",
    "rules-version",
    "creation",
    "stream",
    "hash-chain",
    "seed",
    "replay",
    "chance",
    "re-execution",
]


# -- open tables over HTTP ----------------------------------------------------------------------


@pytest.fixture(scope="module")
async def client(database_url: str, seed_keys: SeedKeys) -> AsyncIterator[Client]:
    """The real app on the test database, as tests/audit/conftest.py makes it, but for games
    with bot seats, which it does not limit: this module creates more than a minute's worth."""
    settings = app_settings(
        database_url,
        pool_min_size=1,
        pool_max_size=4,
        expensive_reads_per_minute=0,
        bot_games_per_minute=0,
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def service(store_pool: Pool, seed_keys: SeedKeys) -> GameService:
    """The service the tests play on with (every seat, without tokens), for the module."""
    return GameService(EventStore(store_pool, seed_keys), REGISTRY, TableCache(64))


@dataclass
class OpenGame:
    """An open table as its players hold it: the id and each seat's token."""

    id: str
    tokens: dict[int, str]

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"


async def open_table(
    client: Client,
    *,
    kind: str = "coyote",
    seats: int = 3,
    creator: Json | None = None,
    **fields: Any,
) -> OpenGame:
    table: Json = {} if creator is None else {"creator": creator}
    body = {"kind": kind, "seats": seats, "open_table": table, **fields}
    response = await client.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["seating"] == "open"
    tokens = {item["seat"]: item["token"] for item in created["seat_tokens"]}
    return OpenGame(created["game_id"], tokens)


async def sit(client: Client, game: OpenGame, name: str, seat: int, entropy: str = "") -> Json:
    body = {"name": name, "seat": seat, "entropy": entropy}
    response = await client.post(f"{game.url}/seats", json=body)
    assert response.status_code == 201, response.text
    answer: Json = response.json()
    game.tokens[seat] = answer["token"]
    return answer


async def leave(client: Client, game: OpenGame, seat: int) -> None:
    auth = {"Authorization": f"Bearer {game.tokens.pop(seat)}"}
    response = await client.delete(f"{game.url}/seats/{seat}", headers=auth)
    assert response.status_code == 200, response.text


async def play_out(service: GameService, game: OpenGame, commands: int | None = None) -> None:
    """Every seat (the bots' too) played by a deterministic player, to the end or for
    `commands` commands. The app plays its bots too when a sitting deals (in the background):
    a move it made first is looked at again."""
    player = Player(f"open table {game.id}")
    played = 0
    while commands is None or played < commands:
        table = await service.table(game.id)
        if table.outcome().finished:
            return
        try:
            await service.play(game.id, *player.choose(table), expected_version=table.version)
        except (NotYourTurn, VersionConflict):
            continue
        played += 1


async def exported(client: Client, game: OpenGame) -> bytes:
    response = await client.get(f"{game.url}/export")
    assert response.status_code == 200, response.text
    return response.content


async def audited(client: Client, game: OpenGame) -> Json:
    response = await client.get(f"{game.url}/audit")
    assert response.status_code == 200, response.text
    report: Json = response.json()
    return report


# The tables of every shape, filled: (what is asked at creation, then the sittings and leavings).
Sitting = tuple[str, int, str]  # name, seat, entropy; a name of "-" leaves that seat
SHAPES: dict[str, tuple[Json, list[Sitting]]] = {
    "strangers": ({}, [("Bob", 1, "bob's words"), ("Cy", 2, ""), ("Dee", 0, "dee ✓")]),
    "creator-leaves-and-resits": (
        {"creator": {"name": "Ann", "entropy": "ann's dice", "seat": 1}},
        [("Bob", 2, "first"), ("-", 2, ""), ("Cy", 2, "second"), ("Dee", 0, "")],
    ),
    "bots": (
        {"seats": 4, "bots": [{"seat": 0}, {"seat": 3, "strategy": "random"}]},
        [("Bob", 2, "b"), ("Cy", 1, "c")],
    ),
    "time-control": (
        {"creator": {"name": "Ann"}, "time_control": {"per_move_seconds": 3600}},
        [("Bob", 2, "b"), ("-", 2, ""), ("Bob", 2, "b again"), ("Cy", 1, "c")],
    ),
    "full-at-creation": (
        {"creator": {"name": "Ann", "entropy": "a", "seat": 2}, "bots": [{"seat": 0}, {"seat": 1}]},
        [],
    ),
}


async def seated_table(client: Client, shape: str) -> OpenGame:
    asked, sittings = SHAPES[shape]
    game = await open_table(client, **asked)
    for name, seat, entropy in sittings:
        if name == "-":
            await leave(client, game, seat)
        else:
            await sit(client, game, name, seat, entropy)
    return game


@pytest.fixture(scope="module")
async def finished(client: Client, service: GameService) -> bytes:
    """A finished open table's bundle: creator, a bot, a sitting left and taken again."""
    game = await open_table(
        client,
        seats=4,
        creator={"name": "Ann", "entropy": "ann's dice", "seat": 1},
        bots=[{"seat": 3}],
    )
    await sit(client, game, "Bob", 2, "bob's first words")
    await leave(client, game, 2)
    await sit(client, game, "Cy", 2, "cy")
    await sit(client, game, "Dee", 0, "dee's words")  # the last seat: the deal
    await play_out(service, game)
    return await exported(client, game)


def events_of(bundle: Bundle) -> list[Json]:
    return [json.loads(event.body) for event in bundle.events]


def seq_of(bundle: Bundle, predicate: Callable[[Json], bool]) -> int:
    return next(seq for seq, body in enumerate(events_of(bundle), start=1) if predicate(body))


def sitting(bundle: Bundle, name: str) -> int:
    """The seq of `name`'s game.seat-taken."""
    return seq_of(bundle, lambda body: body["type"] == "game.seat-taken" and body["name"] == name)


def dealt(bundle: Bundle) -> int:
    """The seq of the first event of the deal (after the sitting that filled the table)."""
    return seq_of(bundle, lambda body: body["type"] == "coyote.deck-shuffled")


# -- honest tables pass every check -----------------------------------------------------------


@pytest.mark.parametrize("shape", list(SHAPES))
async def test_an_open_table_played_to_the_end_passes_every_check(
    client: Client, service: GameService, shape: str
) -> None:
    game = await seated_table(client, shape)
    await play_out(service, game)
    data = await exported(client, game)
    bundle = read_bundle(data)
    assert (bundle.format_version, bundle.seating, bundle.status) == (2, "open", "finished")
    report = verify_file(data, REGISTRY)
    assert verdicts(report) == dict.fromkeys(EVERY_CHECK, "passed"), report
    assert "took their own seats" in check(report, "creation").detail
    # The server's own audit says the same.
    assert (await audited(client, game))["verdict"] == "passed"


async def test_a_cancelled_table_is_exported_and_verified(
    client: Client, event_store: EventStore
) -> None:
    """Unfilled at its expiry, the referee cancels the table and reveals the seed: the bundle
    is exported like a finished game's, and its re-execution cancels it again."""
    game = await open_table(client, creator={"name": "Ann", "entropy": "a"})
    await sit(client, game, "Bob", 2, "b")
    await leave(client, game, 2)
    await sit(client, game, "Cy", 1, "c")
    later = GameService(
        event_store, REGISTRY, TableCache(8), clock=lambda: datetime.now(UTC) + timedelta(hours=2)
    )
    await later.play(game.id, None, CancelTable())
    data = await exported(client, game)
    bundle = read_bundle(data)
    assert (bundle.status, bundle.seating) == ("cancelled", "open")
    assert bundle.seed is not None
    assert [event.type for event in bundle.events[-2:]] == [
        "game.table-cancelled",
        "game.seed-revealed",
    ]
    assert bundle.commands[-1].seat is None
    report = verify_file(data, REGISTRY)
    assert verdicts(report) == dict.fromkeys(EVERY_CHECK, "passed"), report
    assert "cancelled" in check(report, "replay").detail
    assert report.outcome is not None and report.outcome.ending == "cancelled"


async def test_a_table_waiting_for_players_is_audited_without_its_seed(client: Client) -> None:
    game = await open_table(client)
    await sit(client, game, "Bob", 1, "b")
    await sit(client, game, "Cy", 2, "c")
    await leave(client, game, 2)
    await sit(client, game, "Dee", 2, "d")
    await leave(client, game, 1)
    report = await audited(client, game)
    assert report["status"] == "waiting"
    assert report["verdict"] == "partial" and report["first_bad_seq"] is None, report
    by_check = {item["id"]: item for item in report["checks"]}
    assert by_check["seed"]["verdict"] == by_check["chance"]["verdict"] == "skipped"
    assert "waiting for players" in by_check["seed"]["detail"]
    assert by_check["re-execution"]["verdict"] == "partial"
    # Every sitting and leaving drew nothing, and was re-executed on the state before it.
    assert by_check["re-execution"]["detail"].startswith("5 of 5 commands re-executed")
    answer = await client.get(f"{game.url}/export")
    assert answer.status_code == 409, answer.text


async def test_a_dealt_table_still_in_play_is_audited_without_its_seed(
    client: Client, service: GameService
) -> None:
    """The sitting that dealt needs the seed (its key covers the seats): it is left for the end,
    not taken for a failure, and the commands that draw nothing are re-executed."""
    game = await seated_table(client, "creator-leaves-and-resits")
    await play_out(service, game, commands=6)
    report = await audited(client, game)
    assert report["status"] == "active"
    assert report["verdict"] == "partial" and report["first_bad_seq"] is None, report
    reexecution = next(item for item in report["checks"] if item["id"] == "re-execution")
    assert reexecution["verdict"] == "partial", reexecution
    assert "that drew chance need the seed" in reexecution["detail"]


def test_the_sealed_chance_asks_for_the_seed_to_key_an_open_table() -> None:
    with pytest.raises(SeedNeeded):
        SealedChance(0).for_seats(["a", "", "b"])
    with pytest.raises(SeedNeeded):
        SealedChance(0).uniform(3)


# -- forgeries: each fails where it was made ----------------------------------------------------


def with_event(bundle: Bundle, seq: int, **changes: Any) -> Bundle:
    events = list(bundle.events)
    events[seq - 1] = msgspec.structs.replace(events[seq - 1], **changes)
    return msgspec.structs.replace(bundle, events=tuple(events))


def with_body(bundle: Bundle, seq: int, **fields: Any) -> Bundle:
    """Event `seq` with some of its body's fields changed, the chain rebuilt as a forger would."""
    body = json.loads(bundle.events[seq - 1].body) | fields
    encoded = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return rechained(with_event(bundle, seq, body=encoded))


def with_command_body(bundle: Bundle, command_id: int, **fields: Any) -> Bundle:
    commands: list[BundleCommand] = list(bundle.commands)
    body = json.loads(commands[command_id - 1].body) | fields
    encoded = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    commands[command_id - 1] = msgspec.structs.replace(commands[command_id - 1], body=encoded)
    return msgspec.structs.replace(bundle, commands=tuple(commands))


def rechained(bundle: Bundle) -> Bundle:
    events: list[BundleEvent] = []
    previous = bytes(32)
    for event in bundle.events:
        digest = event_hash(previous, event.body)
        events.append(msgspec.structs.replace(event, prev_hash=previous.hex(), hash=digest.hex()))
        previous = digest
    return msgspec.structs.replace(bundle, events=tuple(events))


def resealed(bundle: Bundle) -> AuditReport:
    """The checks on a forged bundle whose digest was recomputed: only the deeper checks see."""
    report = verify_file(encode_bundle(bundle), REGISTRY)
    assert check(report, "bundle").verdict == "passed"
    return report


def test_the_exported_bundle_passes_as_it_is(finished: bytes) -> None:
    """The ground the forgeries below stand on."""
    report = verify_file(finished, REGISTRY)
    assert report.verdict == "passed", report
    assert resealed(read_bundle(finished)).verdict == "passed"


def test_a_changed_seat_entropy_fails_at_its_sitting(finished: bytes) -> None:
    """Only the event changed: the sitting's command says otherwise."""
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Cy")
    report = resealed(with_body(bundle, seq, entropy="other words"))
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


def test_a_changed_seat_entropy_with_its_command_changes_the_deal(finished: bytes) -> None:
    """The event and the command changed alike: the sitting re-executes, the deal does not come
    out of the key the new words make."""
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Cy")
    command = bundle.events[seq - 1].command_id
    assert command is not None
    forged = with_command_body(
        with_body(bundle, seq, entropy="other words"), command, entropy="other words"
    )
    report = resealed(forged)
    assert report.first_bad_seq == dealt(bundle)
    assert check(report, "chance").verdict == "failed"
    assert check(report, "chance").first_bad_seq == dealt(bundle)


def test_a_changed_entropy_of_the_filling_sitting_changes_the_deal(finished: bytes) -> None:
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Dee")
    command = bundle.events[seq - 1].command_id
    assert command is not None and dealt(bundle) == seq + 1
    forged = with_command_body(
        with_body(bundle, seq, entropy="dee's other words"), command, entropy="dee's other words"
    )
    report = resealed(forged)
    assert check(report, "chance").first_bad_seq == seq + 1
    assert report.first_bad_seq == seq + 1


def test_a_changed_creator_entropy_changes_the_deal(finished: bytes) -> None:
    """The creator's sitting is a creation parameter, as event 1 is: changed, it is played again
    as recorded, and the deal no longer follows."""
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Ann")
    assert bundle.events[seq - 1].command_id is None
    report = resealed(with_body(bundle, seq, entropy="not ann's dice"))
    assert check(report, "creation").verdict == check(report, "hash-chain").verdict == "passed"
    assert check(report, "chance").first_bad_seq == dealt(bundle)
    assert report.first_bad_seq == dealt(bundle)


@pytest.mark.parametrize(
    ("who", "fields"),
    [
        ("Cy", {"name": "Cyrus"}),
        ("Dee", {"name": "Dee Dee"}),
        ("Cy", {"seat": 0}),
        ("Bot 4 (greedy)", {"name": "Bot 4 (random)"}),
        ("Bot 4 (greedy)", {"entropy": "a bot's words"}),
        ("Bob", {"name": "Robert"}),
    ],
    ids=["name", "filling-name", "seat-moved", "bot-name", "bot-entropy", "left-sitter"],
)
def test_a_changed_sitting_fails_at_its_event(
    finished: bytes, who: str, fields: dict[str, Any]
) -> None:
    bundle = read_bundle(finished)
    seq = sitting(bundle, who)
    report = resealed(with_body(bundle, seq, **fields))
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq, report
    assert check(report, "re-execution").first_bad_seq == seq


def test_a_creator_sitting_moved_to_another_seat_fails(finished: bytes) -> None:
    """The creator's seat changed at creation: whoever sat there later is refused it."""
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Ann")
    report = resealed(with_body(bundle, seq, seat=2))
    bob = sitting(bundle, "Bob")  # the first sitting at seat 2
    assert report.first_bad_seq == bob, report
    assert "kernel.seat-taken" in check(report, "re-execution").detail


def test_a_creator_sitting_with_a_name_the_rules_refuse_fails_at_it(finished: bytes) -> None:
    bundle = read_bundle(finished)
    seq = sitting(bundle, "Ann")
    report = resealed(with_body(bundle, seq, name="Ann\u202e"))
    assert check(report, "re-execution").first_bad_seq == seq
    assert "kernel.name-bidi" in check(report, "re-execution").detail


@pytest.mark.parametrize(
    ("seating", "event"),
    [("creator", "game.table-opened"), ("open", None)],
    ids=["open-said-creator", "creator-said-open"],
)
async def test_a_bundle_that_misstates_its_seating_fails_creation(
    finished: bytes, client: Client, service: GameService, seating: str, event: str | None
) -> None:
    if event is None:
        created = await service.create(
            "coyote", seats=3, options=REGISTRY["coyote"].options_type(), seed=None, entropy=""
        )
        game = OpenGame(created.game_id, {})
        await play_out(service, game)
        bundle = read_bundle(await exported(client, game))
        assert bundle.seating == "creator"
        expected = 2
    else:
        bundle = read_bundle(finished)
        expected = seq_of(bundle, lambda body: body["type"] == event)
    report = resealed(msgspec.structs.replace(bundle, seating=seating))
    assert check(report, "creation").verdict == "failed"
    assert check(report, "creation").first_bad_seq == expected
    assert report.first_bad_seq == expected


async def test_a_cancellation_before_the_expiry_fails(
    client: Client, event_store: EventStore
) -> None:
    """The expiry moved later in game.table-opened: the referee's cancellation comes too soon."""
    game = await open_table(client, creator={"name": "Ann"})
    later = GameService(
        event_store, REGISTRY, TableCache(8), clock=lambda: datetime.now(UTC) + timedelta(hours=2)
    )
    await later.play(game.id, None, CancelTable())
    bundle = read_bundle(await exported(client, game))
    opened = seq_of(bundle, lambda body: body["type"] == "game.table-opened")
    expires = json.loads(bundle.events[opened - 1].body)["expires_at"]
    moved = datetime.fromisoformat(expires) + timedelta(days=1)
    forged = with_body(bundle, opened, expires_at=moved.isoformat().replace("+00:00", "Z"))
    report = resealed(forged)
    cancel = bundle.commands[-1].first_seq
    assert check(report, "re-execution").first_bad_seq == cancel
    assert "kernel.table-not-expired" in check(report, "re-execution").detail


async def test_a_cancelled_table_said_finished_fails_replay(
    client: Client, event_store: EventStore
) -> None:
    game = await open_table(client)
    later = GameService(
        event_store, REGISTRY, TableCache(8), clock=lambda: datetime.now(UTC) + timedelta(hours=2)
    )
    await later.play(game.id, None, CancelTable())
    bundle = read_bundle(await exported(client, game))
    report = resealed(msgspec.structs.replace(bundle, status="finished"))
    assert check(report, "replay").verdict == "failed"
    assert "recorded as finished; its events say cancelled" in check(report, "replay").detail


@pytest.mark.parametrize("commands", [None, 3], ids=["finished", "running"])
async def test_a_sitting_altered_in_the_database_with_its_chain_rebuilt(
    client: Client,
    service: GameService,
    archive: Archive,
    event_store: EventStore,
    superuser_conn: Conn,
    commands: int | None,
) -> None:
    """Behind the service's back, with every hash recomputed: the audit finds the sitting, with
    the seed (re-executed from the start) and without it (on the recorded state)."""
    game = await seated_table(client, "creator-leaves-and-resits")
    await play_out(service, game, commands=commands)
    async with superuser_conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute("SELECT * FROM events WHERE game_id = %s ORDER BY seq", [game.id])
        rows = await cursor.fetchall()
    plain = {event.seq: bytes(event.body) for event in await event_store.read(game.id)}
    seq = next(
        row["seq"]
        for row in rows
        if row["type"] == "game.seat-taken" and json.loads(plain[row["seq"]])["name"] == "Cy"
    )
    previous = bytes(rows[seq - 2]["hash"])
    async with behind_the_back(superuser_conn):
        for row in rows[seq - 1 :]:
            body = bytes(row["body"])
            hashed = plain[row["seq"]] if row["sealed"] else body
            if row["seq"] == seq:
                altered = json.loads(body) | {"entropy": "not what Cy said"}
                body = hashed = json.dumps(altered, separators=(",", ":")).encode()
            digest = event_hash(previous, hashed)
            await superuser_conn.execute(
                "UPDATE events SET body = %s, prev_hash = %s, hash = %s"
                " WHERE game_id = %s AND seq = %s",
                [body, previous, digest, game.id, row["seq"]],
            )
            previous = digest
    report = await archive.audit(game.id)
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


# -- the format: version 2 says how the table was seated; version 1 still verifies -------------


def test_an_exported_bundle_is_version_2_and_says_how_it_was_seated(finished: bytes) -> None:
    assert json.loads(finished)["format_version"] == FORMAT_VERSION == 2
    assert json.loads(finished)["seating"] == "open"
    assert canonical_bytes(read_bundle(finished)) == finished


def test_a_version_2_bundle_without_its_seating_is_refused(finished: bytes) -> None:
    assert b'"seating":"open",' in finished
    with pytest.raises(MalformedBundle, match=r"version 2 .*seating"):
        read_bundle(finished.replace(b'"seating":"open",', b""))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.json")), ids=lambda path: path.stem)
def test_a_version_1_bundle_still_verifies_byte_for_byte(path: Any) -> None:
    """Recorded before open tables: read as a table its creator seated, encoded again without
    the seating it never had, so its file check and digest stand."""
    data = path.read_bytes()
    assert json.loads(data)["format_version"] == 1 and b'"seating"' not in data
    bundle = read_bundle(data)
    assert (bundle.format_version, bundle.seating) == (1, "creator")
    assert canonical_bytes(bundle) == data
    assert verify_file(data, REGISTRY).verdict == "passed"


def test_a_version_1_bundle_cannot_say_open_or_cancelled() -> None:
    data = next(iter(sorted(GAMES.glob("coyote-*.json")))).read_bytes()
    seated = data.replace(b'"seats":', b'"seating":"open","seats":', 1)
    with pytest.raises(MalformedBundle, match="seating"):
        read_bundle(seated)
    with pytest.raises(MalformedBundle, match="malformed"):
        read_bundle(data.replace(b'"status":"finished"', b'"status":"cancelled"'))


def test_a_version_1_bundle_of_an_open_table_fails_creation(finished: bytes) -> None:
    """An open table relabelled version 1 (which has no seating, so says its creator seated it)."""
    relabelled = msgspec.structs.replace(read_bundle(finished), format_version=1)
    bundle = read_bundle(encode_bundle(relabelled))
    assert (bundle.format_version, bundle.seating) == (1, "creator")
    report = verify(bundle, REGISTRY)
    assert check(report, "re-execution").verdict == "passed"  # the events are the game's own
    opened = seq_of(bundle, lambda body: body["type"] == "game.table-opened")
    assert check(report, "creation").first_bad_seq == opened

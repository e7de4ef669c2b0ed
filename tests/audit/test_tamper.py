"""Rows changed behind the service's back, as a database superuser with the append-only guard
disabled: the audit names the first affected event."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow, dict_row

from api.audit import Archive
from api.verify import verify_file
from eventstore.chain import event_hash
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.api.helpers import Client, assert_problem
from tests.audit.helpers import check
from tests.tamper import behind_the_back

Conn = AsyncConnection[TupleRow]
NewGame = Callable[..., Awaitable[str]]
FAR = 1_000_000  # seqs are moved out of the way and back, under the primary key


async def rows(conn: Conn, game_id: str) -> list[dict[str, Any]]:
    async with conn.cursor(row_factory=dict_row) as cursor:
        await cursor.execute("SELECT * FROM events WHERE game_id = %s ORDER BY seq", [game_id])
        return await cursor.fetchall()


async def a_bid(conn: Conn, game_id: str) -> int:
    """The seq of a bid well inside the game (a command that draws no chance)."""
    bids = [row["seq"] for row in await rows(conn, game_id) if row["type"] == "coyote.bid-made"]
    return bids[len(bids) // 2]


def raised(body: bytes) -> bytes:
    """A bid's body with its number changed: still a valid event."""
    event = json.loads(body)
    event["number"] += 1
    return json.dumps(event, separators=(",", ":")).encode()


@pytest.fixture(params=["finished", "running"])
async def game(request: pytest.FixtureRequest, new_game: NewGame) -> str:
    game_id: str = await new_game(commands=None if request.param == "finished" else 25)
    return game_id


@pytest.fixture
async def finished_game(new_game: NewGame) -> str:
    game_id: str = await new_game()
    return game_id


async def test_an_untouched_game_has_no_bad_event(archive: Archive, game: str) -> None:
    report = await archive.audit(game)
    assert report.verdict != "failed" and report.first_bad_seq is None, report


async def test_an_altered_body(archive: Archive, superuser_conn: Conn, game: str) -> None:
    seq = await a_bid(superuser_conn, game)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = body || ' '::bytea WHERE game_id = %s AND seq = %s",
            [game, seq],
        )
    report = await archive.audit(game)
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq
    assert "altered" in check(report, "hash-chain").detail


async def test_an_altered_sealed_event(archive: Archive, superuser_conn: Conn, game: str) -> None:
    """A hidden event is stored sealed: a byte changed in it, it opens no more, and the audit
    reads the bytes as stored, which do not hash to its hash."""
    seq = next(row["seq"] for row in await rows(superuser_conn, game) if row["sealed"])
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = set_byte(body, 20, get_byte(body, 20) # 1)"
            " WHERE game_id = %s AND seq = %s",
            [game, seq],
        )
    report = await archive.audit(game)
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq


async def test_an_altered_body_with_every_hash_recomputed(
    archive: Archive, event_store: EventStore, superuser_conn: Conn, game: str
) -> None:
    """A forger who rebuilds the chain after the change (holding the seed keys, to hash the
    plain bodies of the sealed events): re-executing the commands gives the event as it was."""
    seq = await a_bid(superuser_conn, game)
    recorded = await rows(superuser_conn, game)
    plain = {event.seq: event.body for event in await event_store.read(game)}
    previous = bytes(recorded[seq - 2]["hash"])
    async with behind_the_back(superuser_conn):
        for row in recorded[seq - 1 :]:
            body = raised(row["body"]) if row["seq"] == seq else bytes(row["body"])
            digest = event_hash(previous, plain[row["seq"]] if row["sealed"] else body)
            await superuser_conn.execute(
                "UPDATE events SET body = %s, prev_hash = %s, hash = %s"
                " WHERE game_id = %s AND seq = %s",
                [body, previous, digest, game, row["seq"]],
            )
            previous = digest
    report = await archive.audit(game)
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


async def test_a_deleted_event(archive: Archive, superuser_conn: Conn, game: str) -> None:
    seq = await a_bid(superuser_conn, game)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "DELETE FROM events WHERE game_id = %s AND seq = %s", [game, seq]
        )
    report = await archive.audit(game)
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq
    assert check(report, "stream").first_bad_seq == seq


async def test_the_last_event_deleted(
    archive: Archive, superuser_conn: Conn, finished_game: str
) -> None:
    last = len(await rows(superuser_conn, finished_game))
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "DELETE FROM events WHERE game_id = %s AND seq = %s", [finished_game, last]
        )
    report = await archive.audit(finished_game)
    assert report.first_bad_seq == last
    assert check(report, "stream").first_bad_seq == last


async def test_two_events_swapped(archive: Archive, superuser_conn: Conn, game: str) -> None:
    seq = await a_bid(superuser_conn, game)
    async with behind_the_back(superuser_conn):
        for old, new in ((seq, FAR), (seq + 1, seq), (FAR, seq + 1)):
            await superuser_conn.execute(
                "UPDATE events SET seq = %s WHERE game_id = %s AND seq = %s", [new, game, old]
            )
    report = await archive.audit(game)
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq


async def test_an_inserted_event(archive: Archive, superuser_conn: Conn, game: str) -> None:
    """A copy of an event slipped in before a later one, the rest moved up."""
    seq = await a_bid(superuser_conn, game)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET seq = seq + %s WHERE game_id = %s AND seq >= %s", [FAR, game, seq]
        )
        await superuser_conn.execute(
            "UPDATE events SET seq = seq - %s + 1 WHERE game_id = %s AND seq > %s",
            [FAR, game, FAR],
        )
        await superuser_conn.execute(
            """INSERT INTO events (game_id, seq, type, body, seat, command_id, chance_cursor,
                                   recorded_at, prev_hash, hash)
               SELECT game_id, %s, type, body, seat, command_id, chance_cursor, recorded_at,
                      prev_hash, hash
                 FROM events WHERE game_id = %s AND seq = %s""",
            [seq, game, seq - 1],
        )
    report = await archive.audit(game)
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq


async def test_an_event_appended_after_the_end(
    archive: Archive, superuser_conn: Conn, finished_game: str
) -> None:
    """Chained properly, and the game's version moved on too: the rules say no event follows
    the seed's reveal."""
    recorded = await rows(superuser_conn, finished_game)
    last = recorded[-1]
    body = b'{"type":"coyote.game-won","seat":0}'
    seq = last["seq"] + 1
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            """INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)
               VALUES (%s, %s, 'coyote.game-won', %s, %s, %s, %s)""",
            [
                finished_game,
                seq,
                body,
                last["chance_cursor"],
                last["hash"],
                event_hash(bytes(last["hash"]), body),
            ],
        )
        await superuser_conn.execute(
            "UPDATE games SET version = %s WHERE game_id = %s", [seq, finished_game]
        )
    report = await archive.audit(finished_game)
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "replay").first_bad_seq == seq


async def test_a_chance_cursor_changed(
    archive: Archive, superuser_conn: Conn, finished_game: str
) -> None:
    """Cursors are not hashed: re-execution holds them to the draws the rules make."""
    seq = await a_bid(superuser_conn, finished_game)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET chance_cursor = chance_cursor + 1 WHERE game_id = %s AND seq = %s",
            [finished_game, seq],
        )
    report = await archive.audit(finished_game)
    assert report.first_bad_seq == seq
    assert check(report, "chance").first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


async def test_a_recorded_command_changed(
    archive: Archive, superuser_conn: Conn, finished_game: str
) -> None:
    """The events still chain, but re-executing the altered command does not give them."""
    seq = await a_bid(superuser_conn, finished_game)
    async with behind_the_back(superuser_conn):
        cursor = await superuser_conn.execute(
            "SELECT command_id, body FROM commands WHERE game_id = %s AND first_seq = %s",
            [finished_game, seq],
        )
        command_id, body = await cursor.fetchone() or (None, None)
        await superuser_conn.execute(
            "UPDATE commands SET body = %s WHERE game_id = %s AND command_id = %s",
            [raised(body), finished_game, command_id],
        )
    report = await archive.audit(finished_game)
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


async def test_the_games_row_changed(
    archive: Archive, superuser_conn: Conn, finished_game: str
) -> None:
    await superuser_conn.execute(
        "UPDATE games SET seats = seats + 1 WHERE game_id = %s", [finished_game]
    )
    report = await archive.audit(finished_game)
    assert report.verdict == "failed"
    assert report.first_bad_seq == 1
    assert "seats" in check(report, "creation").detail


async def test_a_body_that_is_not_utf8(
    archive: Archive, superuser_conn: Conn, finished_game: str, client: Client
) -> None:
    """The audit names the event; the API's other reads answer a problem, never a 500."""
    seq = await a_bid(superuser_conn, finished_game)
    row = (await rows(superuser_conn, finished_game))[seq - 1]
    body = bytes(row["body"]).replace(b'"coyote.bid-made"', b'"coyote.bid-made\xff"')
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = %s WHERE game_id = %s AND seq = %s",
            [body, finished_game, seq],
        )
    report = await archive.audit(finished_game)
    assert report.first_bad_seq == seq
    assert check(report, "replay").first_bad_seq == seq
    assert_problem(await client.get(f"/v1/games/{finished_game}/events"), 409, "corrupt-stream")
    exported = await client.get(f"/v1/games/{finished_game}/export")
    assert exported.status_code == 200
    assert verify_file(exported.content, REGISTRY).first_bad_seq == seq

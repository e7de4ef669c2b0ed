"""A kept audit report is answered again only while the record it vouched for is what is
stored (issue 24, item 4): a row changed behind the service's back in the middle of a finished
game, the head left standing, is verified afresh by the very process that kept the report, and
its answer is what a fresh process says."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.audit import Archive
from api.cache import ReportCache
from api.service import GameService
from eventstore.chain import event_hash
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.audit.helpers import play_game
from tests.audit.test_tamper import Conn, a_bid, raised, rows
from tests.tamper import behind_the_back

NewGame = Callable[..., Awaitable[str]]
Tamper = Callable[[Conn, str, int], Awaitable[None]]


def reencoded(body: bytes) -> bytes:
    """The same event in other bytes: what the outside probe wrote (its hash no longer holds)."""
    return json.dumps(json.loads(body), indent=1).encode()


async def reencode_the_body(conn: Conn, game_id: str, seq: int) -> None:
    body = next(bytes(row["body"]) for row in await rows(conn, game_id) if row["seq"] == seq)
    await conn.execute(
        "UPDATE events SET body = %s WHERE game_id = %s AND seq = %s",
        [reencoded(body), game_id, seq],
    )


async def move_the_chance_cursor(conn: Conn, game_id: str, seq: int) -> None:
    await conn.execute(
        "UPDATE events SET chance_cursor = chance_cursor + 1 WHERE game_id = %s AND seq = %s",
        [game_id, seq],
    )


async def change_the_command(conn: Conn, game_id: str, seq: int) -> None:
    cursor = await conn.execute(
        "SELECT command_id, body FROM commands WHERE game_id = %s AND first_seq = %s",
        [game_id, seq],
    )
    command_id, body = await cursor.fetchone() or (None, None)
    await conn.execute(
        "UPDATE commands SET body = %s WHERE game_id = %s AND command_id = %s",
        [raised(body), game_id, command_id],
    )


async def change_the_games_row(conn: Conn, game_id: str, seq: int) -> None:
    await conn.execute("UPDATE games SET seats = seats + 1 WHERE game_id = %s", [game_id])


async def rewrite_the_body_and_its_hashes(conn: Conn, game_id: str, seq: int) -> None:
    """A cleverer tamperer: the altered bid's hash recomputed, and the next event's prev_hash,
    the rest of the chain left as it is (the head stands)."""
    recorded = {row["seq"]: row for row in await rows(conn, game_id)}
    body = raised(bytes(recorded[seq]["body"]))
    digest = event_hash(bytes(recorded[seq]["prev_hash"]), body)
    await conn.execute(
        "UPDATE events SET body = %s, hash = %s WHERE game_id = %s AND seq = %s",
        [body, digest, game_id, seq],
    )
    await conn.execute(
        "UPDATE events SET prev_hash = %s WHERE game_id = %s AND seq = %s",
        [digest, game_id, seq + 1],
    )


TAMPERS: dict[str, Tamper] = {
    "a body re-encoded": reencode_the_body,
    "a body and its hashes rewritten": rewrite_the_body_and_its_hashes,
    "a chance cursor moved": move_the_chance_cursor,
    "a command changed": change_the_command,
    "the game's row changed": change_the_games_row,
}


async def test_a_body_altered_in_the_middle_is_found_by_the_app_that_kept_the_report(
    client: AsyncTestClient[Litestar], service: GameService, superuser_conn: Conn
) -> None:
    """The probe's finding: `passed` kept, an event re-encoded, `failed` at that seq."""
    game_id = await play_game(service, player="kept honest")
    url = f"/v1/games/{game_id}/audit"
    first = await client.get(url)
    assert first.status_code == 200 and first.json()["verdict"] == "passed", first.text
    assert (await client.get(url)).json() == first.json()  # kept

    seq = await a_bid(superuser_conn, game_id)
    async with behind_the_back(superuser_conn):
        await reencode_the_body(superuser_conn, game_id, seq)

    again = (await client.get(url)).json()
    assert again["verdict"] == "failed", again
    assert again["first_bad_seq"] == seq


@pytest.mark.parametrize("tamper", TAMPERS.values(), ids=TAMPERS.keys())
async def test_a_kept_report_is_what_a_fresh_verification_says(
    event_store: EventStore, superuser_conn: Conn, new_game: NewGame, tamper: Tamper
) -> None:
    game_id = await new_game()
    kept = Archive(event_store, REGISTRY, ReportCache(16))
    assert (await kept.audit(game_id)).verdict == "passed"
    assert (await kept.audit(game_id)).verdict == "passed" and kept.computed == 1

    seq = await a_bid(superuser_conn, game_id)
    async with behind_the_back(superuser_conn):
        await tamper(superuser_conn, game_id, seq)

    fresh = await Archive(event_store, REGISTRY).audit(game_id)
    assert fresh.verdict == "failed"
    assert await kept.audit(game_id) == fresh
    assert kept.computed == 2
    assert await kept.audit(game_id) == fresh and kept.computed == 2  # kept again


async def test_a_row_put_back_as_it_was_is_verified_again(
    event_store: EventStore, superuser_conn: Conn, new_game: NewGame
) -> None:
    """Deleted and inserted again byte for byte: the record reads the same, but the row is
    another one, so the report is not taken on trust; verified again, it passes."""
    game_id = await new_game()
    kept = Archive(event_store, REGISTRY, ReportCache(16))
    assert (await kept.audit(game_id)).verdict == "passed"
    seq = await a_bid(superuser_conn, game_id)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "CREATE TEMPORARY TABLE put_back ON COMMIT DROP AS"
            " SELECT * FROM events WHERE game_id = %s AND seq = %s",
            [game_id, seq],
        )
        await superuser_conn.execute(
            "DELETE FROM events WHERE game_id = %s AND seq = %s", [game_id, seq]
        )
        await superuser_conn.execute("INSERT INTO events SELECT * FROM put_back")
    assert (await kept.audit(game_id)).verdict == "passed"
    assert kept.computed == 2

"""Kept audit reports: a game is verified once per head of its stream, and a stream changed
behind the service's back and chained again is verified afresh."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from api.audit import Archive
from api.cache import ReportCache
from api.service import GameService
from api.verify import verify_file
from eventstore.chain import event_hash
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.audit.helpers import check
from tests.audit.test_tamper import Conn, a_bid, behind_the_back, raised, rows
from tests.corpus.recorder import Player

NewGame = Callable[..., Awaitable[str]]


def kept_archive(event_store: EventStore) -> Archive:
    return Archive(event_store, REGISTRY, ReportCache(16))


async def test_a_finished_game_is_verified_once(event_store: EventStore, new_game: NewGame) -> None:
    game_id = await new_game()
    archive = kept_archive(event_store)
    first = await archive.audit(game_id)
    assert first.verdict == "passed"
    again = [await archive.audit(game_id) for _ in range(5)]
    assert archive.computed == 1
    assert all(report == first for report in again)


async def test_concurrent_audits_share_one_verification(
    event_store: EventStore, new_game: NewGame
) -> None:
    game_id = await new_game()
    archive = kept_archive(event_store)
    reports = await asyncio.gather(*(archive.audit(game_id) for _ in range(8)))
    assert archive.computed == 1
    assert len({report.head_hash for report in reports}) == 1


async def test_a_running_game_is_kept_per_version(
    event_store: EventStore, service: GameService, new_game: NewGame
) -> None:
    game_id = await new_game(commands=5)
    archive = kept_archive(event_store)
    before = await archive.audit(game_id)
    assert (await archive.audit(game_id)) == before
    assert archive.computed == 1

    table = await service.table(game_id)
    seat, command = Player("one more").choose(table)
    await service.play(game_id, seat, command)
    after = await archive.audit(game_id)
    assert archive.computed == 2
    assert after.version > before.version and after.verdict == "partial"


async def test_without_a_cache_every_audit_verifies(
    event_store: EventStore, new_game: NewGame
) -> None:
    game_id = await new_game(commands=3)
    archive = Archive(event_store, REGISTRY)
    for _ in range(3):
        await archive.audit(game_id)
    assert archive.computed == 3


async def test_a_rewrite_chained_again_is_verified_afresh(
    event_store: EventStore, superuser_conn: Conn, new_game: NewGame
) -> None:
    """The forger of tests/audit/test_tamper.py, after the game's report was kept: every hash
    from the altered event on changes, the head with them."""
    game_id = await new_game()
    archive = kept_archive(event_store)
    assert (await archive.audit(game_id)).verdict == "passed"

    seq = await a_bid(superuser_conn, game_id)
    recorded = await rows(superuser_conn, game_id)
    previous = bytes(recorded[seq - 2]["hash"])
    async with behind_the_back(superuser_conn):
        for row in recorded[seq - 1 :]:
            body = raised(row["body"]) if row["seq"] == seq else bytes(row["body"])
            digest = event_hash(previous, body)
            await superuser_conn.execute(
                "UPDATE events SET body = %s, prev_hash = %s, hash = %s"
                " WHERE game_id = %s AND seq = %s",
                [body, previous, digest, game_id, row["seq"]],
            )
            previous = digest

    report = await archive.audit(game_id)
    assert archive.computed == 2
    assert report.verdict == "failed" and report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


async def test_a_cut_off_end_is_verified_afresh(
    event_store: EventStore, superuser_conn: Conn, new_game: NewGame
) -> None:
    game_id = await new_game()
    archive = kept_archive(event_store)
    assert (await archive.audit(game_id)).verdict == "passed"
    last = len(await rows(superuser_conn, game_id))
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "DELETE FROM events WHERE game_id = %s AND seq = %s", [game_id, last]
        )
    report = await archive.audit(game_id)
    assert archive.computed == 2
    assert report.verdict == "failed" and report.first_bad_seq == last


async def test_an_export_always_reads_the_stream_as_stored(
    event_store: EventStore, superuser_conn: Conn, new_game: NewGame
) -> None:
    """A change that leaves the head standing breaks the chain: the exported bundle is read
    afresh and fails its verification (as the audit does: test_kept_reports_stay_honest.py)."""
    game_id = await new_game()
    archive = kept_archive(event_store)
    assert (await archive.audit(game_id)).verdict == "passed"
    seq = await a_bid(superuser_conn, game_id)
    async with behind_the_back(superuser_conn):
        await superuser_conn.execute(
            "UPDATE events SET body = body || ' '::bytea WHERE game_id = %s AND seq = %s",
            [game_id, seq],
        )
    _, data = await archive.export(game_id)
    assert verify_file(data, REGISTRY).first_bad_seq == seq
    assert (await Archive(event_store, REGISTRY).audit(game_id)).first_bad_seq == seq

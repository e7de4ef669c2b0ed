"""The notifications of committed writes (eventstore/notifications.py): sent after the write, on
their own, the ones that pile up meanwhile together, each game's latest seq; a notification
that cannot be sent never undoes or fails the write."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from structlog.testing import capture_logs

from eventstore import NOTIFY_CHANNEL, open_store, parse_notification
from eventstore.notifications import Notifier
from eventstore.pool import Pool, create_pool
from eventstore.seeds import SeedKeys
from tests.store.helpers import events, make_stream
from tests.store.statements import recording_store

Conn = AsyncConnection[TupleRow]


async def test_writes_that_commit_while_a_notification_is_sent_go_together(
    database_url: str, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    games = [new_game_id() for _ in range(12)]
    async with recording_store(database_url, seed_keys) as (store, recorder):  # one connection
        await asyncio.gather(*(make_stream(store, game_id, opening=2) for game_id in games))
        await asyncio.gather(
            *(
                store.append(
                    game_id, expected_version=2, events=events("m", 1), seat=0, command_body=b""
                )
                for game_id in games
            )
        )
        await store.drain_notifications()
        notified = [s for s in recorder.take() if s.text.startswith("SELECT pg_notify(")]
    payloads = [payload for statement in notified for payload in statement.params[0]]
    latest: dict[str, int] = {}
    for game_id, seq in map(parse_notification, payloads):
        assert seq > latest.get(game_id, 0), "a game's notifications go forward"
        latest[game_id] = seq
    assert latest == dict.fromkeys(games, 3)  # every game's last write is told
    assert len(notified) < 2 * len(games)  # 24 writes, fewer statements


async def test_a_game_written_twice_before_its_notification_is_told_its_latest_seq(
    store_pool: Pool, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await superuser_conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
    notifier = Notifier(store_pool)
    for seq in (4, 7, 6):  # no await between: all are pending when the sending starts
        notifier.committed(game_id, seq)
    await notifier.drain()
    seen = []
    async for notification in superuser_conn.notifies(timeout=5):
        if notification.payload.startswith(f"{game_id}:"):
            seen.append(notification.payload)
        if notification.payload == f"{game_id}:7":
            break
    assert seen == [f"{game_id}:7"]  # the latest seq, once: a hint never goes back


async def test_a_notification_that_cannot_be_sent_is_given_up_and_logged(
    database_url: str,
) -> None:
    pool = create_pool(database_url, min_size=0, max_size=1)
    notifier = Notifier(pool)  # on a pool never opened: every connection is refused
    with capture_logs() as logs:
        notifier.committed("some-game", 3)
        await notifier.drain()  # no error: the write stands, listeners catch up at a heartbeat
        notifier.committed("some-game", 4)  # and the next ones are tried again
        await notifier.drain()
    warnings = [entry for entry in logs if entry["event"] == "notifications not sent"]
    assert [entry["log_level"] for entry in warnings] == ["warning", "warning"]


async def test_a_store_closed_right_after_a_write_sends_its_notification_first(
    database_url: str, seed_keys: SeedKeys, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    """`open_store` (and the app's lifespan) drain the notifications before the pool closes:
    a write's notification is not lost to a shutdown that follows it at once."""
    game_id = new_game_id()
    await superuser_conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
    async with open_store(database_url, seed_keys, min_size=1, max_size=1) as store:
        await make_stream(store, game_id, opening=2)  # and out at once: still pending here
    seen = []
    async for notification in superuser_conn.notifies(timeout=5):
        if notification.payload.startswith(f"{game_id}:"):
            seen.append(notification.payload)
            break
    assert seen == [f"{game_id}:2"]

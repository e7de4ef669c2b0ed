"""Notifications of committed writes: what wakes the live streams of every process (api/live.py).

A notification is a hint to read from, never the data: "<game_id>:<last seq>" on
`NOTIFY_CHANNEL`. It is sent once the write has committed, in a statement of its own, and the
notifications of the writes that commit while one is on its way go together in the next.

Why not inside the write: NOTIFY takes a lock, one for the whole cluster, when its transaction
commits and holds it until the commit is on disk. Inside every append it made each append wait
for the fsync of the one before it: no group commit, a third fewer appends per second on the
bench (tests/bench/README.md). A notification lost in between (the process gone after its
write committed) delays an event until the stream's next heartbeat read, never loses it.
"""

from __future__ import annotations

import asyncio

import psycopg
import structlog

from eventstore.pool import Pool

NOTIFY_CHANNEL = "referee_events"  # payload "<game_id>:<last seq>", sent when a write commits

_NOTIFY = f"SELECT pg_notify('{NOTIFY_CHANNEL}', payload) FROM unnest(%s::text[]) AS payload"

log = structlog.get_logger("eventstore.notifications")


def parse_notification(payload: str) -> tuple[str, int]:
    """(game_id, last seq) from a NOTIFY_CHANNEL payload. A hint to read from, never the data."""
    game_id, _, seq = payload.rpartition(":")
    return game_id, int(seq)


class Notifier:
    """Sends the notifications of a store's committed writes, one statement at a time: the
    ones that pile up meanwhile go together (a game's latest seq only)."""

    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._pending: dict[str, int] = {}
        self._sending: asyncio.Task[None] | None = None

    def committed(self, game_id: str, version: int) -> None:
        """A write to the game committed: its stream is at `version` now."""
        self._pending[game_id] = max(version, self._pending.get(game_id, 0))
        loop = asyncio.get_running_loop()
        sending = self._sending
        if sending is None or sending.done() or sending.get_loop() is not loop:
            self._sending = loop.create_task(self._send(), name="referee-notify")

    async def drain(self) -> None:
        """Return once what is pending has been sent (or given up on)."""
        sending = self._sending
        if sending is not None and sending.get_loop() is asyncio.get_running_loop():
            await asyncio.shield(sending)

    async def _send(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            payloads = [f"{game_id}:{version}" for game_id, version in batch.items()]
            try:
                async with self._pool.connection() as conn:
                    await conn.execute(_NOTIFY, [payloads])
            except psycopg.Error as error:  # PoolTimeout and PoolClosed among them
                # The writes stand; their listeners catch up at their next heartbeat read.
                log.warning("notifications not sent", games=len(payloads), error=str(error))

"""Live games: one LISTEN connection per process, fanned out to the streams waiting on a game.

Every write is followed by a notification on `eventstore.NOTIFY_CHANNEL`, "<game_id>:<last
seq>", whichever process wrote it (eventstore/notifications.py). A notification is only a hint:
a woken stream reads the store from the last seq it sent, so nothing is skipped or repeated.
While the connection is down nothing wakes the streams, so they also read the store at every
heartbeat, and all of them are woken as soon as the connection is back: a lost notification
delays an event, never loses it.

psycopg's `notifies()` holds its connection's lock while it waits, hence a connection of its
own, outside the pool, and one per process rather than one per stream. It is open only while
the process has streams (and `linger_seconds` after the last one ends): every notification of
every write, whichever process made it, wakes each listening process and a server process of
the database's, which took a busy process without streams ~2.5% of its time for nothing. A
stream that opens the connection is rung once it listens, as after a reconnection, and reads
what was written before.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import psycopg
import structlog
from psycopg import sql

from eventstore import NOTIFY_CHANNEL, parse_notification

RETRY_SECONDS = 1.0  # between attempts to (re)connect the listening connection
HEARTBEAT_SECONDS = 15.0  # a stream with nothing to say sends a comment line this often
LINGER_SECONDS = 30.0  # the connection stays open this long after the last stream ends

log = structlog.get_logger("api.live")


class Subscription:
    """A stream's doorbell: rung when its game may have new events."""

    def __init__(self) -> None:
        self._rung = asyncio.Event()

    def ring(self) -> None:
        self._rung.set()

    async def wait(self, timeout: float) -> bool:
        """True when rung since the last wait (at once if it was), False after `timeout`.

        Either way the bell is quiet again: a ring during the read that follows is not lost.
        """
        try:
            if not self._rung.is_set():  # wait_for(..., 0) would not even look
                await asyncio.wait_for(self._rung.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            self._rung.clear()


class EventHub:
    """Wakes the subscriptions of a game when the store says it has new events."""

    def __init__(
        self,
        conninfo: str,
        *,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
        linger_seconds: float = LINGER_SECONDS,
    ) -> None:
        self._conninfo = conninfo
        self.heartbeat_seconds = heartbeat_seconds
        self._retry_seconds = retry_seconds
        self._linger_seconds = linger_seconds
        self._subscriptions: dict[str, set[Subscription]] = {}
        self._started = False
        self._task: asyncio.Task[None] | None = None
        self._ending: set[asyncio.Task[None]] = set()  # connections closing after the last stream
        self._quiet_timer: asyncio.TimerHandle | None = None
        self.listening = False
        self.backend_pid: int | None = None  # the listening connection's server process

    async def start(self) -> None:
        """Listen in the background while there are streams; a database that is down is
        retried, never fatal."""
        self._started = True
        if self._subscriptions:
            self._listen_now()

    async def stop(self) -> None:
        self._started = False
        self._cancel_quiet_timer()
        self._end_listening()
        for task in list(self._ending):
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @contextlib.contextmanager
    def subscribe(self, game_id: str) -> Iterator[Subscription]:
        subscription = Subscription()
        self._subscriptions.setdefault(game_id, set()).add(subscription)
        if self._started:
            self._listen_now()
        try:
            yield subscription
        finally:
            subscribers = self._subscriptions.get(game_id, set())
            subscribers.discard(subscription)
            if not subscribers:
                self._subscriptions.pop(game_id, None)
            if not self._subscriptions and self._started:
                self._cancel_quiet_timer()
                self._quiet_timer = asyncio.get_running_loop().call_later(
                    self._linger_seconds, self._quiet
                )

    def subscribers(self, game_id: str) -> int:
        return len(self._subscriptions.get(game_id, ()))

    def _listen_now(self) -> None:
        self._cancel_quiet_timer()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._listen(), name="referee-event-hub"
            )

    def _quiet(self) -> None:
        """No stream for `linger_seconds`: the connection closes."""
        self._quiet_timer = None
        if not self._subscriptions:
            self._end_listening()

    def _end_listening(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)

    def _cancel_quiet_timer(self) -> None:
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None

    def notified(self, payload: str) -> None:
        """A notification from the store: wake the game's streams."""
        try:
            game_id, _ = parse_notification(payload)
        except ValueError:  # not ours: someone else notifies on the channel
            return
        for subscription in self._subscriptions.get(game_id, ()):
            subscription.ring()

    def _wake_all(self) -> None:
        for subscriptions in self._subscriptions.values():
            for subscription in subscriptions:
                subscription.ring()

    async def _listen(self) -> None:
        while True:
            try:
                await self._listen_once()
            except psycopg.Error as error:
                log.warning("event hub disconnected", error=str(error))
            finally:
                if self._task in (None, asyncio.current_task()):  # not a newer connection's
                    self.listening = False
            await asyncio.sleep(self._retry_seconds)

    async def _listen_once(self) -> None:
        async with await psycopg.AsyncConnection.connect(
            self._conninfo, autocommit=True, application_name="referee-listen"
        ) as conn:
            await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(NOTIFY_CHANNEL)))
            self.listening, self.backend_pid = True, conn.info.backend_pid
            log.info("event hub listening", channel=NOTIFY_CHANNEL)
            self._wake_all()  # what was appended while no one listened is read now
            async for notification in conn.notifies():
                self.notified(notification.payload)

"""Group commit: appends that arrive together in one process are written together.

Each append waits its turn in a queue; a writer takes every append waiting (one per game: a
game's second append waits for the next batch, as it would wait for the first to commit) and
writes them with one statement, one round trip and one commit. While a batch is on its way the
next one gathers, so a batch forms by itself under load; with nothing on its way an append is
written at once, alone, as it always was: no wait is added when there is none.

At most `writers` batches are on their way at once (one connection each), so that the database
still has a statement to run while another commits; with none, each item is written alone, at
once, by its caller. Each caller gets its own answer: the
function that writes a batch says, per append, what became of it.

Reads go together the same way (`EventStore.read` of what is newer than a game a process holds):
the "write" of a batch is then one statement that looks at every game asked about.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

WRITERS = 2  # batches on their way at once


@dataclass
class Counts:
    """What the writers did, for the bench and the tests: batches written, appends in them,
    and the largest batch."""

    batches: int = 0
    appends: int = 0
    largest: int = 0

    def add(self, size: int) -> None:
        self.batches += 1
        self.appends += size
        self.largest = max(self.largest, size)


@dataclass
class _Waiting(Generic[Item, Result]):
    item: Item
    game: str
    answer: asyncio.Future[Result] = field(repr=False)


class GroupCommit(Generic[Item, Result]):
    """Batches of items, one per game at a time, written by `write` (a result per item, in
    order)."""

    def __init__(
        self,
        write: Callable[[list[Item]], Awaitable[list[Result]]],
        *,
        writers: int = WRITERS,
    ) -> None:
        self._write = write
        self._writers = writers
        self._waiting: list[_Waiting[Item, Result]] = []
        self._running: set[asyncio.Task[None]] = set()
        self.counts = Counts()

    async def submit(self, item: Item, game: str) -> Result:
        """Write `item` (an append to `game`) with whatever else waits: its own result."""
        loop = asyncio.get_running_loop()
        if self._writers == 0:  # no batching: the item alone, now
            self.counts.add(1)
            return (await self._write([item]))[0]
        waiting = _Waiting[Item, Result](item, game, loop.create_future())
        self._waiting.append(waiting)
        # Writers of this loop only: one of a loop that closed would never take another batch.
        self._running = {t for t in self._running if not t.done() and t.get_loop() is loop}
        if len(self._running) < self._writers:
            task = loop.create_task(self._write_waiting(), name="referee-group-commit")
            self._running.add(task)
        # A caller that gives up (its request cancelled) leaves its append to its batch.
        return await asyncio.shield(waiting.answer)

    async def _write_waiting(self) -> None:
        while self._waiting:
            batch = self._take()
            self.counts.add(len(batch))
            try:
                results = await self._write([waiting.item for waiting in batch])
            except Exception as error:  # the batch's error is each of its callers'
                _fail(batch, error)
                continue
            except BaseException:  # the writer cancelled (a shutdown): nobody is left waiting
                left, self._waiting = self._waiting, []
                _fail([*batch, *left], asyncio.CancelledError())
                raise
            for waiting, result in zip(batch, results, strict=True):
                if not waiting.answer.done():
                    waiting.answer.set_result(result)

    def _take(self) -> list[_Waiting[Item, Result]]:
        """Every append waiting, but a game's second (it stays first in line for the next)."""
        batch: list[_Waiting[Item, Result]] = []
        later: list[_Waiting[Item, Result]] = []
        games: set[str] = set()
        for waiting in self._waiting:
            (later if waiting.game in games else batch).append(waiting)
            games.add(waiting.game)
        self._waiting = later
        return batch


def _fail(batch: list[_Waiting[Item, Result]], error: BaseException) -> None:
    for waiting in batch:
        if not waiting.answer.done():
            waiting.answer.set_exception(error)

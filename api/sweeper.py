"""The server's own moves: its bots' seats played, timeouts claimed, abandoned games closed,
unfilled open tables cancelled.

One background task per process (`run`) looks at the games that are due (`EventStore.due_games`:
a clock run out, a bot to move, no command for too long) every `interval`; a command or a
creation that leaves one of the server's bots to move asks for it at once (`nudge`). Safe in
several processes: every move is appended at the version it was decided on, so of two processes
attending a game one wins and the other finds that the game has moved on, and leaves it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import msgspec
import structlog
from anyio import to_thread

from api.service import GameService
from eventstore import StreamNotFound, VersionConflict
from referee.kernel import GameOver, NoLegalCommand, RuleViolation, Seat, Table
from referee.kernel.bots import play as bot_play
from referee.kernel.lifecycle import Abandon, CancelTable, ClaimTimeout

DUE_PER_SWEEP = 100  # games looked at per sweep; the next sweep takes the rest
MOVES_PER_VISIT = 1_000  # the server's moves in a row in one game (bots playing each other)
FIRST_REST_SECONDS = 5.0  # a game the sweep could not attend is left alone this long, then
LONGEST_REST_SECONDS = 3600.0  # twice as long each time it fails again, up to this

log = structlog.get_logger("api.sweeper")


class BotPacer:
    """The server's bots move one at a time in a process, and rest after each move so that their
    work takes at most `share` of the process's time (0.25: a quarter of a core).

    A bot's move costs what a player's command costs, plus its thinking (a greedy bot plays
    every candidate in six imagined worlds; a whole game of bots is seconds of CPU). Unpaced, a
    few games with a bot on every seat kept the API's event loop and every core busy; paced, the
    rest of the process's time is the players'. The rest is counted in wall time, so that a
    machine that is busy anyway (a move that took longer) gets a longer rest too.
    """

    def __init__(
        self,
        share: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError("the bots' share of a process's time is in (0, 1]")
        self._rest_per_second = 1 / share - 1
        self._clock = clock
        self._sleep = sleep
        self._turn = asyncio.Lock()

    @asynccontextmanager
    async def move(self) -> AsyncIterator[None]:
        """One bot move: waits for the bots' turn, then rests in proportion to the move's time
        before letting the next one go (a cancelled move, at shutdown, does not rest)."""
        async with self._turn:
            started = self._clock()
            yield
            rest = (self._clock() - started) * self._rest_per_second
            if rest > 0:
                await self._sleep(rest)


@dataclass(frozen=True)
class Move:
    seat: Seat | None  # None: the referee's own command
    command: msgspec.Struct
    version: int  # the version it was decided on


class Sweeper:
    def __init__(
        self,
        service: GameService,
        *,
        interval: float,
        abandon_after: float,
        bot_share: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        self._service = service
        self._interval = interval
        self._abandon_after = abandon_after  # 0: never
        self._pacer = BotPacer(bot_share)
        self._rng = rng or random.Random()
        self._visits: dict[str, asyncio.Task[int]] = {}
        # Games nudged while a visit was under way: that visit may have looked before the move
        # that made a bot's turn, so they are visited again when it ends.
        self._again: set[str] = set()
        self._failing: dict[str, tuple[datetime, float]] = {}  # game: (rests until, rest)

    async def run(self) -> None:
        """Sweep every `interval` seconds until cancelled."""
        while True:
            try:
                await self.sweep()
            except Exception:  # the database away, say: the next sweep tries again
                log.exception("sweep failed")
            await asyncio.sleep(self._interval)

    async def sweep(self) -> int:
        """Attend every game that is due now; the number of moves made."""
        now = self._service.clock()
        idle_since = now - timedelta(seconds=self._abandon_after) if self._abandon_after else None
        due = await self._service.due_games(
            now=now, idle_since=idle_since, limit=DUE_PER_SWEEP, skip=self.resting(now)
        )
        made = 0
        for game_id in due:
            try:
                made += await self.attend(game_id)
            except NoLegalCommand as stuck:  # a position of an older rules version: see attend
                _log_stuck(game_id, stuck)
                self._rest(game_id, now)
            except Exception:  # one game that fails (a damaged record, say) stops no other
                log.exception("game not attended", game_id=game_id)
                self._rest(game_id, now)
            else:
                self._failing.pop(game_id, None)
        return made

    def resting(self, now: datetime) -> list[str]:
        """The games this process's sweeps leave alone at `now`, having failed to attend them."""
        return [game_id for game_id, (until, _) in self._failing.items() if until > now]

    def _rest(self, game_id: str, now: datetime) -> None:
        """Leave a game that failed out of this process's sweeps for a while, longer each time,
        so that games that keep failing cannot take every place of a sweep."""
        _, rested = self._failing.get(game_id, (now, FIRST_REST_SECONDS / 2))
        rest = min(rested * 2, LONGEST_REST_SECONDS)
        self._failing[game_id] = (now + timedelta(seconds=rest), rest)

    def nudge(self, game_id: str, table: Table) -> None:
        """Play the server's bots in this game now, if one is to move (in the background)."""
        to_act = table.to_act()
        if not any(bot.seat in to_act for bot in table.bots):
            return
        if game_id in self._visits:
            self._again.add(game_id)
            return
        self._visit(game_id)

    def _visit(self, game_id: str) -> None:
        visit = asyncio.ensure_future(self.attend(game_id))
        self._visits[game_id] = visit
        visit.add_done_callback(partial(self._visited, game_id))

    def _visited(self, game_id: str, visit: asyncio.Task[int]) -> None:
        self._visits.pop(game_id, None)
        if game_id in self._again and not visit.cancelled() and visit.exception() is None:
            self._again.discard(game_id)
            self._visit(game_id)
            return
        self._again.discard(game_id)
        if not visit.cancelled() and (error := visit.exception()) is not None:
            # The next sweep finds the game due again (its wake_at has passed).
            if isinstance(error, NoLegalCommand):
                _log_stuck(game_id, error)
            else:
                log.error("server moves failed", game_id=game_id, error=repr(error))

    async def stop(self) -> None:
        """Cancel the visits under way (at shutdown; the games stay due for the next start)."""
        visits = list(self._visits.values())
        for visit in visits:
            visit.cancel()
        await asyncio.gather(*visits, return_exceptions=True)

    async def attend(self, game_id: str) -> int:
        """Make every move the server owes this game now; the number made."""
        made = 0
        for _ in range(MOVES_PER_VISIT):
            async with self._pacer.move():
                move = await self._next_move(game_id)
                if move is None:
                    break
                moved = await self._move(game_id, move)
            if not moved:
                break
            made += 1
        return made

    async def _move(self, game_id: str, move: Move) -> bool:
        """Play the server's move; whether it was made (not: someone else moved first)."""
        try:
            await self._service.play(
                game_id, move.seat, move.command, expected_version=move.version
            )
        except NoLegalCommand:
            # A bot, or the referee standing in for a seat that a timeout takes out, has no move
            # to make: only a game of an older rules version can stand so. The game is left as
            # it is (the sweep rests it; abandonment closes it in the end).
            raise
        except (VersionConflict, GameOver, RuleViolation, StreamNotFound) as error:
            # Someone else moved first (another process, a player): look again next time.
            log.info("server move not made", game_id=game_id, reason=type(error).__name__)
            return False
        return True

    async def _next_move(self, game_id: str) -> Move | None:
        """What the server must do in this game now: close it, claim a timeout, or move a bot."""
        table = await self._service.table(game_id)
        if table.outcome().finished:
            return None
        now = self._service.clock()
        if table.seating is not None and table.waiting():  # an open table cancelled unfilled
            expired = now >= table.seating.expires_at
            return Move(None, CancelTable(), table.version) if expired else None
        if self._abandon_after:
            idle = (now - (await self._service.info(game_id)).updated_at).total_seconds()
            if idle >= self._abandon_after:
                return Move(None, Abandon(idle_seconds=round(idle, 3)), table.version)
        to_act = sorted(table.to_act())
        if table.clocks is not None:
            for seat in to_act:
                if table.clocks.out_of_time(seat, now):
                    return Move(None, ClaimTimeout(seat=seat), table.version)
        strategies = {bot.seat: bot.strategy for bot in table.bots}
        for seat in to_act:
            if seat in strategies:
                game, strategy = table.game, strategies[seat]
                choice = partial(bot_play, game, strategy, table.state, seat, self._rng)
                return Move(seat, await to_thread.run_sync(choice), table.version)
        return None


def _log_stuck(game_id: str, stuck: NoLegalCommand) -> None:
    log.warning(
        "game waits for a seat with no legal command",
        game_id=game_id,
        seat=stuck.seat,
        rule_id=stuck.rule_id,
        detail=stuck.message,
    )

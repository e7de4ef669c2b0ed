"""The server's bots are paced (api/sweeper.py `BotPacer`): one move at a time in a process, and
a rest after each in proportion to its time, so that their work takes at most their share of
the process's time. On the pacer's own clock: nothing here waits for real time."""

from __future__ import annotations

import asyncio

import pytest

from api.sweeper import BotPacer


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.rests: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.rests.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def test_each_move_rests_so_that_the_bots_take_their_share() -> None:
    time = FakeTime()
    pacer = BotPacer(0.25, clock=time.clock, sleep=time.sleep)
    for spent in (0.01, 0.2, 0.0):
        async with pacer.move():
            time.now += spent
    assert time.rests == [pytest.approx(0.03), pytest.approx(0.6)]  # a move of no time rests 0
    assert time.now == pytest.approx(0.21 * 4)  # the bots' 0.21 s: a quarter of the time


async def test_moves_of_several_games_take_turns() -> None:
    """Two games' visits never move at once: their moves and rests follow each other."""
    time = FakeTime()
    pacer = BotPacer(0.5, clock=time.clock, sleep=time.sleep)
    inside: list[int] = []
    most = 0

    async def visit(moves: int) -> None:
        nonlocal most
        for _ in range(moves):
            async with pacer.move():
                inside.append(1)
                most = max(most, len(inside))
                time.now += 0.1
                await asyncio.sleep(0)
                inside.pop()

    await asyncio.gather(visit(3), visit(3))
    assert most == 1 and time.now == pytest.approx(6 * 0.1 * 2)


def test_a_share_is_a_fraction_of_the_time() -> None:
    for share in (0.0, -1.0, 1.5):
        with pytest.raises(ValueError, match="share"):
            BotPacer(share)
    assert BotPacer(1.0)  # unpaced: no rest

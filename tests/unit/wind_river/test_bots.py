"""The bots' view of Wind River (bots.py): nothing is hidden, so the world a seat imagines is the
real one; and what a state is worth."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.games.wind_river import GAME
from referee.games.wind_river.bots import evaluate, imagine
from referee.games.wind_river.stages import Stage, stage
from referee.kernel.bots import WIN, play

from .support import act, at, new_table, position, state_of


@pytest.mark.parametrize("seats", [3, 4])
def test_the_imagined_world_is_the_real_one_at_every_step(seats: int) -> None:
    rng = random.Random(seats)
    table = new_table(seats)
    while table.to_act():
        real = state_of(table)
        for seat in range(seats):
            world = imagine(GAME.view(real, seat), seat, rng)
            # Moves still owed that no buffalo can make are shown as none: they change nothing.
            if stage(real) is Stage.SUPPLYING:
                world = msgspec.structs.replace(world, moves_due=real.moves_due)
            assert world == real
        (seat,) = table.to_act()
        act(table, seat, play(GAME, "random", real, seat, rng))
    assert imagine(GAME.view(state_of(table), 0), 0, rng) == state_of(table)


def test_teepees_in_the_open_plains_are_worth_most_then_resources() -> None:
    teepees = {at(3, 4): {0: 1, 1: 1}}
    level = position(3, teepees=teepees, plains=(1, 1, 0), resources=(2, 2, 2))
    ahead = position(3, teepees=teepees, plains=(2, 1, 0), resources=(0, 9, 9))
    richer = position(3, teepees=teepees, plains=(1, 1, 0), resources=(5, 2, 2))
    assert evaluate(ahead, 0) > evaluate(richer, 0) > evaluate(level, 0)
    assert evaluate(level, 1) == evaluate(level, 0) and evaluate(ahead, 1) < 0
    over = msgspec.structs.replace(position(3, plains=(3, 2, 2)), step="over", finished=True)
    assert evaluate(over, 0) == WIN and evaluate(over, 1) == -WIN

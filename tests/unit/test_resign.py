"""Resignations and timeouts in every kind at every seat count, at random moments of random games
(a simultaneous choice, a reaction window, the middle of a turn: wherever play stops).

After a seat leaves: the game ends if fewer than two sides are left, else it goes on with the
referee playing for that seat; it still ends, the seat that left never wins and ranks last, and a
replay of the events equals the live table.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import REGISTRY
from referee.kernel import Table
from referee.kernel.bots import play
from referee.kernel.lifecycle import ClaimTimeout, Resign, TimeControl

MAX_COMMANDS = 30_000
CASES = [(game.kind, seats) for game in REGISTRY for seats in game.seat_counts]
T0 = datetime(2026, 11, 23, tzinfo=UTC)
PER_MOVE = 60.0


class Game:
    """A random game of one kind, timed (a minute per move), moves a second apart."""

    def __init__(self, kind: str, seats: int, seed: int) -> None:
        self.game = REGISTRY[kind]
        self.rng = random.Random(seed)
        self.secret = seed.to_bytes(16, "big")
        self.game_id = f"leave-{kind}-{seats}-{seed}"
        self.now = T0
        self.table, self.played = Table.open(
            self.game,
            self.game.options_type(),
            seats,
            game_id=self.game_id,
            seed=self.secret,
            time_control=TimeControl(per_move_seconds=PER_MOVE),
            at=self.now,
        )

    def step(self, seat: int | None, command: object, after: float = 1.0) -> None:
        self.now += timedelta(seconds=after)
        chance = self.table.chance_for(self.secret, self.game_id)
        self.played += self.table.play(seat, command, chance, at=self.now)  # type: ignore[arg-type]

    def random_move(self) -> None:
        to_act = sorted(self.table.to_act())
        seat = to_act[self.rng.randrange(len(to_act))]
        self.step(seat, play(self.game, "random", self.table.state, seat, self.rng))

    def played_on(self, moves: int) -> bool:
        """Up to `moves` random moves; whether the game still runs."""
        for _ in range(moves):
            if self.table.outcome().finished:
                return False
            self.random_move()
        return not self.table.outcome().finished

    def play_to_the_end(self) -> None:
        for _ in range(MAX_COMMANDS):
            if self.table.outcome().finished:
                return
            self.random_move()
        raise AssertionError("the game did not end")


def _check_the_end(game: Game, gone: list[int]) -> None:
    """Ended; no seat that left (nor its side) wins; they rank below every other seat."""
    outcome = game.table.outcome()
    assert outcome.finished and outcome.ending is not None
    left = {seat for side in game.game.sides(game.table.seats) if side & set(gone) for seat in side}
    assert not left & set(outcome.winners), "a seat that left won"
    ranked = [seat for group in outcome.ranking for seat in group]
    first_gone = min(ranked.index(seat) for seat in left)
    assert set(ranked[first_gone:]) == left, "a seat that left ranks above one still playing"
    assert Table.replay(game.game, game.played) == game.table


@pytest.mark.parametrize(("kind", "seats"), CASES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), stop=st.integers(0, 300))
def test_a_seat_resigns_at_any_moment(kind: str, seats: int, seed: int, stop: int) -> None:
    game = Game(kind, seats, seed)
    if not game.played_on(stop):
        return  # the game ended first
    leaver = game.rng.randrange(seats)
    game.step(leaver, Resign())
    assert leaver in game.table.departed()
    sides_left = [s for s in game.game.sides(seats) if not s & game.table.departed()]
    outcome = game.table.outcome()
    if len(sides_left) < 2:
        assert outcome.finished and outcome.ending == "resignation"
    else:  # the referee's moves for the seat that left may have ended the game by its rules
        assert not outcome.finished or outcome.ending == "rules"
    game.play_to_the_end()
    _check_the_end(game, [leaver])


@pytest.mark.parametrize(("kind", "seats"), CASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), stop=st.integers(0, 200))
def test_a_seat_that_goes_silent_is_claimed(kind: str, seats: int, seed: int, stop: int) -> None:
    game = Game(kind, seats, seed)
    if not game.played_on(stop):
        return  # the game ended first
    # Every seat to act goes silent (in a simultaneous choice, all of them), then is claimed.
    silent = sorted(game.table.to_act())
    game.now += timedelta(seconds=PER_MOVE)
    for seat in silent:
        if game.table.outcome().finished:
            break
        present = [s for s in range(seats) if s not in game.table.departed() and s != seat]
        claimant = None if game.rng.random() < 0.5 else game.rng.choice(present)
        game.step(claimant, ClaimTimeout(seat=seat), after=0)
        assert (seat, "timeout") in game.table.departures
    game.play_to_the_end()
    _check_the_end(game, [seat for seat, _ in game.table.departures])

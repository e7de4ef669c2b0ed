"""The bots of every game (referee/kernel/bots.py and each package's `bots.py`).

- A world the greedy bot imagines is one its seat cannot tell from the real one: the same view,
  the same legal commands; and it is a state the rules can play on.
- Bots of both strategies play every kind at every seat count to the end.
- The greedy bot beats random players in most seeded games.
- The greedy bot never chooses a command its worlds all say is hopeless while another is not,
  and weighs the first of the game's commands however many there are.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import REGISTRY
from referee.kernel import Table
from referee.kernel.bots import CANDIDATES, STRATEGIES, WIN, WORLDS, Strategy, greedy, play
from referee.kernel.contract import RuleViolation
from referee.kernel.registry import AnyGame

MAX_COMMANDS = 30_000
CASES = [(game.kind, seats) for game in REGISTRY for seats in game.seat_counts]


def _encoded(commands: Sequence[Any]) -> list[bytes]:
    return [msgspec.json.encode(command) for command in commands]


def _same_legal(real: Sequence[Any], imagined: Sequence[Any], rng: random.Random) -> bool:
    """The same commands in the same order (a sample of positions when the space is huge)."""
    if len(real) != len(imagined):
        return False
    if len(real) <= 200:
        return _encoded(real) == _encoded(imagined)
    positions = [rng.randrange(len(real)) for _ in range(50)]
    return all(msgspec.json.encode(real[i]) == msgspec.json.encode(imagined[i]) for i in positions)


def _open(game: AnyGame, seats: int, seed: int) -> tuple[Table, bytes, str]:
    secret = seed.to_bytes(16, "big")
    game_id = f"bots-{game.kind}-{seats}-{seed}"
    table, _ = Table.open(game, game.options_type(), seats, game_id=game_id, seed=secret)
    return table, secret, game_id


def _play_out(
    game: AnyGame,
    table: Table,
    secret: bytes,
    game_id: str,
    strategies: Sequence[Strategy],
    rng: random.Random,
) -> None:
    """Every seat played by its strategy until the game ends."""
    for _ in range(MAX_COMMANDS):
        to_act = sorted(table.to_act())
        if not to_act:
            return
        seat = to_act[rng.randrange(len(to_act))]
        command = play(game, strategies[seat], table.state, seat, rng)
        table.play(seat, command, table.chance_for(secret, game_id))
    raise AssertionError(f"{game.kind} did not end in {MAX_COMMANDS} commands")


@pytest.mark.parametrize(("kind", "seats"), CASES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_an_imagined_world_looks_the_same_to_its_seat(kind: str, seats: int, seed: int) -> None:
    game = REGISTRY[kind]
    rng = random.Random(seed)
    table, secret, game_id = _open(game, seats, seed)
    for _ in range(MAX_COMMANDS):
        to_act = sorted(table.to_act())
        if not to_act:
            break
        for seat in range(seats):
            view = game.view(table.state, seat)
            world = game.imagine(view, seat, rng)
            assert game.view(world, seat) == view, f"seat {seat} could tell the imagined world"
            assert _same_legal(
                game.legal_commands(table.state, seat), game.legal_commands(world, seat), rng
            ), f"seat {seat} has other legal commands in the imagined world"
            assert math.isfinite(game.evaluate(world, seat))
        seat = to_act[rng.randrange(len(to_act))]
        command = play(game, "random", table.state, seat, rng)
        table.play(seat, command, table.chance_for(secret, game_id))


@pytest.mark.parametrize(("kind", "seats"), CASES)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_bots_play_every_game_to_the_end(kind: str, seats: int, strategy: Strategy) -> None:
    game = REGISTRY[kind]
    rng = random.Random(f"{kind}-{seats}-{strategy}")
    table, secret, game_id = _open(game, seats, rng.randrange(2**32))
    mixed = [strategy if seat % 2 == 0 else "random" for seat in range(seats)]
    _play_out(game, table, secret, game_id, mixed, rng)
    assert table.outcome().finished


GAMES_PER_KIND = 12


@pytest.mark.parametrize("kind", [game.kind for game in REGISTRY])
def test_greedy_beats_random_in_most_seeded_games(kind: str) -> None:
    """One greedy seat against random ones, at the smallest table the game allows."""
    game = REGISTRY[kind]
    seats = game.min_seats
    wins = 0
    for number in range(GAMES_PER_KIND):
        rng = random.Random(f"greedy-{kind}-{number}")
        table, secret, game_id = _open(game, seats, number)
        greedy_seat = number % seats
        strategies: list[Strategy] = ["random"] * seats
        strategies[greedy_seat] = "greedy"
        _play_out(game, table, secret, game_id, strategies, rng)
        wins += greedy_seat in table.outcome().winners
    assert wins > GAMES_PER_KIND // 2, f"greedy won {wins} of {GAMES_PER_KIND} {kind} games"


class Verdicts:
    """A game of one decision: command `i` is worth `worths[i][world]` in the `world`-th world
    the bot imagines (None: refused there)."""

    kind = "verdicts"

    def __init__(self, worths: Sequence[Sequence[float | None]]) -> None:
        self.worths = worths
        self.imagined = 0

    def imagine(self, view: Any, seat: int, rng: random.Random) -> int:
        self.imagined += 1
        return (self.imagined - 1) % WORLDS

    def decide(self, state: Any, seat: int, command: Any, chance: Any) -> list[Any]:
        if self.worths[command][state] is None:
            raise RuleViolation("verdicts.refused", "refused in this world")
        return [command]

    def evolve(self, state: Any, event: Any) -> Any:
        return (event, state)

    def evaluate(self, state: Any, seat: int) -> float:
        command, world = state
        worth = self.worths[command][world]
        assert worth is not None
        return worth

    def view(self, state: Any, seat: int | None) -> Any:
        return None

    def legal_commands(self, state: Any, seat: int) -> Sequence[Any]:
        return range(len(self.worths))


def _greedy(worths: Sequence[Sequence[float | None]], seed: int) -> Any:
    game = Verdicts(worths)
    return greedy(game, msgspec.Struct(), game.legal_commands(None, 0), 0, random.Random(seed))


def test_greedy_never_chooses_a_command_hopeless_in_every_world_while_another_is_not() -> None:
    lost, refused = -WIN, None
    worths: list[list[float | None]] = [
        [lost] * WORLDS,  # first in the game's order: every world lost
        [refused] + [1.0] * (WORLDS - 1),  # refused in one world, won a point in the others
        [lost] * (WORLDS - 1) + [-5.0],  # one world of hope
    ]
    assert _greedy(worths, 0) == 1
    assert _greedy([worths[0], worths[2]], 0) == 1
    assert _greedy([worths[0], [refused] * WORLDS], 0) == 0  # all hopeless: the first


@pytest.mark.parametrize("seed", range(10))
def test_greedy_weighs_the_first_commands_however_many_there_are(seed: int) -> None:
    """Coyote lists "Coyote!" first, ahead of up to 14,000 bids: it is never left out."""
    worths: list[list[float | None]] = [[1.0] * WORLDS] + [[-1.0] * WORLDS] * (50 * CANDIDATES)
    assert _greedy(worths, seed) == 0

"""The kernel's contract held from a built position: no seat is ever left without a move.

Random play rarely reaches a rule's corners (an empty pile, an empty hand, a full space, a seat
with nothing left), and a stall met there is the worst a referee can ship. Each game's
`test_corners.py` builds such positions by hand (its `support.py`) and hands them here: from
the position, random legal play goes on to the end of the game, and at every step every seat in
`to_act` has a legal command, every other seat none, and an unfinished game waits for somebody.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.kernel import Table

MAX_COMMANDS = 30_000  # a guard against a game that never ends, far above any seen


def check_who_may_act(table: Table) -> None:
    """The contract at one moment (the table's state at rest, between commands)."""
    to_act = table.to_act()
    assert to_act, "an unfinished game waits for somebody"
    for seat in range(table.seats):
        listed = table.game.legal_commands(table.state, seat)
        if seat in to_act:
            assert len(listed) > 0, f"seat {seat} is to act but has no legal command"
        else:
            assert len(listed) == 0, f"seat {seat} is not to act but has legal commands"


def play_on(table: Table, seed: bytes, game_id: str, rng: random.Random) -> int:
    """Random legal commands from the table's position to the end of the game, the contract
    checked before each; the number of commands played."""
    for played in range(MAX_COMMANDS):
        if table.outcome().finished:
            return played
        check_who_may_act(table)
        seat = rng.choice(sorted(table.to_act()))
        listed = table.game.legal_commands(table.state, seat)
        table.play(seat, listed[rng.randrange(len(listed))], table.chance_for(seed, game_id))
    raise AssertionError(f"{table.game.kind} not finished after {MAX_COMMANDS} commands")


def play_on_several(
    make_table: Callable[[], Table], seed: bytes, game_id: str, games: int = 5, first: int = 0
) -> list[int]:
    """`play_on` from a fresh copy of the same position `games` times, each with its own random
    choices: `make_table()` builds the position each time."""
    return [
        play_on(make_table(), seed, game_id, random.Random(first + game)) for game in range(games)
    ]

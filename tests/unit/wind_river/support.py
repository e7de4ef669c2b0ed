"""Wind River positions for tests: a State built directly, run by a real Table.

A position is the board between two turns; `at_turn_of` then lets the referee begin the turn
(`TurnBegan` with the buffalo moves due, and any step with a single possibility), exactly as
after the previous player's extra activity. Commands then go through `Table.play`, as the API
sends them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.games.wind_river import GAME
from referee.games.wind_river.board import SPACES, Space, board_for, index, starting_buffalo
from referee.games.wind_river.commands import Command
from referee.games.wind_river.data import BUFFALO, TEEPEES_PER_PLAYER
from referee.games.wind_river.events import StartPlayerDrawn
from referee.games.wind_river.flow import next_step
from referee.games.wind_river.options import Options
from referee.games.wind_river.state import State, initial_state
from referee.kernel import NoChance, Played, Seat, Table
from referee.kernel.flow import advance
from tests.unit import positions

SEED = b"wind-river-test-seed"
GAME_ID = "wind-river-test"


def at(lane: int, column: int) -> Space:
    return Space(lane=lane, column=column)


def new_table(seats: int = 4, seed: bytes = SEED, game_id: str = GAME_ID) -> Table:
    table, _ = Table.open(GAME, Options(), seats, game_id=game_id, seed=seed)
    return table


def act(table: Table, seat: Seat, command: Command) -> list[Any]:
    """Play a command as the API does; the events it caused."""
    played = table.play(seat, command, table.chance_for(SEED, GAME_ID))
    return [item.event for item in played]


def state_of(table: Table) -> State:
    assert isinstance(table.state, State)
    return table.state


def position(
    seats: int = 4,
    *,
    teepees: Mapping[Space, Mapping[Seat, int]] | None = None,
    buffalo: Mapping[Space, int] | None = None,
    resources: Sequence[int] | None = None,
    plains: Sequence[int] | None = None,
    start_player: Seat = 0,
) -> State:
    """A board between turns. Buffalo default to the starting layout; teepees not on the board
    or in the plains are in stock; the buffalo not on the board have gone into the plains."""
    layout = (
        starting_buffalo(seats)
        if buffalo is None
        else tuple(buffalo.get(space, 0) for space in SPACES)
    )
    per_space = [[0] * seats for _ in SPACES]
    for space, counts in (teepees or {}).items():
        for seat, count in counts.items():
            per_space[index(space)][seat] = count
    in_plains = tuple(plains or (0,) * seats)
    on_board = [sum(counts[seat] for counts in per_space) for seat in range(seats)]
    out_of_play = BUFFALO - sum(starting_buffalo(seats))
    board = board_for(seats)
    assert all(space in board for space in (teepees or {})), "a teepee off the board"
    return msgspec.structs.replace(
        initial_state(Options(), seats),
        start_player=start_player,
        step="turn-over",
        placed=2 * seats,
        turn=1,
        buffalo=layout,
        teepees=tuple(tuple(counts) for counts in per_space),
        stock=tuple(TEEPEES_PER_PLAYER - on_board[s] - in_plains[s] for s in range(seats)),
        plains=in_plains,
        resources=tuple(resources or (1,) * seats),
        buffalo_gone=BUFFALO - out_of_play - sum(layout),
    )


def at_turn_of(seat: Seat, state: State) -> Table:
    """`state` with the previous player's turn just over: the referee begins `seat`'s turn."""
    return begin_turn(seat, state)[0]


def begin_turn(seat: Seat, state: State) -> tuple[Table, list[Any]]:
    """As `at_turn_of`, with the events of the referee's steps that began the turn."""
    before = (seat - 1) % state.seats
    table = positions.table_from(
        GAME, Options(), state.seats, [StartPlayerDrawn(seat=state.start_player)], SEED
    )
    table.state = msgspec.structs.replace(state, current=before, step="turn-over")
    return table, settle(table)


def settle(table: Table) -> list[Any]:
    """The referee's own steps from the table's state, applied; their events."""
    events = advance(state_of(table), NoChance(), GAME.evolve, next_step)
    table.advance(Played(event, table.chance_cursor) for event in events)
    return events


def legal(table: Table) -> list[Command]:
    (seat,) = table.to_act()
    return list(GAME.legal_commands(state_of(table), seat))

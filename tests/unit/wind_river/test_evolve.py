"""`evolve` folds only what could have happened: a stream from an untrusted bundle that carries
an impossible event is refused (ValueError), never folded into a state no game can reach."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.games.wind_river import GAME
from referee.games.wind_river.events import (
    BuffaloMoved,
    ResourcesEarned,
    StartPlayerDrawn,
    TeepeeInserted,
    TeepeeMoved,
    TeepeePlaced,
    TeepeesSupplied,
    TurnBegan,
    WindRiverGameEnded,
)
from referee.games.wind_river.options import Options
from referee.kernel import Played, Table
from tests.unit import positions

from .support import SEED, at

# A 3-player opening: seat 0 starts; placements (2,1), (3,1), (4,1), then (2,2), (3,2), (4,2).
OPENING: list[Any] = [
    StartPlayerDrawn(seat=0),
    *(TeepeePlaced(seat=s, at=at(2 + s, 1), round=1) for s in range(3)),
    *(TeepeePlaced(seat=s, at=at(2 + s, 2), round=2) for s in range(3)),
    TurnBegan(seat=0, turn=1, buffalo_moves=2),
]


def fold(*events: Any, seats: int = 3) -> Table:
    return positions.table_from(GAME, Options(), seats, [*OPENING, *events], SEED)


def test_the_honest_opening_folds() -> None:
    table = fold()
    assert table.state.moves_due == 2  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "events",
    [
        [StartPlayerDrawn(seat=-1)],
        [StartPlayerDrawn(seat=7)],
    ],
    ids=["negative-seat", "seat-out-of-range"],
)
def test_a_start_player_who_is_not_at_the_table(events: list[Any]) -> None:
    with pytest.raises(ValueError):
        positions.table_from(GAME, Options(), 3, events, SEED)


@pytest.mark.parametrize(
    "event",
    [
        BuffaloMoved(seat=0, from_=at(2, 3), to=at(1, 4)),  # lane 1 is not in play at three
        BuffaloMoved(seat=0, from_=at(2, 3), to=at(2, 2)),  # backwards
        BuffaloMoved(seat=0, from_=at(2, 3), to=at(2, 5)),  # two spaces
        BuffaloMoved(seat=1, from_=at(2, 3), to=at(2, 4)),  # not seat 1's turn
        BuffaloMoved(seat=0, from_=at(2, 3), to=at(2, 4), extra=True),  # not the extra step
        TeepeesSupplied(seat=0, unfed=0, paid=-5),  # moves still owed; a negative payment
        ResourcesEarned(seat=0, counted=0, earned=-1),
        TeepeeInserted(seat=0, at=at(2, 1), paid=0),
        TeepeeMoved(seat=0, from_=at(2, 2), to="open-plains"),  # from column 2
        TurnBegan(seat=1, turn=2, buffalo_moves=0),  # a turn skipped
        WindRiverGameEnded(plains=(7, 0, 0), resources=(1, 1, 1), ranking=((0,), (1, 2))),
    ],
    ids=lambda event: type(event).__name__,
)
def test_an_event_the_rules_could_not_have_made_is_refused(event: Any) -> None:
    with pytest.raises(ValueError):
        fold(event)


def test_more_buffalo_moves_than_owed_are_refused() -> None:
    two = [
        BuffaloMoved(seat=0, from_=at(3, 3), to=at(3, 4)),
        BuffaloMoved(seat=0, from_=at(4, 3), to=at(4, 4)),
    ]
    with pytest.raises(ValueError):  # the third move: the referee supplies first
        fold(*two, BuffaloMoved(seat=0, from_=at(5, 3), to=at(5, 4)))


def test_a_buffalo_moved_once_cannot_move_again_in_the_step() -> None:
    moved_on = [
        BuffaloMoved(seat=0, from_=at(3, 3), to=at(3, 4)),
        BuffaloMoved(seat=0, from_=at(3, 4), to=at(3, 5)),
    ]
    with pytest.raises(ValueError):
        fold(*moved_on)


def test_a_recorded_supply_must_be_the_rules_supply() -> None:
    moves = [
        BuffaloMoved(seat=0, from_=at(3, 3), to=at(3, 4)),
        BuffaloMoved(seat=0, from_=at(4, 3), to=at(4, 4)),
    ]
    fold(*moves, TeepeesSupplied(seat=0, unfed=0, paid=0))  # (2,1), (2,2): two buffalo each
    with pytest.raises(ValueError):
        fold(*moves, TeepeesSupplied(seat=0, unfed=1, paid=1))


def test_replaying_a_played_game_checks_every_event_and_still_folds_it() -> None:
    table, played = Table.open(GAME, Options(), 4, game_id="evolve-replay", seed=SEED)
    seat = table.state.current  # type: ignore[attr-defined]
    for number in range(8):
        command = GAME.legal_commands(table.state, seat)[number]
        played += table.play(seat, command, table.chance_for(SEED, "evolve-replay"))
        seat = next(iter(table.to_act()))
    replayed = Table.replay(GAME, played)
    assert msgspec.json.encode(replayed.state) == msgspec.json.encode(table.state)
    tampered = [*played[:-1], Played(TurnBegan(seat=seat, turn=9, buffalo_moves=0), 0)]
    with pytest.raises(ValueError):
        Table.replay(GAME, tampered)

"""The final score (BM-3) and both tie-breaks, and the end after the last hunt."""

from __future__ import annotations

import random

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import DiscardTile, Pass
from referee.games.big_manitou.data import HUNTS, TileKind
from referee.games.big_manitou.events import BigManitouGameEnded, HuntBegan, HuntEnded
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.scoring import ranking, victory_points

from .support import act, new_table, play_randomly_until, scripted_hunt, seven, state_of


def test_each_tepee_with_a_buffalo_is_a_point() -> None:
    assert victory_points([("tepee-3", "buffalo-1"), ("tepee-1", "tepee-2")], None, None) == (1, 0)


def test_each_cylinder_is_a_point() -> None:
    assert victory_points([("totem",), ("horse",), ()], 0, 1) == (1, 1, 0)
    assert victory_points([("totem", "horse"), ()], 0, 0) == (2, 0)


@pytest.mark.parametrize(
    ("hoards", "points"),
    [
        ([("tomahawk",), ("tomahawk", "tomahawk"), ()], (0, 1, 0)),
        ([("tomahawk",), ("tomahawk",), ()], (1, 1, 0)),  # every player tied for most
        ([(), (), ()], (0, 0, 0)),  # nobody has one: nobody scores it
    ],
)
def test_the_most_tomahawks_is_a_point_for_each_of_them(
    hoards: list[tuple[TileKind, ...]], points: tuple[int, ...]
) -> None:
    assert victory_points(hoards, None, None) == points


def test_ties_go_to_the_most_tepees_then_the_most_tiles_else_they_are_shared() -> None:
    hoards: list[tuple[TileKind, ...]] = [
        ("tepee-3", "buffalo-1"),  # 1 point, 3 Tepees, 2 tiles
        ("tepee-1", "buffalo-3"),  # 1 point, 1 Tepee, 2 tiles
        ("tepee-1", "buffalo-2", "horse"),  # 1 point, 1 Tepee, 3 tiles
        ("tepee-1", "buffalo-1", "totem"),  # 1 point, 1 Tepee, 3 tiles
        ("tepee-2", "tepee-1", "buffalo-3", "buffalo-2"),  # 3 points
    ]
    points = victory_points(hoards, None, None)
    assert points == (1, 1, 1, 1, 3)
    assert ranking(points, hoards) == ((4,), (0,), (2, 3), (1,))


def test_the_game_ends_after_the_last_hunt_with_its_score() -> None:
    holdings: dict[int, tuple[TileKind, ...]] = {
        0: ("tepee-3", "tepee-3", "buffalo-1", "tomahawk"),
        1: ("tepee-2", "buffalo-2", "totem", "horse"),
        2: ("tepee-1", "buffalo-1"),
    }
    table, _ = scripted_hunt(
        3,
        {0: seven(), 1: seven(), 2: seven()},
        hunt=3,  # the last of three players
        holdings=holdings,
        grounds=[(), (), ()],
        totem=1,
        horse=1,
    )
    act(table, 1, Pass())  # no eighth card
    act(table, 1, Pass())  # no Horse move
    assert table.to_act() == {0, 1, 2}  # everyone used 1+2+...+7 = 28 strength: all robbed
    act(table, 0, DiscardTile(tile="buffalo-1"))
    act(table, 1, DiscardTile(tile="tepee-2"))
    events = act(table, 2, DiscardTile(tile="tepee-1"))
    # seat 0: 6 Tepees and no Buffalo left, but the most Tomahawks: 1. seat 1: the two
    # cylinders: 2. seat 2: a Buffalo alone: 0.
    assert events[-1] == BigManitouGameEnded(scores=(1, 2, 0), ranking=((1,), (0,), (2,)))
    outcome = table.outcome()
    assert (outcome.finished, outcome.scores, outcome.winners) == (True, (1, 2, 0), (1,))
    assert outcome.ranking == ((1,), (0,), (2,))
    assert not table.to_act()
    assert GAME.view(state_of(table), None).ranking == ((1,), (0,), (2,))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_number_of_hunts_depends_on_the_number_of_players(seats: int) -> None:
    table = new_table(seats, Options(random_cards=True))
    assert state_of(table).hunt == 1
    events = play_randomly_until(table, lambda s: s.finished, random.Random(seats))
    assert [e.hunt for e in events if isinstance(e, HuntBegan)] == list(range(2, HUNTS[seats] + 1))
    assert [e.hunt for e in events if isinstance(e, HuntEnded)] == list(range(1, HUNTS[seats] + 1))
    # The player on the dealer's left deals the next hunt.
    first = state_of(new_table(seats, Options(random_cards=True))).dealer
    dealers = [e.dealer for e in events if isinstance(e, HuntBegan)]
    assert dealers == [(first + hunt) % seats for hunt in range(1, HUNTS[seats])]
    assert isinstance(events[-1], BigManitouGameEnded)
    assert table.outcome().scores == events[-1].scores

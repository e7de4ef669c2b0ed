"""The evaluation of the hunting grounds (BM-6): the Hero's pick, the two best Hunter totals."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import TakeTiles
from referee.games.big_manitou.data import HUNTER_VALUES, HUNTERS, CardKind, TileKind
from referee.games.big_manitou.events import (
    EvaluationBegan,
    GroundClosed,
    GroundEvaluated,
    Pick,
    TilesTaken,
)
from referee.kernel import RuleViolation, Table

from .support import act, scripted_hunt, seven, state_of

MIXED: tuple[TileKind, ...] = ("totem", "horse", "tepee-3", "buffalo-2")


def evaluated(events: list[object], ground: int) -> GroundEvaluated:
    return next(e for e in events if isinstance(e, GroundEvaluated) and e.ground == ground)


def test_grounds_are_evaluated_in_order_starting_left_of_the_first_player() -> None:
    _, events = scripted_hunt(2, {0: seven(), 1: seven()})
    order = [e.ground for e in events if isinstance(e, GroundEvaluated | GroundClosed)]
    assert order == [0, 0, 1, 1, 2, 2]


def test_the_player_with_a_face_up_hero_picks_one_tile_first() -> None:
    table, events = scripted_hunt(
        2, {0: seven(("hunter-10", 0)), 1: seven(("chief", 0))}, grounds=[MIXED, (), ()]
    )
    ground = evaluated(events, 0)
    assert ground.hero == 1
    assert ground.picks == (
        Pick(seat=1, count=1, by="hero"),
        Pick(seat=0, count=2, by="best-hunters"),
    )
    assert table.to_act() == {1}
    assert len(GAME.legal_commands(state_of(table), 1)) == 4
    taken = act(table, 1, TakeTiles(tiles=("totem",)))
    assert taken[0] == TilesTaken(seat=1, ground=0, tiles=("totem",))
    assert table.to_act() == {0}
    act(table, 0, TakeTiles(tiles=("horse", "buffalo-2")))
    state = state_of(table)
    assert "tepee-3" in state.removed  # nobody is left to take the fourth tile


def three_hunters(
    totals: tuple[int, int, int], ground_tiles: tuple[TileKind, ...]
) -> tuple[Table, list[Any]]:
    """Seat s plays Hunter cards adding to totals[s] in ground 0, everything else in ground 2."""
    moves = {}
    for seat, total in enumerate(totals):
        cards: list[tuple[CardKind, int]] = []
        for hunter in reversed(HUNTERS):
            if HUNTER_VALUES[hunter] <= total:
                cards.append((hunter, 0))
                total -= HUNTER_VALUES[hunter]
        moves[seat] = seven(*cards)
    return scripted_hunt(3, moves, grounds=[ground_tiles, (), ()])


def test_best_hunters_take_two_and_the_next_one_the_rest_leave_the_game() -> None:
    table, events = three_hunters((10, 7, 3), MIXED)
    assert evaluated(events, 0).hunter_totals == (10, 7, 3)
    assert evaluated(events, 0).picks == (
        Pick(seat=0, count=2, by="best-hunters"),
        Pick(seat=1, count=1, by="next-hunters"),
    )
    act(table, 0, TakeTiles(tiles=("totem", "horse")))
    act(table, 1, TakeTiles(tiles=("buffalo-2",)))
    state = state_of(table)
    assert state.players[2].tiles == ()
    assert "tepee-3" in state.removed


@pytest.mark.parametrize(
    ("totals", "picks"),
    [
        ((8, 8, 5), ((2, 2),)),  # the tied pair takes nothing; the next takes two
        ((9, 5, 5), ((0, 2),)),  # a tie for second: nobody takes the one tile
        ((6, 6, 6), ()),
        ((10, 8, 0), ((0, 2), (1, 1))),
    ],
)
def test_tied_totals_take_nothing_and_the_next_total_takes_their_place(
    totals: tuple[int, int, int], picks: tuple[tuple[int, int], ...]
) -> None:
    _, events = three_hunters(totals, MIXED)
    got = tuple((p.seat, p.count) for p in evaluated(events, 0).picks)
    assert got == picks


def test_a_ground_nobody_played_into_loses_its_tiles() -> None:
    table, events = scripted_hunt(2, {0: seven(), 1: seven()}, grounds=[MIXED, (), ()])
    assert evaluated(events, 0).picks == ()
    assert GroundClosed(ground=0, removed=MIXED) in events
    state = state_of(table)
    assert set(MIXED) <= set(state.removed)


def test_a_three_tile_ground_gives_the_hero_one_and_the_best_hunters_two() -> None:
    _, events = scripted_hunt(
        2,
        {0: seven(("chief", 1), ("hunter-2", 1)), 1: seven(("hunter-9", 1))},
        grounds=[(), ("tepee-1", "tepee-2", "totem"), ()],
    )
    assert evaluated(events, 1).picks == (
        Pick(seat=0, count=1, by="hero"),
        Pick(seat=1, count=2, by="best-hunters"),
    )


def test_without_a_hero_a_three_tile_ground_goes_two_and_one() -> None:
    _, events = three_hunters((10, 7, 3), ("tepee-1", "tepee-2", "totem"))
    assert [(p.seat, p.count) for p in evaluated(events, 0).picks] == [(0, 2), (1, 1)]


@pytest.mark.parametrize(
    ("tiles", "rule"),
    [
        (("totem",), "tile-count"),
        (("totem", "horse", "tepee-3"), "tile-count"),
        (("totem", "totem"), "tile-not-there"),
        (("tomahawk", "horse"), "tile-not-there"),
    ],
)
def test_a_wrong_pick_is_refused(tiles: tuple[TileKind, ...], rule: str) -> None:
    table, _ = three_hunters((10, 7, 3), MIXED)
    before = table.state
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, TakeTiles(tiles=tiles))
    assert refusal.value.rule_id == f"big-manitou.{rule}"
    assert table.state == before


def test_a_pick_without_a_choice_is_made_by_the_referee() -> None:
    # BM-R3: three one-Tepee tiles, two to take: every choice is the same.
    table, events = three_hunters((10, 7, 3), ("tepee-1", "tepee-1", "tepee-1", "totem"))
    assert table.to_act() == {0}  # two of (tepee-1, tepee-1, tepee-1, totem): a real choice
    events = act(table, 0, TakeTiles(tiles=("tepee-1", "tepee-1")))
    assert TilesTaken(seat=1, ground=0, tiles=("tepee-1",)) not in events  # seat 1 still chooses
    assert table.to_act() == {1}
    events = act(table, 1, TakeTiles(tiles=("totem",)))
    assert any(isinstance(e, GroundClosed) and e.removed == ("tepee-1",) for e in events)


def test_the_first_hunt_counts_no_tomahawks() -> None:
    _, events = scripted_hunt(2, {0: seven(), 1: seven()})
    assert EvaluationBegan(tomahawk_bonus=(0, 0)) in events

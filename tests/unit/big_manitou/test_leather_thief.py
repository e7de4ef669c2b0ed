"""The Leather Thief (BM-5): who is robbed, of what, and when."""

from __future__ import annotations

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import DiscardTile, Pass, TakeTiles
from referee.games.big_manitou.data import CardKind
from referee.games.big_manitou.events import (
    CylinderPassed,
    EvaluationBegan,
    GroundEvaluated,
    LeatherThiefStruck,
    TileDiscarded,
)
from referee.kernel import RuleViolation, Table

from .support import act, scripted_hunt, seven, state_of

HEROES_ONLY: list[tuple[CardKind, int]] = [
    ("chief", 0),
    ("squaw", 1),
    ("scout", 2),
    ("chief", 1),
    ("squaw", 2),
    ("rain-maker", 0),
    ("medicine-man", 2),
]


def discards(table: Table) -> set[str]:
    return {c.tile for c in GAME.legal_commands(state_of(table), 0) if isinstance(c, DiscardTile)}


def struck(events: list[object]) -> LeatherThiefStruck:
    return next(e for e in events if isinstance(e, LeatherThiefStruck))


def test_the_most_strength_used_is_robbed_before_the_evaluation_from_the_second_hunt() -> None:
    table, events = scripted_hunt(
        2,
        {0: seven(("hunter-10", 0)), 1: seven()},
        hunt=2,
        holdings={0: ("tepee-2", "buffalo-1", "totem"), 1: ("tepee-1",)},
        totem=0,
    )
    assert table.to_act() == {0}
    events = act(table, 0, Pass())  # the Totem holder's eighth card comes before the thief
    assert struck(events) == LeatherThiefStruck(strengths=(31, 28), victims=(0,))
    assert not any(isinstance(e, EvaluationBegan) for e in events)
    assert table.to_act() == {0}
    assert GAME.view(state_of(table), 1).phase == "leather-thief"
    assert discards(table) == {"tepee-2", "buffalo-1"}
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, DiscardTile(tile="totem"))
    assert refusal.value.rule_id == "big-manitou.discard-herd-first"
    events = act(table, 0, DiscardTile(tile="buffalo-1"))
    assert events[0] == TileDiscarded(seat=0, tile="buffalo-1")
    assert isinstance(events[1], EvaluationBegan)
    state = state_of(table)
    assert state.players[0].tiles[:2] == ("tepee-2", "totem")  # then what the evaluation gave
    assert "buffalo-1" in state.removed


def test_tied_strengths_are_all_robbed_at_once() -> None:
    table, events = scripted_hunt(
        2,
        {0: seven(), 1: seven()},
        hunt=2,
        holdings={0: ("tepee-2", "buffalo-1"), 1: ("tepee-1", "buffalo-3")},
    )
    assert struck(events).victims == (0, 1)
    assert table.to_act() == {0, 1}
    act(table, 1, DiscardTile(tile="buffalo-3"))
    assert table.to_act() == {0}
    act(table, 0, DiscardTile(tile="tepee-2"))
    state = state_of(table)
    assert [p.tiles for p in state.players[:2]] == [("buffalo-1",), ("tepee-1",)]


def test_without_tepee_or_buffalo_any_tile_goes_and_a_lost_cylinder_moves_on() -> None:
    table, _ = scripted_hunt(
        3,
        {0: seven(("hunter-10", 0)), 1: seven(), 2: seven()},
        hunt=2,
        holdings={0: ("totem", "horse"), 1: ("totem",), 2: ()},
        totem=0,
        horse=0,
    )
    act(table, 0, Pass())  # no eighth card
    act(table, 0, Pass())  # no Horse move
    assert table.to_act() == {0}
    assert discards(table) == {"totem", "horse"}
    events = act(table, 0, DiscardTile(tile="totem"))
    # BM-R6: seat 1 now has more Totems (1 against 0), so the cylinder goes to seat 1.
    assert events[:2] == [
        TileDiscarded(seat=0, tile="totem"),
        CylinderPassed(cylinder="totem", seat=1),
    ]


def test_a_victim_without_tiles_pays_nothing() -> None:
    _, events = scripted_hunt(
        2, {0: seven(("hunter-10", 0)), 1: seven()}, hunt=3, holdings={1: ("tepee-3",)}
    )
    assert struck(events).victims == (0,)
    assert not any(isinstance(e, TileDiscarded) for e in events)
    assert any(isinstance(e, EvaluationBegan) for e in events)


def test_a_single_kind_to_give_is_given_by_the_referee() -> None:
    _, events = scripted_hunt(
        2,
        {0: seven(("hunter-10", 0)), 1: seven()},
        hunt=2,
        holdings={0: ("tepee-1", "tepee-1", "horse")},
    )
    assert TileDiscarded(seat=0, tile="tepee-1") in events


def test_in_the_first_hunt_the_thief_takes_from_the_tiles_won_after_the_evaluation() -> None:
    table, events = scripted_hunt(
        2,
        {0: seven(("hunter-10", 0)), 1: seven(("hunter-9", 0))},
        grounds=[("totem", "tepee-2", "buffalo-3", "horse"), (), ()],
    )
    assert struck(events).victims == (0,)
    ground = next(e for e in events if isinstance(e, GroundEvaluated))
    assert [(p.seat, p.count) for p in ground.picks] == [(0, 2), (1, 1)]
    act(table, 0, TakeTiles(tiles=("totem", "tepee-2")))
    act(table, 1, TakeTiles(tiles=("buffalo-3",)))
    # After the three grounds, the thief takes the Tepee (a Tepee or Buffalo first).
    state = state_of(table)
    assert state.players[0].tiles == ("totem",)
    assert state.hunt == 2


def test_in_the_first_hunt_a_victim_who_won_nothing_pays_nothing() -> None:
    table, events = scripted_hunt(
        2, {0: seven(("hunter-10", 0)), 1: seven(("chief", 0))}, grounds=[("totem",), (), ()]
    )
    assert struck(events).victims == (0,)
    state = state_of(table)
    assert state.hunt == 2 and state.players[1].tiles == ("totem",)
    assert not any(isinstance(e, TileDiscarded) for e in events)


def test_nobody_is_robbed_when_nobody_played_a_hunter() -> None:
    _, events = scripted_hunt(
        2, {0: HEROES_ONLY, 1: HEROES_ONLY}, hunt=2, holdings={0: ("tepee-1",)}
    )
    assert struck(events) == LeatherThiefStruck(strengths=(0, 0), victims=())

"""The Totem and the Horse: who holds the cylinders, the eighth card and the Hunter's move."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.booty import holder_after_gain, holder_after_loss
from referee.games.big_manitou.commands import Command, MoveHunter, Pass, PlayCard, TakeTiles
from referee.games.big_manitou.data import TileKind
from referee.games.big_manitou.events import (
    CardPlayed,
    CylinderPassed,
    GroundEvaluated,
    HunterMoved,
    LeatherThiefStruck,
    Passed,
)
from referee.games.big_manitou.stages import Stage, stage
from referee.kernel import NotYourTurn, RuleViolation, Table

from .support import act, scripted_hunt, seven, state_of


def three_player_hunt_two(
    totem: int | None = None, horse: int | None = None
) -> tuple[Table, list[Any]]:
    """Hunt 2 of three players (seat 2 deals): seat 0 keeps 2 cards, seat 1 one, seat 2 none.
    The cylinders' holders hold one tile of the kind each."""
    holdings: dict[int, list[TileKind]] = {}
    cylinders: tuple[tuple[TileKind, int | None], ...] = (("totem", totem), ("horse", horse))
    for kind, holder in cylinders:
        if holder is not None:
            holdings.setdefault(holder, []).append(kind)
    return scripted_hunt(
        3,
        {
            0: seven(("scout", 0), ("hunter-10", 1)),
            1: seven(("chief", 1)),
            2: seven(("hunter-9", 0)),
        },
        hunt=2,
        holdings=holdings,
        totem=totem,
        horse=horse,
    )


def test_the_totem_holder_may_place_an_eighth_card_after_everyone_else() -> None:
    table, events = three_player_hunt_two(totem=1)
    assert not any(isinstance(e, LeatherThiefStruck) for e in events)
    assert table.to_act() == {1}
    assert GAME.view(state_of(table), 0).phase == "eighth-card"
    state = state_of(table)
    [card] = state.players[1].hand
    assert set(GAME.legal_commands(state, 1)) == {
        Pass(),
        *(PlayCard(card=card, ground=g) for g in range(3)),
    }
    events = act(table, 1, PlayCard(card=card, ground=0))
    assert events[0] == CardPlayed(seat=1, card=card, ground=0, eighth_card=True)
    assert isinstance(events[1], LeatherThiefStruck)
    assert card == "hunter-7"
    assert events[1].strengths[1] == (0 + 1 + 2 + 3 + 4 + 5 + 6) + 7  # the Chief counts 0


def test_the_eighth_card_meets_a_trial_of_strength_like_any_other() -> None:
    table, _ = scripted_hunt(
        3,
        {
            0: seven(("scout", 0)),
            1: [*seven(), ("chief", 0)],
            2: seven(),
        },
        hunt=2,
        holdings={1: ("totem",)},
        totem=1,
    )
    state = state_of(table)
    assert state.players[1].hand == ("chief",)
    [played, *_] = act(table, 1, PlayCard(card="chief", ground=0))
    assert played == CardPlayed(seat=1, card="chief", ground=0, turned_down=(0,), eighth_card=True)


def test_the_totem_holder_may_pass() -> None:
    table, _ = three_player_hunt_two(totem=0)
    events = act(table, 0, Pass())
    assert events[0] == Passed(seat=0, cylinder="totem")
    assert stage(state_of(table)) is not Stage.EIGHTH_CARD


def test_the_dealer_holding_the_totem_has_no_card_left_for_it() -> None:
    _, events = three_player_hunt_two(totem=2)
    assert any(isinstance(e, LeatherThiefStruck) for e in events)


def test_nobody_holds_a_cylinder_in_the_first_hunt() -> None:
    _, events = scripted_hunt(2, {0: seven(), 1: seven()})
    assert any(isinstance(e, LeatherThiefStruck) for e in events)


def test_the_horse_holder_moves_a_hunter_after_the_eighth_card() -> None:
    table, _ = three_player_hunt_two(totem=0, horse=0)
    act(table, 0, Pass())
    assert table.to_act() == {0}
    assert GAME.view(state_of(table), 1).phase == "horse-move"
    events = act(table, 0, MoveHunter(card="hunter-10", ground=0))
    assert events[0] == HunterMoved(seat=0, card="hunter-10", from_ground=1, to_ground=0)
    totals = {e.ground: e.hunter_totals for e in events if isinstance(e, GroundEvaluated)}
    assert totals[0] == (10, None, 9)  # the Hunter counts where it now lies
    assert totals[1] == (None, None, None)  # only the Chief is left there


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        (MoveHunter(card="hunter-10", ground=1), "same-ground"),
        (MoveHunter(card="hunter-9", ground=1), "hunter-not-placed"),  # seat 2's, not seat 0's
        (MoveHunter(card="hunter-10", ground=5), "no-such-ground"),
        (PlayCard(card="hunter-8", ground=0), "not-now"),
    ],
)
def test_a_wrong_horse_move_is_refused(command: Command, rule: str) -> None:
    table, _ = three_player_hunt_two(horse=0)
    before = table.state
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, command)
    assert refusal.value.rule_id == f"big-manitou.{rule}"
    assert table.state == before


def test_a_hero_cannot_ride_the_horse() -> None:
    table, _ = three_player_hunt_two(horse=0)
    hero_moves = [c for c in GAME.legal_commands(state_of(table), 0) if isinstance(c, MoveHunter)]
    assert {c.card for c in hero_moves} == {"hunter-10", "hunter-1", "hunter-2", "hunter-3",
                                             "hunter-4", "hunter-5"}  # fmt: skip
    assert Pass() in GAME.legal_commands(state_of(table), 0)
    with pytest.raises(NotYourTurn):
        act(table, 1, Pass())


def test_the_horse_holder_may_pass() -> None:
    table, _ = three_player_hunt_two(horse=1)
    events = act(table, 1, Pass())
    assert events[0] == Passed(seat=1, cylinder="horse")
    assert isinstance(events[1], LeatherThiefStruck)


def test_the_first_totem_taken_brings_the_cylinder_and_a_draw_level_passes_it() -> None:
    table, events = scripted_hunt(
        3,
        {0: seven(("hunter-10", 0)), 1: seven(("hunter-9", 1)), 2: seven()},
        grounds=[
            ("totem", "totem", "tepee-1", "horse"),
            ("totem", "horse", "tepee-2", "buffalo-3"),
            (),
        ],
    )
    events = act(table, 0, TakeTiles(tiles=("totem", "tepee-1")))
    assert CylinderPassed(cylinder="totem", seat=0) in events
    events = act(table, 1, TakeTiles(tiles=("totem", "horse")))
    assert CylinderPassed(cylinder="totem", seat=1) in events  # level with seat 0: passes
    assert CylinderPassed(cylinder="horse", seat=1) in events
    state = state_of(table)
    assert (state.totem_holder, state.horse_holder) == (1, 1)


def test_cylinder_holders_by_counts() -> None:
    assert holder_after_gain(None, [0, 1, 0], 1) == 1
    assert holder_after_gain(1, [1, 1, 0], 0) == 0  # draws level: takes it over
    assert holder_after_gain(1, [1, 2, 0], 0) == 1
    assert holder_after_gain(1, [0, 2, 0], 1) == 1
    # BM-R6, after a tile is lost
    assert holder_after_loss(1, [1, 1, 0]) == 1  # still level with the best: keeps it
    assert holder_after_loss(1, [2, 1, 2]) == 2  # the first with the most, clockwise
    assert holder_after_loss(1, [0, 0, 0]) is None  # back to the side of the table

"""Step 5.3, the extra activities: exactly one of moving a teepee (5.3.1), earning resources
(5.3.2, WR-5, WR-9), inserting a teepee (5.3.3) and moving an extra buffalo (5.3.4)."""

from __future__ import annotations

import msgspec
import pytest

from referee.games.wind_river.commands import (
    Command,
    EarnResources,
    InsertTeepee,
    MoveBuffalo,
    MoveExtraBuffalo,
    MoveTeepee,
)
from referee.games.wind_river.events import (
    BuffaloMoved,
    ResourcesEarned,
    TeepeeInserted,
    TeepeeMoved,
    TurnBegan,
)
from referee.games.wind_river.stages import Stage, stage
from referee.kernel import RuleViolation, Table

from .support import act, at, at_turn_of, legal, position, state_of

HERD = {at(6, 1): 4}
GRAZE = MoveBuffalo(from_=at(6, 1), to=at(6, 2))


def graze(table: Table) -> None:
    """Seat 0's buffalo moves of step 5.1, each a buffalo of (6, 1), far from every teepee."""
    for number in range(state_of(table).moves_due):
        act(table, 0, MoveBuffalo(from_=at(6, 1), to=(at(6, 2), at(5, 1))[number % 2]))


def extra_activity(teepees: dict, buffalo: dict | None = None, resources=(1, 1, 1, 1)) -> Table:  # type: ignore[type-arg,no-untyped-def]
    """Seat 0's turn at its extra activity, once its buffalo moves are made."""
    table = at_turn_of(
        0, position(teepees=teepees, buffalo={**HERD, **(buffalo or {})}, resources=resources)
    )
    graze(table)
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY, state_of(table)
    return table


def refused(table: Table, command: Command, rule: str) -> None:
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, command)
    assert refusal.value.rule_id == f"wind-river.{rule}"
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY


FED = {at(3, 4): 1}  # one buffalo for seat 0's teepee on (3, 4)


def test_exactly_one_extra_activity_then_the_next_player_begins() -> None:
    table = extra_activity({at(3, 4): {0: 1}, at(5, 5): {1: 1}}, FED)
    events = act(table, 0, EarnResources())
    assert events[0] == ResourcesEarned(seat=0, counted=0, earned=0)
    assert TurnBegan(seat=1, turn=3, buffalo_moves=1) in events
    assert table.to_act() == {1}


def test_the_extra_activities_offered() -> None:
    table = extra_activity({at(3, 4): {0: 1}}, FED, resources=(3, 1, 1, 1))
    kinds = {type(command) for command in legal(table)}
    assert kinds == {MoveTeepee, EarnResources, InsertTeepee, MoveExtraBuffalo}


# -- 5.3.1 moving a teepee -------------------------------------------------------------------------


def test_a_teepee_moves_to_any_neighbouring_space_backwards_too() -> None:
    table = extra_activity({at(3, 4): {0: 1}}, FED)
    targets = {c.to for c in legal(table) if isinstance(c, MoveTeepee)}
    assert targets == {at(3, 5), at(2, 5), at(2, 4), at(3, 3), at(4, 4), at(4, 5)}
    events = act(table, 0, MoveTeepee(from_=at(3, 4), to=at(3, 3)))
    assert events[0] == TeepeeMoved(seat=0, from_=at(3, 4), to=at(3, 3))
    assert state_of(table).resources[0] == 1  # an empty space costs nothing


def test_refused_teepee_moves() -> None:
    table = extra_activity({at(3, 4): {0: 1}, at(4, 4): {1: 1}}, FED, resources=(0, 1, 1, 1))
    refused(table, MoveTeepee(from_=at(3, 4), to=at(3, 6)), "not-adjacent")
    refused(table, MoveTeepee(from_=at(3, 4), to="open-plains"), "not-adjacent")
    refused(table, MoveTeepee(from_=at(4, 4), to=at(4, 5)), "no-teepee-there")
    refused(table, MoveTeepee(from_=at(3, 4), to=at(4, 4)), "entry-unpaid")  # no resource left
    act(table, 0, MoveTeepee(from_=at(3, 4), to=at(4, 5)))  # empty: no resource needed


def test_no_payment_into_a_space_with_only_your_own_teepees() -> None:
    table = extra_activity({at(3, 4): {0: 1}, at(3, 5): {0: 2}}, FED, resources=(0, 1, 1, 1))
    events = act(table, 0, MoveTeepee(from_=at(3, 4), to=at(3, 5)))
    assert events[0] == TeepeeMoved(seat=0, from_=at(3, 4), to=at(3, 5), paid_by=())


def test_the_mover_pays_even_with_own_teepees_already_there() -> None:
    teepees = {at(3, 4): {0: 1}, at(3, 5): {0: 1, 3: 1}}
    table = extra_activity(teepees, {**FED, at(3, 5): 2}, resources=(2, 1, 1, 1))
    events = act(table, 0, MoveTeepee(from_=at(3, 4), to=at(3, 5)))
    assert events[0].paid_by == (0, 3)
    assert state_of(table).resources == (1, 1, 1, 0)


def test_a_teepee_enters_the_open_plains_from_the_last_column_for_free() -> None:
    teepees = {at(3, 8): {0: 1}, at(4, 8): {1: 1}}
    table = extra_activity(teepees, {at(3, 8): 1}, resources=(0, 1, 1, 1))
    events = act(table, 0, MoveTeepee(from_=at(3, 8), to="open-plains"))
    assert events[0] == TeepeeMoved(seat=0, from_=at(3, 8), to="open-plains")
    state = state_of(table)
    assert state.plains[0] == 1 and state.stock[0] == 6 and state.on_board(0) == 0


# -- 5.3.2 earning resources -----------------------------------------------------------------------


def test_only_spaces_where_only_you_have_teepees_earn() -> None:
    teepees = {at(3, 4): {0: 1}, at(5, 5): {0: 1, 2: 1}}
    table = at_turn_of(0, position(teepees=teepees, buffalo={**HERD, at(3, 4): 4, at(5, 5): 5}))
    graze(table)
    events = act(table, 0, EarnResources())
    assert events[0] == ResourcesEarned(seat=0, counted=3, earned=3)  # 4 - 1 on (3, 4) only


def test_earnings_are_one_total_clamped_at_zero_as_a_whole() -> None:
    # WR-9: (3, 4): 3 buffalo - 1 teepee = 2; (2, 6): 0 buffalo - 3 teepees = -3: total -1 -> 0.
    teepees = {at(3, 4): {0: 1}, at(2, 6): {0: 3}}
    table = at_turn_of(
        0, position(teepees=teepees, buffalo={at(3, 4): 3, at(6, 1): 4}, resources=(9, 1, 1, 1))
    )
    graze(table)
    assert state_of(table).resources[0] == 6  # three unfed teepees paid for
    events = act(table, 0, EarnResources())
    assert events[0] == ResourcesEarned(seat=0, counted=0, earned=0)


# -- 5.3.3 inserting a teepee ----------------------------------------------------------------------


def test_a_new_teepee_for_three_resources_where_only_you_have_teepees() -> None:
    table = extra_activity({at(3, 4): {0: 1}}, FED, resources=(3, 1, 1, 1))
    events = act(table, 0, InsertTeepee(at=at(3, 4)))
    assert events[0] == TeepeeInserted(seat=0, at=at(3, 4), paid=3)
    state = state_of(table)
    assert state.resources[0] == 0 and state.stock[0] == 5 and state.teepees_at(at(3, 4))[0] == 2


def test_refused_insertions() -> None:
    teepees = {at(3, 4): {0: 1}, at(4, 4): {0: 1, 1: 1}, at(5, 4): {2: 1}}
    table = extra_activity(teepees, {at(3, 4): 1, at(4, 4): 2}, resources=(3, 1, 1, 1))
    refused(table, InsertTeepee(at=at(4, 4)), "insert-not-own-space")  # another player too
    refused(table, InsertTeepee(at=at(5, 4)), "insert-not-own-space")  # none of yours
    refused(table, InsertTeepee(at=at(2, 2)), "insert-not-own-space")  # empty
    poor = extra_activity({at(3, 4): {0: 1}}, FED, resources=(2, 1, 1, 1))
    refused(poor, InsertTeepee(at=at(3, 4)), "insert-unpaid")


def test_no_insertion_without_a_teepee_in_stock() -> None:
    table = extra_activity({at(3, 4): {0: 1}}, FED, resources=(5, 1, 1, 1))
    table.state = msgspec.structs.replace(state_of(table), stock=(0, 7, 7, 7), plains=(6, 0, 0, 0))
    refused(table, InsertTeepee(at=at(3, 4)), "no-teepee-in-stock")


# -- 5.3.4 moving an extra buffalo -----------------------------------------------------------------


def test_an_extra_buffalo_may_be_one_already_moved() -> None:
    table = at_turn_of(0, position(teepees={at(3, 4): {0: 1}}, buffalo={at(3, 4): 1, at(6, 1): 1}))
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    events = act(table, 0, MoveExtraBuffalo(from_=at(6, 2), to=at(6, 3)))
    assert events[0] == BuffaloMoved(seat=0, from_=at(6, 2), to=at(6, 3), extra=True)


def test_an_extra_buffalo_follows_the_rules_of_step_5_1() -> None:
    table = extra_activity({at(3, 4): {0: 1}}, {at(3, 4): 1, at(3, 5): 5, at(2, 8): 1})
    refused(table, MoveExtraBuffalo(from_=at(3, 4), to=at(3, 5)), "space-full")
    refused(table, MoveExtraBuffalo(from_=at(3, 4), to=at(3, 3)), "not-ahead")
    refused(table, MoveExtraBuffalo(from_=at(4, 4), to=at(4, 5)), "no-buffalo-there")
    gone = state_of(table).buffalo_gone
    act(table, 0, MoveExtraBuffalo(from_=at(2, 8), to="open-plains"))
    assert state_of(table).buffalo_gone == gone + 1


def test_an_extra_buffalo_comes_after_the_supply() -> None:
    # 5.3.4: the teepee on (3, 5) was paid for (or not) before the extra buffalo arrives.
    table = at_turn_of(
        0,
        position(
            teepees={at(3, 5): {0: 1}}, buffalo={at(3, 4): 1, at(6, 1): 1}, resources=(2, 1, 1, 1)
        ),
    )
    events = act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    assert state_of(table).resources[0] == 1  # paid: no buffalo on (3, 5) during the supply
    act(table, 0, MoveExtraBuffalo(from_=at(3, 4), to=at(3, 5)))
    assert state_of(table).resources[0] == 1 and events


def test_the_mover_who_cannot_pay_may_not_enter_even_where_they_have_a_teepee() -> None:
    # WR-R4: the fee is due whenever another player's teepee is there.
    teepees = {at(3, 4): {0: 1}, at(3, 5): {0: 1, 2: 1}}
    table = extra_activity(teepees, {**FED, at(3, 5): 2}, resources=(0, 1, 1, 1))
    refused(table, MoveTeepee(from_=at(3, 4), to=at(3, 5)), "entry-unpaid")


def test_when_only_earning_is_left_the_referee_earns_for_the_player() -> None:
    # WR-R2: no teepee on the board and no buffalo to move: earning (0) is the only activity.
    state = position(teepees={at(3, 4): {1: 1}}, buffalo={at(3, 4): 1, at(6, 1): 1})
    table = at_turn_of(0, state)
    assert table.to_act() == {0}  # seat 0 may still move the extra buffalo: a real choice
    table = at_turn_of(0, position(teepees={at(3, 4): {1: 1}}, buffalo={}))
    # Seat 0 has nothing to decide: its turn went by itself, and seat 1's has begun.
    assert table.to_act() == {1} and state_of(table).turn == 3

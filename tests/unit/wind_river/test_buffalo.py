"""Step 5.1, moving buffalo (WR-3, WR-7, WR-9): as many moves as teepees on the board, one
space ahead each, at most five on a space, each buffalo once, mandatory, into the open plains
only from the last column."""

from __future__ import annotations

import pytest

from referee.games.wind_river.commands import (
    Command,
    EarnResources,
    MoveBuffalo,
    MoveExtraBuffalo,
    SendBackTeepees,
)
from referee.games.wind_river.events import BuffaloMoved, TurnBegan
from referee.games.wind_river.stages import Stage, stage
from referee.kernel import RuleViolation

from .support import act, at, at_turn_of, begin_turn, legal, position, state_of

# Seat 0's teepees, out of the way of the buffalo in these tests, well fed where they are.
CAMP = {at(6, 1): {0: 1}, at(6, 2): {0: 1}, at(6, 3): {0: 1}}
FEED = {at(6, 1): 1, at(6, 2): 1, at(6, 3): 1}


def refused(table: object, command: Command, rule: str) -> None:
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, command)  # type: ignore[arg-type]
    assert refusal.value.rule_id == f"wind-river.{rule}"


def test_as_many_moves_as_teepees_on_the_board_at_the_start_of_the_turn() -> None:
    table = at_turn_of(0, position(teepees=CAMP, plains=(2, 0, 0, 0)))
    assert state_of(table).moves_due == 3  # the two teepees in the open plains do not count
    for _ in range(3):
        assert stage(state_of(table)) is Stage.MOVING_BUFFALO
        act(table, 0, legal(table)[0])
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY  # supplied by the referee: all fed


def test_a_buffalo_moves_one_space_ahead() -> None:
    table = at_turn_of(0, position(teepees=CAMP, buffalo={**FEED, at(3, 4): 1}))
    moves = {(c.from_, c.to) for c in legal(table) if isinstance(c, MoveBuffalo)}
    assert {(at(3, 4), at(3, 5)), (at(3, 4), at(2, 5)), (at(3, 4), at(4, 5))} <= moves
    events = act(table, 0, MoveBuffalo(from_=at(3, 4), to=at(2, 5)))
    assert events[0] == BuffaloMoved(seat=0, from_=at(3, 4), to=at(2, 5))
    assert state_of(table).buffalo_at(at(2, 5)) == 1 and state_of(table).buffalo_at(at(3, 4)) == 0


@pytest.mark.parametrize(
    "target",
    [at(3, 3), at(2, 4), at(4, 4), at(3, 6), at(1, 5), at(3, 4)],
    ids=["backwards", "back-left", "back-right", "two-spaces", "two-lanes", "standing-still"],
)
def test_never_backwards_nor_further_than_one_space(target: object) -> None:
    table = at_turn_of(0, position(teepees=CAMP, buffalo={**FEED, at(3, 4): 1}))
    refused(table, MoveBuffalo(from_=at(3, 4), to=target), "not-ahead")  # type: ignore[arg-type]


def test_never_off_a_side_and_into_the_open_plains_only_from_the_last_column() -> None:
    buffalo = {**FEED, at(1, 4): 1, at(3, 7): 1, at(2, 8): 1}
    table = at_turn_of(0, position(teepees=CAMP, buffalo=buffalo))
    refused(table, MoveBuffalo(from_=at(3, 7), to="open-plains"), "not-ahead")
    moves = {(c.from_, c.to) for c in legal(table) if isinstance(c, MoveBuffalo)}
    assert (at(1, 4), at(1, 5)) in moves and (at(1, 4), at(2, 5)) in moves
    assert not [m for m in moves if m[0] == at(1, 4) and m[1] not in (at(1, 5), at(2, 5))]
    gone = state_of(table).buffalo_gone
    act(table, 0, MoveBuffalo(from_=at(2, 8), to="open-plains"))
    state = state_of(table)
    assert state.buffalo_gone == gone + 1 and state.buffalo_at(at(2, 8)) == 0


def test_no_more_than_five_buffalo_on_a_space() -> None:
    buffalo = {**FEED, at(3, 4): 1, at(3, 5): 5, at(2, 5): 4}
    table = at_turn_of(0, position(teepees=CAMP, buffalo=buffalo))
    refused(table, MoveBuffalo(from_=at(3, 4), to=at(3, 5)), "space-full")
    assert MoveBuffalo(from_=at(3, 4), to=at(3, 5)) not in legal(table)
    act(table, 0, MoveBuffalo(from_=at(3, 4), to=at(2, 5)))  # the fifth: allowed
    assert state_of(table).buffalo_at(at(2, 5)) == 5


def test_there_must_be_a_buffalo_to_move() -> None:
    table = at_turn_of(0, position(teepees=CAMP, buffalo={**FEED, at(3, 4): 1}))
    refused(table, MoveBuffalo(from_=at(4, 4), to=at(4, 5)), "no-buffalo-there")


def test_each_buffalo_moves_at_most_once_in_the_step() -> None:
    buffalo = {**FEED, at(3, 4): 1, at(3, 5): 1, at(5, 1): 1}
    table = at_turn_of(0, position(teepees={**CAMP, at(4, 8): {0: 1}}, buffalo=buffalo))
    act(table, 0, MoveBuffalo(from_=at(3, 4), to=at(3, 5)))
    # Two buffalo on (3, 5) now, one of them moved: the other may still go.
    act(table, 0, MoveBuffalo(from_=at(3, 5), to=at(3, 6)))
    refused(table, MoveBuffalo(from_=at(3, 5), to=at(3, 6)), "buffalo-moved-already")
    refused(table, MoveBuffalo(from_=at(3, 6), to=at(3, 7)), "buffalo-moved-already")
    assert {c.from_ for c in legal(table) if isinstance(c, MoveBuffalo)} == {
        at(6, 1), at(6, 2), at(6, 3), at(5, 1)
    }  # fmt: skip


def test_moving_the_buffalo_is_mandatory() -> None:
    table = at_turn_of(0, position(teepees=CAMP))
    refused(table, EarnResources(), "not-now")
    refused(table, SendBackTeepees(spaces=()), "not-now")
    refused(table, MoveExtraBuffalo(from_=at(3, 1), to=at(3, 2)), "not-now")
    assert all(isinstance(command, MoveBuffalo) for command in legal(table))


def test_short_of_moves_the_player_makes_all_that_can_be_made() -> None:
    # WR-9: three moves due, two buffalo on the board: each moves once, then the step ends.
    table = at_turn_of(0, position(teepees=CAMP, buffalo={at(6, 1): 1, at(6, 2): 1}))
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    assert stage(state_of(table)) is Stage.MOVING_BUFFALO  # the buffalo on (6, 2) has not moved
    act(table, 0, MoveBuffalo(from_=at(6, 2), to=at(6, 3)))
    state = state_of(table)
    assert state.moves_made == 2 and stage(state) is not Stage.MOVING_BUFFALO


def test_the_referee_makes_a_move_that_has_no_alternative() -> None:
    # WR-R2: one teepee, one buffalo, on (1, 8): its only way is into the open plains.
    table = at_turn_of(0, position(teepees={at(1, 8): {0: 1}}, buffalo={at(1, 8): 1}))
    state = state_of(table)
    assert state.buffalo_gone == 36 and state.buffalo_on_board == 0
    assert stage(state) is Stage.EXTRA_ACTIVITY


def test_a_player_without_teepees_on_the_board_moves_no_buffalo() -> None:
    table = at_turn_of(1, position(teepees=CAMP))
    assert state_of(table).moves_due == 0
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY
    assert not [c for c in legal(table) if isinstance(c, MoveBuffalo)]


def test_the_turn_begins_with_the_moves_owed() -> None:
    _, events = begin_turn(2, position(teepees={at(6, 1): {2: 2}, at(4, 4): {2: 1}}))
    assert events[0] == TurnBegan(seat=2, turn=2, buffalo_moves=3)

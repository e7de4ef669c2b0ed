"""The seed's worked examples, as positions played through the referee: supply examples 1 and 2
(5.2), moving a teepee into an occupied space (5.3.1), earning up to the limit of ten (5.3.2)."""

from __future__ import annotations

import msgspec

from referee.games.wind_river.commands import (
    EarnResources,
    InsertTeepee,
    MoveBuffalo,
    MoveTeepee,
    SendBackTeepees,
)
from referee.games.wind_river.events import ResourcesEarned, TeepeeMoved, TeepeesSupplied
from referee.games.wind_river.stages import Stage, stage

from .support import act, at, at_turn_of, legal, position, state_of

# Buffalo far from every teepee, so that the moves of step 5.1 change no supply.
HERD = {at(6, 1): 2}
GRAZE = MoveBuffalo(from_=at(6, 1), to=at(6, 2))


def test_supply_example_1_other_players_teepees_are_fed_first() -> None:
    # Two buffalo, one teepee of yours and three of other players on one space: the buffalo
    # go to the others' teepees, you pay one resource; the others pay nothing.
    teepees = {at(4, 6): {0: 1, 1: 2, 2: 1}}
    table = at_turn_of(
        0, position(teepees=teepees, buffalo={**HERD, at(4, 6): 2}, resources=(3, 1, 1, 1))
    )
    events = act(table, 0, GRAZE)
    assert TeepeesSupplied(seat=0, unfed=1, paid=1) in events
    assert state_of(table).resources == (2, 1, 1, 1)
    assert state_of(table).teepees_at(at(4, 6)) == (1, 2, 1, 0)


def test_supply_example_1_with_four_buffalo_nobody_pays() -> None:
    teepees = {at(4, 6): {0: 1, 1: 2, 2: 1}}
    buffalo = {at(4, 5): 1, at(4, 6): 3}
    table = at_turn_of(0, position(teepees=teepees, buffalo=buffalo, resources=(3, 1, 1, 1)))
    events = act(table, 0, MoveBuffalo(from_=at(4, 5), to=at(4, 6)))  # now four buffalo there
    assert TeepeesSupplied(seat=0, unfed=0, paid=0) in events
    assert state_of(table).resources == (3, 1, 1, 1)


def test_supply_example_2_you_choose_which_unfed_teepee_goes_back() -> None:
    # Two unfed teepees and one resource: pay for one (your choice), the other goes back to
    # your stock, from where it may be placed again later.
    teepees = {at(2, 6): {0: 1}, at(5, 6): {0: 1}}
    table = at_turn_of(0, position(teepees=teepees, buffalo=HERD, resources=(1, 1, 1, 1)))
    act(table, 0, GRAZE)
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    assert stage(state_of(table)) is Stage.SUPPLYING
    assert legal(table) == [
        SendBackTeepees(spaces=(at(2, 6),)),
        SendBackTeepees(spaces=(at(5, 6),)),
    ]
    events = act(table, 0, SendBackTeepees(spaces=(at(5, 6),)))
    assert events[0] == TeepeesSupplied(seat=0, unfed=2, paid=1, sent_back=(at(5, 6),))
    state = state_of(table)
    assert state.resources[0] == 0 and state.stock[0] == 6 and state.on_board(0) == 1
    assert state.teepees_at(at(2, 6))[0] == 1 and state.teepees_at(at(5, 6))[0] == 0
    # Later, with resources again, the teepee sent back is inserted from the stock (WR-10).
    later = msgspec.structs.replace(state, resources=(4, 1, 1, 1))
    table = at_turn_of(0, later)
    act(table, 0, MoveBuffalo(from_=at(6, 2), to=at(6, 3)))  # (2, 6) stays unfed: 4 -> 3
    act(table, 0, InsertTeepee(at=at(2, 6)))
    state = state_of(table)
    assert state.stock[0] == 5 and state.teepees_at(at(2, 6))[0] == 2 and state.resources[0] == 0


def test_moving_a_teepee_example_everyone_on_the_space_pays_one_if_they_can() -> None:
    # Your teepee enters a space with two teepees of player A (seat 1) and one of player B
    # (seat 2): you and A pay one resource each; B has none and pays nothing; A pays once.
    teepees = {at(3, 4): {0: 1}, at(3, 5): {1: 2, 2: 1}}
    buffalo = {**HERD, at(3, 4): 1, at(3, 5): 3}
    table = at_turn_of(0, position(teepees=teepees, buffalo=buffalo, resources=(2, 3, 0, 1)))
    act(table, 0, GRAZE)
    events = act(table, 0, MoveTeepee(from_=at(3, 4), to=at(3, 5)))
    assert events[0] == TeepeeMoved(seat=0, from_=at(3, 4), to=at(3, 5), paid_by=(0, 1))
    state = state_of(table)
    assert state.resources == (1, 2, 0, 1)
    assert state.teepees_at(at(3, 5)) == (1, 2, 1, 0)


def test_earning_example_never_more_than_ten_in_stock() -> None:
    # Seven resources already and four to earn: you take only three.
    teepees = {at(3, 5): {0: 1}}
    table = at_turn_of(
        0, position(teepees=teepees, buffalo={**HERD, at(3, 5): 5}, resources=(7, 1, 1, 1))
    )
    act(table, 0, GRAZE)
    events = act(table, 0, EarnResources())
    assert events[0] == ResourcesEarned(seat=0, counted=4, earned=3)
    assert state_of(table).resources[0] == 10
    assert state_of(table).buffalo_at(at(3, 5)) == 5  # the buffalo stay where they are

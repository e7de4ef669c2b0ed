"""Step 5.2, supplying teepees (WR-4): one resource per unfed teepee of yours, others' teepees
fed first, all you can pay is paid, and you choose which unfed teepees go back when short."""

from __future__ import annotations

import pytest

from referee.games.wind_river.commands import MoveBuffalo, SendBackTeepees
from referee.games.wind_river.events import TeepeesSupplied
from referee.games.wind_river.stages import Stage, stage
from referee.kernel import RuleViolation

from .support import act, at, at_turn_of, legal, position, state_of

HERD = {at(6, 1): 3}


def graze(table: object, times: int) -> list[object]:
    """Seat 0's buffalo moves, each a different buffalo of (6, 1): to (6, 2), (5, 1), (6, 2)."""
    events: list[object] = []
    for target in (at(6, 2), at(5, 1), at(6, 2))[:times]:
        events += act(table, 0, MoveBuffalo(from_=at(6, 1), to=target))  # type: ignore[arg-type]
    return events


def short_of_resources() -> object:
    """Three unfed teepees of seat 0 on two spaces, one resource: two must go back."""
    teepees = {at(2, 6): {0: 2}, at(5, 6): {0: 1}}
    table = at_turn_of(0, position(teepees=teepees, buffalo=HERD, resources=(1, 1, 1, 1)))
    graze(table, 3)
    return table


def test_when_the_stock_cannot_pay_for_all_the_player_chooses_which_go_back() -> None:
    table = short_of_resources()
    assert stage(state_of(table)) is Stage.SUPPLYING and table.to_act() == {0}  # type: ignore[attr-defined]
    assert legal(table) == [
        SendBackTeepees(spaces=(at(2, 6), at(2, 6))),
        SendBackTeepees(spaces=(at(2, 6), at(5, 6))),
    ]
    with pytest.raises(RuleViolation) as refused:  # listed once each: in board order
        act(table, 0, SendBackTeepees(spaces=(at(5, 6), at(2, 6))))
    assert refused.value.rule_id == "wind-river.send-back-order"
    events = act(table, 0, SendBackTeepees(spaces=(at(2, 6), at(5, 6))))
    assert events[0] == TeepeesSupplied(seat=0, unfed=3, paid=1, sent_back=(at(2, 6), at(5, 6)))
    state = state_of(table)
    assert state.resources[0] == 0 and state.stock[0] == 6 and state.on_board(0) == 1


def test_no_voluntary_starving_while_resources_remain() -> None:
    table = short_of_resources()
    with pytest.raises(RuleViolation) as refused:
        act(table, 0, SendBackTeepees(spaces=(at(2, 6), at(2, 6), at(5, 6))))
    assert refused.value.rule_id == "wind-river.send-back-count"
    with pytest.raises(RuleViolation) as refused:
        act(table, 0, SendBackTeepees(spaces=(at(5, 6), at(5, 6))))  # only one unfed there
    assert refused.value.rule_id == "wind-river.send-back-fed"
    assert stage(state_of(table)) is Stage.SUPPLYING  # the refusals changed nothing


def test_only_unfed_teepees_go_back() -> None:
    teepees = {at(2, 6): {0: 1}, at(5, 6): {0: 1}, at(6, 2): {0: 1}}
    table = at_turn_of(0, position(teepees=teepees, buffalo=HERD, resources=(1, 1, 1, 1)))
    graze(table, 3)  # two buffalo arrive on (6, 2) and feed the teepee there
    with pytest.raises(RuleViolation) as refused:
        act(table, 0, SendBackTeepees(spaces=(at(6, 2),)))
    assert refused.value.rule_id == "wind-river.send-back-fed"


def test_a_player_who_can_pay_for_every_unfed_teepee_pays_without_a_command() -> None:
    table = at_turn_of(
        0, position(teepees={at(2, 6): {0: 2}}, buffalo=HERD, resources=(5, 1, 1, 1))
    )
    events = graze(table, 2)
    assert TeepeesSupplied(seat=0, unfed=2, paid=2) in events
    assert state_of(table).resources[0] == 3 and stage(state_of(table)) is Stage.EXTRA_ACTIVITY


def test_without_resources_every_unfed_teepee_goes_back_by_itself() -> None:
    table = at_turn_of(
        0,
        position(
            teepees={at(2, 6): {0: 1}, at(5, 6): {0: 1}}, buffalo=HERD, resources=(0, 1, 1, 1)
        ),
    )
    events = graze(table, 2)
    assert TeepeesSupplied(seat=0, unfed=2, paid=0, sent_back=(at(2, 6), at(5, 6))) in events
    assert state_of(table).stock[0] == 7


def test_unfed_teepees_on_one_space_leave_no_choice() -> None:
    table = at_turn_of(
        0, position(teepees={at(2, 6): {0: 3}}, buffalo=HERD, resources=(1, 1, 1, 1))
    )
    events = graze(table, 3)
    assert TeepeesSupplied(seat=0, unfed=3, paid=1, sent_back=(at(2, 6), at(2, 6))) in events


def test_only_the_players_own_teepees_are_supplied_in_their_turn() -> None:
    teepees = {at(2, 6): {0: 1, 1: 2}, at(4, 4): {2: 1}}
    buffalo = {**HERD, at(2, 6): 1}
    table = at_turn_of(0, position(teepees=teepees, buffalo=buffalo, resources=(3, 0, 0, 0)))
    events = graze(table, 1)
    # The one buffalo goes to seat 1's teepees (still one short: seat 1 pays in its own turn).
    assert TeepeesSupplied(seat=0, unfed=1, paid=1) in events
    assert state_of(table).teepees_at(at(2, 6)) == (1, 2, 0, 0)
    assert state_of(table).teepees_at(at(4, 4)) == (0, 0, 1, 0)
    assert state_of(table).resources == (2, 0, 0, 0)


def test_a_teepee_is_fed_by_a_buffalo_of_its_own_space_only() -> None:
    teepees = {at(3, 3): {0: 2}}
    buffalo = {at(3, 2): 2, at(3, 3): 1, at(3, 4): 5}
    table = at_turn_of(0, position(teepees=teepees, buffalo=buffalo, resources=(4, 1, 1, 1)))
    act(table, 0, MoveBuffalo(from_=at(3, 3), to=at(2, 4)))
    events = act(table, 0, MoveBuffalo(from_=at(3, 2), to=at(4, 3)))
    assert TeepeesSupplied(seat=0, unfed=2, paid=2) in events  # neighbours' buffalo do not count

"""Bidding: CY-2 (1 to 999, strictly higher), turn order, and what a refusal does."""

from __future__ import annotations

import pytest

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Challenge
from referee.games.coyote.data import MAX_BID
from referee.games.coyote.events import BidMade
from referee.kernel import NotYourTurn, RuleViolation, Table

from .support import play, position, state


def refused(table: Table, seat: int, command: object) -> str:
    before = (table.state, table.version, table.chance_cursor)
    with pytest.raises(RuleViolation) as refusal:
        play(table, seat, command)  # type: ignore[arg-type]
    assert (table.state, table.version, table.chance_cursor) == before  # nothing changed
    return refusal.value.rule_id


@pytest.mark.parametrize("number", [1, 17, MAX_BID])
def test_the_opening_bid_is_any_number_from_1_to_999(number: int) -> None:
    table = position(["5", "3", "2"])
    assert play(table, 0, Bid(number=number)) == [BidMade(seat=0, number=number)]
    assert state(table).current_bid == number


@pytest.mark.parametrize("number", [0, -3, MAX_BID + 1])
def test_a_bid_outside_1_to_999_is_refused(number: int) -> None:
    assert refused(position(["5", "3", "2"]), 0, Bid(number=number)) == "coyote.bid-out-of-range"


def test_a_bid_may_be_above_zero_even_when_the_total_is_negative() -> None:
    table = position(["-10", "-5", "1"])
    play(table, 0, Bid(number=1))
    assert state(table).current_bid == 1


@pytest.mark.parametrize("number", [4, 5])
def test_a_raise_must_be_strictly_higher(number: int) -> None:
    table = position(["5", "3", "2"])
    play(table, 0, Bid(number=5))
    assert refused(table, 1, Bid(number=number)) == "coyote.bid-not-higher"
    play(table, 1, Bid(number=6))
    assert state(table).bids == (5, 6)


def test_play_passes_to_the_left_and_wraps_around() -> None:
    table = position(["5", "3", "2", "1"], starter=2)
    turns = []
    for number in range(1, 6):
        (seat,) = table.to_act()
        turns.append(seat)
        play(table, seat, Bid(number=number))
    assert turns == [2, 3, 0, 1, 2]


def test_only_the_seat_in_turn_may_act() -> None:
    table = position(["5", "3", "2"])
    with pytest.raises(NotYourTurn):
        play(table, 1, Bid(number=3))


def test_the_opening_of_a_round_cannot_be_challenged() -> None:
    """Our ruling CY-R3: a challenge needs a bid to challenge."""
    assert refused(position(["5", "3", "2"]), 0, Challenge()) == "coyote.no-bid-to-challenge"


def test_a_bid_of_999_leaves_only_the_challenge() -> None:
    """Our ruling CY-R4: nothing is higher than 999."""
    table = position(["5", "3", "2"])
    play(table, 0, Bid(number=MAX_BID))
    assert list(GAME.legal_commands(state(table), 1)) == [Challenge()]
    assert refused(table, 1, Bid(number=MAX_BID)) == "coyote.bid-not-higher"


def test_legal_commands_at_the_opening_and_after_a_bid() -> None:
    table = position(["5", "3", "2"])
    assert list(GAME.legal_commands(state(table), 0)) == [
        Bid(number=n) for n in range(1, MAX_BID + 1)
    ]
    assert list(GAME.legal_commands(state(table), 1)) == []  # not in turn
    play(table, 0, Bid(number=40))
    assert list(GAME.legal_commands(state(table), 1)) == [
        Challenge(),
        *(Bid(number=n) for n in range(41, MAX_BID + 1)),
    ]

"""CY-3: the count, card by card, and the count as a challenge settles it."""

from __future__ import annotations

import pytest

from referee.games.coyote.commands import Bid, Challenge
from referee.games.coyote.count import count_indians
from referee.games.coyote.events import Counted, TeepeeDrew

from .support import events_of, pick, play, position


@pytest.mark.parametrize(
    ("cards", "total"),
    [
        (["5", "10", "-5"], 10),  # Indians, then the Cavalry subtracted
        (["1", "-10", "-5"], -14),  # the total may be negative
        (["3", "cactus", "moon"], 3),  # Cactus and Moon count 0
        (["5", "teepee"], 5),  # the Teepee itself counts nothing (its draw replaces it)
        (["10", "10", "4", "spirit"], 14),  # Spirit: only one of the equal highest counts 0
        (["-5", "cactus", "spirit"], -5),  # Spirit without an Indian changes nothing
        (["20", "-5", "spirit"], -5),  # Spirit never touches the Cavalry
        (["5", "3", "-10", "chief"], 6),  # Chief doubles the Indians, not the Cavalry
        (["20", "5", "spirit", "chief"], 10),  # Spirit and Chief: (5) doubled
        (["chief", "spirit", "moon", "cactus"], 0),
    ],
)
def test_count(cards: list[str], total: int) -> None:
    assert count_indians(pick(*cards)) == total


def test_spirit_and_chief_commute() -> None:
    cards = pick("15", "15", "4", "-10", "spirit", "chief")
    assert count_indians(cards) == count_indians(reversed(cards)) == (15 + 4) * 2 - 10


def settle(heads: list[str], bid: int, pile: tuple[str, ...] = ()) -> list[object]:
    """Seat 0 bids, seat 1 challenges: the events of the challenge."""
    table = position(heads, pile)
    play(table, 0, Bid(number=bid))
    return play(table, 1, Challenge())


@pytest.mark.parametrize(
    ("heads", "pile", "total"),
    [
        (["teepee", "5", "3"], ("10",), 18),  # the drawn card's value replaces the Teepee
        (["teepee", "5", "3"], ("chief",), 16),  # a drawn Chief doubles
        (["teepee", "10", "3"], ("spirit",), 3),  # a drawn Spirit zeroes the highest Indian
        (["teepee", "10", "3"], ("-10",), 3),  # a drawn Cavalry subtracts
        (["teepee", "spirit", "3"], ("20",), 3),  # the drawn Indian can be the one zeroed
        (["5", "teepee", "3", "chief"], ("15",), 46),
    ],
)
def test_the_teepee_draws_the_top_card_and_it_counts(
    heads: list[str], pile: tuple[str, ...], total: int
) -> None:
    events = settle(heads, 1, pile)
    (drew,) = events_of(events, TeepeeDrew)
    assert drew.seat == heads.index("teepee") and drew.card == pick(*pile)[0]
    (counted,) = events_of(events, Counted)
    assert counted.total == total


def test_no_teepee_no_draw() -> None:
    assert events_of(settle(["5", "3", "2"], 1), TeepeeDrew) == []

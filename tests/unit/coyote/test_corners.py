"""No seat is ever left without a move: Coyote's corners, built by hand, then played on.

Random play seldom meets them: a bid of 999, a Cancel that leaves one number, an Eye of the Lynx
on the top bid, a draw pile emptied at a deal, at the Teepee's draw or by Take a Card, thirteen
cards in play, two seats left on their last feathers. Each test builds the position (support.py),
checks the contract there (`check_who_may_act`: the seat in turn has a command, no other seat
has one) and what the seat may say, then plays on at random to the end of the game from fresh
copies of it, the contract checked at every step (tests/unit/corners.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Cancel, Challenge, EyeOfTheLynx
from referee.games.coyote.data import MAX_BID
from referee.games.coyote.events import (
    CardDealt,
    Counted,
    DeckShuffled,
    Eliminated,
    GameWon,
    RoundEnded,
    RoundStarted,
    TeepeeDrew,
)
from referee.kernel import Table
from referee.kernel.seating import COUNTERCLOCKWISE
from tests.unit.corners import check_who_may_act, play_on_several

from .support import GAME_ID, SEED, events_of, play, position, round_position, state

GAMES = 8  # random continuations from each position


def legal(table: Table, seat: int) -> list[Any]:
    return list(GAME.legal_commands(state(table), seat))


def acting(table: Table) -> int:
    (seat,) = table.to_act()
    return seat


def played_on(make_table: Callable[[], Table]) -> None:
    """The contract at the position, then on every step of random games from it to the end."""
    check_who_may_act(make_table())
    lengths = play_on_several(make_table, SEED, GAME_ID, games=GAMES)
    assert all(length > 0 for length in lengths)


# -- the top of the bids (CY-2, CY-R4) ---------------------------------------------------------


def bid_999() -> Table:
    table = position(["5", "3", "2"])
    play(table, 0, Bid(number=MAX_BID))
    return table


def test_a_bid_of_999_leaves_the_next_seat_only_coyote() -> None:
    table = bid_999()
    check_who_may_act(table)
    assert legal(table, 1) == [Challenge()]
    played_on(bid_999)


def bid_999_to_a_spent_shaman() -> Table:
    table = round_position([["5"], ["3"], ["2"]], shaman=True, shaman_used={1})
    play(table, 0, Bid(number=MAX_BID, power="two-feathers"))
    return table


def test_a_bid_of_999_to_a_seat_whose_shaman_card_is_spent_leaves_only_coyote() -> None:
    table = bid_999_to_a_spent_shaman()
    check_who_may_act(table)
    assert legal(table, 1) == [Challenge()]  # no Lynx, no Cancel: the card is spent (CY-R5)
    played_on(bid_999_to_a_spent_shaman)


# -- Eye of the Lynx and Cancel at the top (CY-R6, CY-R10) --------------------------------------


def lynx_on_999() -> Table:
    table = position(["5", "3", "2"], shaman=True)
    play(table, 0, Bid(number=MAX_BID))
    play(table, 1, EyeOfTheLynx())
    return table


def test_an_eye_of_the_lynx_on_999_leaves_only_coyote() -> None:
    table = lynx_on_999()
    check_who_may_act(table)
    # Seat 2 still holds its Shaman card: no Lynx on a Lynx, no Cancel (the Lynx caller would
    # have no number above 999), no higher bid: only the challenge.
    assert legal(table, 2) == [Challenge()]
    played_on(lynx_on_999)


def cancel_of_999_over_997() -> Table:
    table = position(["5", "3", "2"], shaman=True)
    play(table, 0, Bid(number=MAX_BID - 2))
    play(table, 1, Bid(number=MAX_BID))
    play(table, 2, Cancel())
    return table


def test_a_cancel_of_999_over_997_leaves_the_bidder_a_single_number() -> None:
    table = cancel_of_999_over_997()
    check_who_may_act(table)
    assert legal(table, 1) == [Bid(number=MAX_BID - 1)]
    play(table, 1, Bid(number=MAX_BID - 1))
    check_who_may_act(table)
    assert legal(table, 2) == [Challenge(), Bid(number=MAX_BID)]  # the canceller answers
    played_on(cancel_of_999_over_997)


def cancelled_lynx_on_998() -> Table:
    table = position(["5", "3", "2"], shaman=True)
    play(table, 0, Bid(number=MAX_BID - 1))
    play(table, 1, EyeOfTheLynx())
    play(table, 2, Cancel())
    return table


def test_a_cancelled_lynx_on_998_leaves_999_then_only_coyote() -> None:
    table = cancelled_lynx_on_998()
    check_who_may_act(table)
    assert legal(table, 1) == [Bid(number=MAX_BID)]
    play(table, 1, Bid(number=MAX_BID))
    check_who_may_act(table)
    assert legal(table, 2) == [Challenge()]  # the canceller's Shaman card is spent
    played_on(cancelled_lynx_on_998)


# -- an empty draw pile (CY-7) -----------------------------------------------------------------


def teepee_over_an_empty_draw_pile() -> Table:
    return round_position([["teepee"], ["5"], ["3"], ["2"]], draw_pile=[])


def test_the_teepee_draws_from_an_empty_draw_pile_rebuilt_from_the_discard() -> None:
    table = teepee_over_an_empty_draw_pile()
    check_who_may_act(table)
    play(table, 0, Bid(number=1))
    events = play(table, 1, Challenge())
    (shuffle, *_) = events_of(events, DeckShuffled)
    assert shuffle.reason == "draw-pile-empty" and shuffle.size == 32  # all but the heads
    assert events_of(events, TeepeeDrew)[0].card == shuffle.order[0]
    check_who_may_act(table)
    played_on(teepee_over_an_empty_draw_pile)


def deal_across_an_empty_draw_pile() -> Table:
    heads = [["5"], ["3"], ["2"], ["1"], ["4"], ["10"]]
    return round_position(heads, draw_pile=["1", "2"])


def test_a_new_round_is_dealt_across_an_empty_draw_pile() -> None:
    table = deal_across_an_empty_draw_pile()
    check_who_may_act(table)
    play(table, 0, Bid(number=1))
    events = play(table, 1, Challenge())  # 1 <= 25: seat 1 loses and starts round 3
    deals = events_of(events, CardDealt)
    (shuffle,) = events_of(events, DeckShuffled)
    assert shuffle.reason == "draw-pile-empty" and shuffle.size == 34  # 28 + the six heads
    assert events.index(deals[1]) < events.index(shuffle) < events.index(deals[2])
    assert [deal.seat for deal in deals] == [0, 1, 2, 3, 4, 5]
    assert acting(table) == 1
    check_who_may_act(table)
    played_on(deal_across_an_empty_draw_pile)


def take_a_card_from_an_empty_draw_pile() -> Table:
    return round_position([["5"], ["3"], ["2"]], draw_pile=[], shaman=True)


def test_take_a_card_from_an_empty_draw_pile_rebuilds_it_from_the_discard() -> None:
    table = take_a_card_from_an_empty_draw_pile()
    check_who_may_act(table)
    events = play(table, 0, Bid(number=4, power="take-a-card", target=2))
    shuffle, dealt = events[1], events[2]
    assert isinstance(shuffle, DeckShuffled) and shuffle.reason == "draw-pile-empty"
    assert shuffle.order is not None
    assert dealt == CardDealt(seat=2, card=shuffle.order[0], extra=True)
    check_who_may_act(table)
    played_on(take_a_card_from_an_empty_draw_pile)


def thirteen_cards_in_play() -> Table:
    """Six heads (the Teepee among them) and a draw pile of six cards, the Moon among them:
    every seat takes a card with its bid, and the Teepee then finds the draw pile empty."""
    heads = [["teepee"], ["1"], ["2"], ["3"], ["4"], ["5"]]
    table = round_position(
        heads, draw_pile=["10", "moon", "1", "2", "3", "4"], shaman=True, starter=0
    )
    for seat in range(6):
        play(table, seat, Bid(number=seat + 1, power="take-a-card", target=seat))
    return table


def test_thirteen_cards_in_play_with_the_draw_pile_empty_still_leave_a_move() -> None:
    table = thirteen_cards_in_play()
    assert state(table).draw_pile == () and len(state(table).cards_in_play) == 12
    check_who_may_act(table)
    assert legal(table, 0)[0] == Challenge()
    events = play(table, 0, Challenge())
    assert [event.reason for event in events_of(events, DeckShuffled)] == [
        "draw-pile-empty",  # the 24 cards of the discard pile, for the Teepee's draw
        "moon",  # an extra Moon: all 36 cards (CY-6, CY-R9)
    ]
    assert events_of(events, DeckShuffled)[0].size == 24
    assert events_of(events, DeckShuffled)[1].size == 36
    assert events_of(events, RoundEnded) == [RoundEnded(moon=True)]
    check_who_may_act(table)
    played_on(thirteen_cards_in_play)


# -- seats with nothing left: the last feathers, the last round (CY-5, CY-R7, CY-R14) -----------


def last_two_on_their_last_feathers() -> Table:
    hands = [["5"], [], [], ["3"], [], []]
    return round_position(hands, feathers=[1, 0, 0, 1, 0, 0], starter=3, direction=COUNTERCLOCKWISE)


def test_the_last_two_seats_on_their_last_feathers_play_the_last_round() -> None:
    table = last_two_on_their_last_feathers()
    check_who_may_act(table)
    play(table, 3, Bid(number=9))
    assert acting(table) == 0  # counterclockwise from 3 past the empty seats 2 and 1
    events = play(table, 0, Challenge())  # 9 > 8: seat 3 loses its last feather
    assert events_of(events, GameWon) == [GameWon(seat=0)]
    assert not events_of(events, RoundStarted)
    assert table.outcome().finished and table.to_act() == frozenset()
    assert all(legal(table, seat) == [] for seat in range(6))
    played_on(last_two_on_their_last_feathers)


def two_feathers_on_the_last_feathers() -> Table:
    return round_position([["5"], [], ["3"], []], feathers=[2, 0, 1, 0], shaman=True)


def test_two_feathers_against_the_last_two_seats_ends_the_game() -> None:
    table = two_feathers_on_the_last_feathers()
    check_who_may_act(table)
    play(table, 0, Bid(number=99, power="two-feathers"))
    events = play(table, 2, Challenge())  # 99 > 8: seat 0 loses both its feathers
    assert events_of(events, Counted) == [Counted(total=8, loser=0, feathers_lost=2)]
    assert events_of(events, Eliminated) == [Eliminated(seat=0)]
    assert events_of(events, GameWon) == [GameWon(seat=2)]
    assert table.to_act() == frozenset()
    played_on(two_feathers_on_the_last_feathers)


def two_seats_left_with_their_powers() -> Table:
    hands = [[], ["5"], [], [], ["3"]]
    return round_position(hands, feathers=[0, 2, 0, 0, 1], shaman=True)


def test_two_seats_left_with_every_power_still_pass_the_turn_between_them() -> None:
    table = two_seats_left_with_their_powers()
    check_who_may_act(table)
    powers = [(c.power, c.target) for c in legal(table, 1) if isinstance(c, Bid) and c.number == 1]
    assert ("it-is-your-turn", 4) in powers
    assert [target for power, target in powers if power == "it-is-your-turn"] == [4]
    assert [target for power, target in powers if power == "take-a-card"] == [1, 4]
    play(table, 1, Bid(number=5, power="u-turn"))
    assert acting(table) == 4  # reversed, the only other seat is still next
    play(table, 4, Cancel())
    assert Bid(number=5) not in legal(table, 1) and len(legal(table, 1)) == MAX_BID - 1
    play(table, 1, Bid(number=7))
    assert acting(table) == 4 and legal(table, 4)[0] == Challenge()
    played_on(two_seats_left_with_their_powers)


def three_left_after_an_elimination() -> Table:
    hands = [["5"], [], ["3"], [], ["2"], []]
    return round_position(hands, feathers=[1, 0, 2, 0, 1, 0], starter=4)


def test_a_loser_out_of_the_game_is_followed_by_the_seat_that_beat_them() -> None:
    table = three_left_after_an_elimination()
    check_who_may_act(table)
    play(table, 4, Bid(number=99))
    assert acting(table) == 0  # clockwise from 4 past the empty seat 5
    events = play(table, 0, Challenge())  # 99 > 10: seat 4 is out; seat 0 beat them
    assert events_of(events, Eliminated) == [Eliminated(seat=4)]
    assert events_of(events, RoundStarted) == [RoundStarted(round=3, starter=0)]
    assert [deal.seat for deal in events_of(events, CardDealt)] == [0, 2]
    check_who_may_act(table)
    played_on(three_left_after_an_elimination)


def six_seats_on_one_feather() -> Table:
    return position(["5", "3", "2", "1", "4", "10"], feathers=1, shaman=True)


def test_six_seats_on_one_feather_each_lose_a_seat_at_every_challenge() -> None:
    table = six_seats_on_one_feather()
    play(table, 0, Bid(number=MAX_BID))
    events = play(table, 1, Challenge())
    assert events_of(events, Eliminated) == [Eliminated(seat=0)]
    assert acting(table) == 1 and len(state(table).in_play) == 5
    check_who_may_act(table)
    played_on(six_seats_on_one_feather)

"""CY-8: the Shaman variant, each power and its limits (our rulings CY-R5 to CY-R11)."""

from __future__ import annotations

import pytest

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Cancel, Challenge, EyeOfTheLynx
from referee.games.coyote.data import MAX_BID
from referee.games.coyote.events import (
    BidCancelled,
    BidMade,
    CardDealt,
    Counted,
    DeckShuffled,
    LynxCalled,
    TeepeeDrew,
)
from referee.kernel import RuleViolation, Table

from .support import events_of, pick, play, position, state
from .test_challenge import challenge_bid, last_round_deck, six_seat_table

HEADS = ["5", "3", "2", "1"]  # total 11


def shaman_table(heads: list[str] = HEADS, pile: tuple[str, ...] = (), **kwargs: int) -> Table:
    return position(heads, pile, shaman=True, **kwargs)


def refusal(table: Table, seat: int, command: object) -> str:
    before = (table.state, table.version)
    with pytest.raises(RuleViolation) as refused:
        play(table, seat, command)  # type: ignore[arg-type]
    assert (table.state, table.version) == before
    return refused.value.rule_id


def acting(table: Table) -> int:
    (seat,) = table.to_act()
    return seat


# -- the Shaman card ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [Bid(number=3, power="u-turn"), EyeOfTheLynx(), Cancel()], ids=repr
)
def test_no_power_without_the_shaman_variant(command: object) -> None:
    table = position(HEADS)
    play(table, 0, Bid(number=2))
    assert refusal(table, 1, command) == "coyote.shaman-not-in-play"


def test_each_player_uses_one_power_once_per_game() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=2, power="u-turn"))
    assert state(table).shaman_used == (True, False, False, False)
    play(table, 3, Challenge())  # 2 <= 11: seat 3 loses and starts round 2, counterclockwise
    for seat, number in [(3, 1), (2, 2), (1, 3)]:
        play(table, seat, Bid(number=number))
    # Seat 0 has spent its Shaman card: no power now, not the same one nor another one.
    assert refusal(table, 0, Bid(number=4, power="two-feathers")) == "coyote.shaman-used"
    assert refusal(table, 0, Bid(number=4, power="u-turn")) == "coyote.shaman-used"
    assert refusal(table, 0, EyeOfTheLynx()) == "coyote.shaman-used"
    assert refusal(table, 0, Cancel()) == "coyote.shaman-used"
    legal = GAME.legal_commands(state(table), 0)
    assert legal[0] == Challenge() and all(
        isinstance(c, Bid) and c.power is None for c in legal[1:]
    )
    assert len(legal) == 1 + MAX_BID - 3


# -- Eye of the Lynx ---------------------------------------------------------------------------


def test_eye_of_the_lynx_repeats_the_bid_and_the_next_player_may_not_answer_with_it() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=7))
    assert play(table, 1, EyeOfTheLynx()) == [LynxCalled(seat=1, number=7)]
    assert state(table).bids == (7, 7) and table.to_act() == frozenset({2})
    assert refusal(table, 2, EyeOfTheLynx()) == "coyote.lynx-barred"
    assert EyeOfTheLynx() not in GAME.legal_commands(state(table), 2)
    assert refusal(table, 2, Bid(number=7)) == "coyote.bid-not-higher"
    play(table, 2, Bid(number=8))
    assert EyeOfTheLynx() in GAME.legal_commands(state(table), 3)  # the bar was for seat 2 only


def test_a_lynx_bid_is_the_lynx_players_when_challenged() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=12))
    play(table, 1, EyeOfTheLynx())
    events = play(table, 2, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=1, feathers_lost=1)]


def test_eye_of_the_lynx_needs_a_bid() -> None:
    assert refusal(shaman_table(), 0, EyeOfTheLynx()) == "coyote.no-bid-to-repeat"


# -- 2 Feathers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("bid", "loser"), [(12, 0), (11, 1)])
def test_two_feathers_costs_the_loser_two(bid: int, loser: int) -> None:
    table = shaman_table()
    play(table, 0, Bid(number=bid, power="two-feathers"))
    events = play(table, 1, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=loser, feathers_lost=2)]
    assert state(table).feathers[loser] == 1


def test_two_feathers_takes_a_last_feather_and_no_more() -> None:
    table = shaman_table(feathers=1)
    play(table, 0, Bid(number=12, power="two-feathers"))
    events = play(table, 1, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=0, feathers_lost=1)]
    assert state(table).feathers == (0, 1, 1, 1)


def test_two_feathers_lapses_when_the_next_player_raises() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=5, power="two-feathers"))
    play(table, 1, Bid(number=12))
    events = play(table, 2, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=1, feathers_lost=1)]


def test_two_feathers_lapses_when_the_next_player_answers_with_the_lynx() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=12, power="two-feathers"))
    play(table, 1, EyeOfTheLynx())
    events = play(table, 2, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=1, feathers_lost=1)]


# -- U-turn --------------------------------------------------------------------------------------


def test_u_turn_reverses_play_for_the_rest_of_the_game() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=2, power="u-turn"))
    assert table.to_act() == frozenset({3})
    play(table, 3, Bid(number=3))
    assert table.to_act() == frozenset({2})
    play(table, 2, Challenge())  # total 11 >= 3: seat 2 loses and starts round 2
    assert state(table).starter == 2
    play(table, 2, Bid(number=1))
    assert table.to_act() == frozenset({1})  # still counterclockwise (our ruling CY-R8)
    play(table, 1, Bid(number=2, power="u-turn"))
    assert table.to_act() == frozenset({2})  # a second U-turn turns back


# -- Take a Card ---------------------------------------------------------------------------------


def test_take_a_card_gives_a_hidden_extra_card_that_counts() -> None:
    table = shaman_table(pile=("10",))
    events = play(table, 0, Bid(number=21, power="take-a-card", target=2))
    (ten,) = pick("10")
    assert events == [
        BidMade(seat=0, number=21, power="take-a-card", target=2),
        CardDealt(seat=2, card=ten, extra=True),
    ]
    assert state(table).hands[2] == (pick("2")[0], ten)
    assert GAME.view(state(table), 2).seats[2].cards == (None, None)
    assert GAME.view(state(table), 1).seats[2].cards == (pick("2")[0], ten)
    assert GAME.redact(events[1], 2) == CardDealt(seat=2, card=None, extra=True)
    assert table.to_act() == frozenset({1})
    events = play(table, 1, Challenge())
    assert events_of(events, Counted) == [Counted(total=21, loser=1, feathers_lost=1)]


def test_take_a_card_may_name_yourself() -> None:
    """Our ruling CY-R9: "any player" includes the bidder."""
    table = shaman_table(pile=("10",))
    play(table, 0, Bid(number=3, power="take-a-card", target=0))
    assert len(state(table).hands[0]) == 2
    assert GAME.view(state(table), 0).seats[0].cards == (None, None)


def test_an_extra_teepee_draws_at_the_challenge() -> None:
    table = shaman_table(pile=("teepee", "20"))
    play(table, 0, Bid(number=31, power="take-a-card", target=3))
    events = play(table, 1, Challenge())
    assert events_of(events, TeepeeDrew) == [TeepeeDrew(seat=3, card=pick("20")[0])]
    assert events_of(events, Counted)[0].total == 31


def test_take_a_card_reshuffles_the_discard_when_the_draw_pile_is_empty() -> None:
    table = six_seat_table(last_round_deck(), shaman=True)
    assert state(table).draw_pile == ()
    bidder = acting(table)
    events = play(table, bidder, Bid(number=1, power="take-a-card", target=bidder))
    shuffle, dealt = events[1], events[2]
    assert isinstance(shuffle, DeckShuffled) and shuffle.reason == "draw-pile-empty"
    assert shuffle.order is not None and dealt == CardDealt(
        seat=bidder, card=shuffle.order[0], extra=True
    )


def test_take_a_card_names_a_player_in_the_game() -> None:
    table = shaman_table(feathers=1)
    challenge_bid(table, 99)  # seat 0 is out; seat 1 starts
    assert refusal(table, 1, Bid(number=2, power="take-a-card", target=0)) == (
        "coyote.target-not-in-play"
    )
    assert refusal(table, 1, Bid(number=2, power="take-a-card", target=9)) == (
        "coyote.target-not-in-play"
    )
    assert refusal(table, 1, Bid(number=2, power="take-a-card")) == "coyote.target-required"


# -- Cancel --------------------------------------------------------------------------------------


def test_cancel_makes_the_last_bidder_bid_a_different_number_then_it_is_your_turn_again() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=5))
    play(table, 1, Bid(number=9))
    assert play(table, 2, Cancel()) == [BidCancelled(seat=2, bidder=1, number=9)]
    assert table.to_act() == frozenset({1})
    assert refusal(table, 1, Bid(number=9)) == "coyote.rebid-same-number"
    assert refusal(table, 1, Bid(number=5)) == "coyote.bid-not-higher"
    assert refusal(table, 1, Challenge()) == "coyote.must-rebid"
    assert refusal(table, 1, Bid(number=6, power="u-turn")) == "coyote.rebid-no-power"
    assert list(GAME.legal_commands(state(table), 1)) == [
        Bid(number=n) for n in range(6, MAX_BID + 1) if n != 9
    ]
    assert play(table, 1, Bid(number=6)) == [BidMade(seat=1, number=6, rebid=True)]
    assert state(table).bids == (5, 6)
    assert table.to_act() == frozenset({2})  # the canceller answers the new bid
    events = play(table, 2, Challenge())  # 6 <= 11: the canceller loses
    assert events_of(events, Counted) == [Counted(total=11, loser=2, feathers_lost=1)]


def test_cancel_of_an_opening_bid_allows_any_other_number() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=40))
    play(table, 1, Cancel())
    legal = GAME.legal_commands(state(table), 0)
    assert len(legal) == MAX_BID - 1 and Bid(number=1) in legal and Bid(number=40) not in legal


def test_cancel_of_a_lynx_bid_needs_a_higher_number() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=5))
    play(table, 1, EyeOfTheLynx())
    play(table, 2, Cancel())
    assert refusal(table, 1, Bid(number=5)) == "coyote.rebid-same-number"
    assert refusal(table, 1, Bid(number=4)) == "coyote.bid-not-higher"
    play(table, 1, Bid(number=6))
    assert state(table).bids == (5, 6)


def test_cancel_is_refused_when_no_other_number_exists() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=MAX_BID - 1))
    play(table, 1, Bid(number=MAX_BID))
    assert refusal(table, 2, Cancel()) == "coyote.cancel-impossible"
    assert list(GAME.legal_commands(state(table), 2)) == [Challenge(), EyeOfTheLynx()]


def test_cancel_of_a_lynx_just_under_the_top_leaves_only_999() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=MAX_BID - 1))
    play(table, 1, EyeOfTheLynx())
    assert Cancel() in GAME.legal_commands(state(table), 2)
    play(table, 2, Cancel())
    assert list(GAME.legal_commands(state(table), 1)) == [Bid(number=MAX_BID)]


def test_cancel_needs_a_bid() -> None:
    assert refusal(shaman_table(), 0, Cancel()) == "coyote.no-bid-to-cancel"


def test_cancelling_a_two_feathers_bid_voids_the_two_feathers() -> None:
    """Our ruling CY-R10: the power stays spent, 2 Feathers leaves with the cancelled bid."""
    table = shaman_table()
    play(table, 0, Bid(number=5, power="two-feathers"))
    play(table, 1, Cancel())
    play(table, 0, Bid(number=30))
    events = play(table, 1, Challenge())
    assert events_of(events, Counted) == [Counted(total=11, loser=0, feathers_lost=1)]
    assert state(table).shaman_used[:2] == (True, True)


def test_cancelling_a_u_turn_or_take_a_card_bid_keeps_what_it_did() -> None:
    table = shaman_table(pile=("10",))
    play(table, 0, Bid(number=5, power="u-turn"))
    play(table, 3, Cancel())
    play(table, 0, Bid(number=6))
    assert table.to_act() == frozenset({3})
    play(table, 3, Bid(number=7))
    assert table.to_act() == frozenset({2})  # still counterclockwise
    play(table, 2, Bid(number=8, power="take-a-card", target=0))
    play(table, 1, Cancel())
    assert len(state(table).hands[0]) == 2  # the extra card stays in play
    assert state(table).shaman_used == (True, True, True, True)


# -- It Is Your Turn -----------------------------------------------------------------------------


def test_it_is_your_turn_chooses_who_plays_next_and_play_goes_on_from_them() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=3, power="it-is-your-turn", target=2))
    assert table.to_act() == frozenset({2})
    play(table, 2, Bid(number=4))
    assert table.to_act() == frozenset({3})  # on clockwise from the chosen player


def test_it_is_your_turn_goes_on_in_the_current_direction() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=3, power="u-turn"))
    play(table, 3, Bid(number=4, power="it-is-your-turn", target=1))
    play(table, 1, Bid(number=5))
    assert table.to_act() == frozenset({0})  # counterclockwise from seat 1


def test_it_is_your_turn_names_another_player_in_the_game() -> None:
    table = shaman_table()
    play(table, 0, Bid(number=3))
    assert refusal(table, 1, Bid(number=4, power="it-is-your-turn", target=1)) == (
        "coyote.target-self"
    )
    assert refusal(table, 1, Bid(number=4, power="it-is-your-turn")) == "coyote.target-required"


def test_an_eliminated_declarer_is_followed_by_the_player_who_beat_them() -> None:
    """CY-5 with It Is Your Turn: the challenger is not the seat after the loser."""
    table = shaman_table(feathers=1)
    play(table, 0, Bid(number=99, power="it-is-your-turn", target=2))
    play(table, 2, Challenge())
    assert state(table).starter == 2


@pytest.mark.parametrize("power", ["two-feathers", "u-turn"])
def test_powers_without_a_target_refuse_one(power: str) -> None:
    table = shaman_table()
    command = Bid(number=3, power=power, target=1)  # type: ignore[arg-type]
    assert refusal(table, 0, command) == "coyote.target-not-allowed"


def test_a_target_needs_a_power() -> None:
    assert refusal(shaman_table(), 0, Bid(number=3, target=1)) == "coyote.target-without-power"

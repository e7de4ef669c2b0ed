"""Challenge and its consequences: CY-4 (who loses), CY-5 (who starts), CY-6 (discard and Moon),
CY-7 (running out of cards), elimination and the end of the game."""

from __future__ import annotations

import pytest

from referee.games.coyote.commands import Bid, Challenge
from referee.games.coyote.data import DECK
from referee.games.coyote.events import (
    CardDealt,
    Challenged,
    Counted,
    DeckShuffled,
    Eliminated,
    GameWon,
    RoundEnded,
    RoundStarted,
    TeepeeDrew,
)
from referee.kernel import Chance, GameOver, Table

from .support import GAME_ID, SEED, deck_counter, events_of, pick, play, position, state


def challenge_bid(table: Table, bid: int) -> list[object]:
    """The starter bids `bid`, the next seat challenges it."""
    (starter,) = table.to_act()
    play(table, starter, Bid(number=bid))
    (challenger,) = table.to_act()
    return play(table, challenger, Challenge())


@pytest.mark.parametrize(
    ("bid", "loser"),
    [(9, 1), (10, 1), (11, 0)],  # the total is 10: bid <= total costs the challenger
)
def test_who_loses_a_feather(bid: int, loser: int) -> None:
    table = position(["5", "3", "2"])
    events = challenge_bid(table, bid)
    assert events_of(events, Counted) == [Counted(total=10, loser=loser, feathers_lost=1)]
    expected = [3, 3, 3]
    expected[loser] = 2
    assert state(table).feathers == tuple(expected)


def test_a_challenge_reveals_every_card_in_play() -> None:
    table = position(["5", "3", "2", "-10"])
    hands = state(table).hands
    events = challenge_bid(table, 4)
    assert events[0] == Challenged(seat=1, bidder=0, bid=4, hands=hands)
    assert [tuple(hand) for hand in hands] == [(card,) for card in pick("5", "3", "2", "-10")]


def test_the_loser_starts_the_next_round() -> None:
    for bid, loser in [(11, 0), (10, 1)]:
        table = position(["5", "3", "2"])
        events = challenge_bid(table, bid)
        assert events_of(events, RoundStarted) == [RoundStarted(round=2, starter=loser)]
        assert table.to_act() == frozenset({loser})


def test_after_a_round_every_card_in_play_is_discarded_and_new_cards_dealt() -> None:
    names = ["5", "teepee", "2", "10", "1", "2", "3"]
    cards = pick(*names)
    table = position(names[:3], tuple(names[3:]))
    events = challenge_bid(table, 1)
    assert events_of(events, RoundEnded) == [RoundEnded(moon=False)]
    # The Teepee's draw is discarded with the heads (CY-6); the next three cards are dealt.
    assert deck_counter(state(table).discard) == deck_counter(cards[:4])
    assert events_of(events, CardDealt) == [
        CardDealt(seat=seat, card=card) for seat, card in enumerate(cards[4:])
    ]


def test_a_moon_in_play_reshuffles_every_card_into_a_new_draw_pile() -> None:
    table = position(["5", "moon", "2"])
    cursor = table.chance_cursor
    events = challenge_bid(table, 1)
    (shuffle,) = events_of(events, DeckShuffled)
    assert shuffle.reason == "moon" and shuffle.size == 36
    # From the canonical order, with the next words of the game's chance.
    assert shuffle.order == tuple(Chance.for_game(SEED, GAME_ID, cursor=cursor).shuffle(DECK))
    assert state(table).discard == ()
    assert events.index(shuffle) < events.index(events_of(events, RoundStarted)[0])


def test_a_moon_drawn_by_the_teepee_reshuffles_too() -> None:
    table = position(["5", "teepee", "2"], ("moon",))
    events = challenge_bid(table, 1)
    assert events_of(events, TeepeeDrew)[0].card.kind == "moon"
    assert events_of(events, RoundEnded) == [RoundEnded(moon=True)]
    assert events_of(events, DeckShuffled)[0].reason == "moon"


def test_an_eliminated_declarer_is_followed_by_the_challenger() -> None:
    table = position(["5", "3", "2", "1"], feathers=1)
    events = challenge_bid(table, 99)  # seat 0 bid too high and loses its only feather
    assert events_of(events, Eliminated) == [Eliminated(seat=0)]
    assert events_of(events, RoundStarted) == [RoundStarted(round=2, starter=1)]
    # The eliminated seat gets no card; turn order skips it.
    assert [event.seat for event in events_of(events, CardDealt)] == [1, 2, 3]
    assert state(table).hands[0] == ()


def test_an_eliminated_challenger_is_followed_by_the_declarer() -> None:
    table = position(["5", "3", "2", "1"], feathers=1)
    events = challenge_bid(table, 2)  # seat 1 challenged a true bid
    assert events_of(events, Eliminated) == [Eliminated(seat=1)]
    # Not the next seat after the loser (2): the player who beat them (0).
    assert events_of(events, RoundStarted) == [RoundStarted(round=2, starter=0)]
    play(table, 0, Bid(number=1))
    assert table.to_act() == frozenset({2})  # seat 1 is skipped


def test_the_last_player_with_feathers_wins() -> None:
    table = position(["5", "3", "2", "1"], feathers=1)
    challenge_bid(table, 99)  # seat 0 out, seat 1 starts
    assert table.to_act() == frozenset({1})
    challenge_bid(table, 99)  # seat 1 out, seat 2 starts
    events = challenge_bid(table, 1)  # seat 3 challenged a true bid: out; only seat 2 is left
    assert events_of(events, GameWon) == [GameWon(seat=2)]
    assert events_of(events, RoundStarted) == [] and events_of(events, DeckShuffled) == []
    outcome = table.outcome()
    assert outcome.finished and outcome.winners == (2,)
    assert outcome.ranking == ((2,), (3,), (1,), (0,))  # later out ranks better
    assert table.to_act() == frozenset()
    with pytest.raises(GameOver):
        play(table, 2, Bid(number=5))


def test_feathers_never_go_below_zero() -> None:
    table = position(["5", "3", "2"], feathers=1)
    challenge_bid(table, 50)
    assert state(table).feathers == (0, 1, 1)


# Running out of cards (CY-7). With six seats, five rounds deal 30 cards; the sixth round deals
# the last six, so the draw pile is empty during round 6 (the Moon reshuffles only after it).
FIVE_ROUNDS = (
    ["20", "-10", "1", "1", "3", "3"],
    ["15", "-5", "2", "2", "3", "3"],
    ["15", "-5", "4", "4", "4", "4"],
    ["10", "10", "10", "cactus", "cactus", "cactus"],
    ["chief", "spirit", "5", "5", "5", "5"],
)


def six_seat_table(order: list[str], shaman: bool = False) -> Table:
    """Six seats; `order` is the whole deck; five rounds are played, each won by its bidder."""
    table = position(order[:6], tuple(order[6:]), shaman=shaman)
    for _ in range(5):  # each round's total is positive: bid 1, the challenger loses
        challenge_bid(table, 1)
    return table


def last_round_deck() -> list[str]:
    return [name for hand in FIVE_ROUNDS for name in hand] + [
        "teepee", "moon", "1", "1", "2", "2",
    ]  # fmt: skip


def test_the_teepee_draw_reshuffles_the_discard_when_the_draw_pile_is_empty() -> None:
    table = six_seat_table(last_round_deck())
    assert state(table).draw_pile == () and len(state(table).discard) == 30
    discard, cursor = state(table).discard, table.chance_cursor
    events = challenge_bid(table, 1)
    shuffle = events_of(events, DeckShuffled)[0]
    assert shuffle.reason == "draw-pile-empty" and shuffle.size == 30
    canonical = sorted(discard, key=lambda card: card.id)
    expected = tuple(Chance.for_game(SEED, GAME_ID, cursor=cursor).shuffle(canonical))
    assert shuffle.order == expected
    (drew,) = events_of(events, TeepeeDrew)
    assert drew.card == expected[0]
    # The cards in play stayed out of that shuffle; the Moon then reshuffles all 36.
    assert [event.reason for event in events_of(events, DeckShuffled)] == [
        "draw-pile-empty",
        "moon",
    ]


def test_dealing_reshuffles_the_discard_when_the_draw_pile_runs_out() -> None:
    # The Teepee in round 1 draws one card, so round 6 finds only five cards for six seats.
    first, *others = FIVE_ROUNDS
    order = ["teepee", *first[1:], first[0]]
    order += [name for hand in others for name in hand] + ["1", "1", "2", "2", "moon"]
    table = position(order[:6], tuple(order[6:]))
    events = []
    for _ in range(5):
        events = challenge_bid(table, 1)
    deals = events_of(events, CardDealt)
    shuffle = events_of(events, DeckShuffled)
    assert [event.seat for event in deals] == [0, 1, 2, 3, 4, 5]
    assert deals[4].card == pick("moon")[0]
    assert [event.reason for event in shuffle] == ["draw-pile-empty"]
    assert shuffle[0].size == 31  # the 36 cards minus the five dealt
    assert events.index(deals[4]) < events.index(shuffle[0]) < events.index(deals[5])
    assert shuffle[0].order is not None and deals[5].card == shuffle[0].order[0]

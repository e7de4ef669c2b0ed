"""The secret, simultaneous choice of cards for each hunt, the piles and the hands of three."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import ChooseCards, PlayCard
from referee.games.big_manitou.data import CARD_SET, HUNTERS, TILE_BAG, CardKind
from referee.games.big_manitou.events import CardsChosen, CardsDrawn, PileShuffled
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.state import State
from referee.kernel import Chance, NotYourTurn, RuleViolation, Table
from referee.kernel.piles import in_canonical_order

from .support import GAME_ID, SEED, act, new_table, play_randomly_until, state_of

NINE: tuple[CardKind, ...] = (
    "hunter-10",
    "hunter-9",
    "hunter-8",
    "chief",
    "chief",
    "squaw",
    "scout",
    "hunter-1",
    "hunter-2",
)


def three_players() -> Table:
    return new_table(3, Options(first_dealer=2))  # seat 0 chooses 9, seat 1 8, seat 2 7


def test_to_act_names_every_seat_still_choosing() -> None:
    table = three_players()
    act(table, 1, ChooseCards(cards=HUNTERS[:8]))
    assert table.to_act() == {0, 2}
    with pytest.raises(NotYourTurn):
        act(table, 1, ChooseCards(cards=HUNTERS[:8]))


def test_a_choice_stays_with_its_owner_until_all_are_in() -> None:
    table = three_players()
    [chosen] = act(table, 0, ChooseCards(cards=NINE))
    assert isinstance(chosen, CardsChosen)
    assert chosen.cards == in_canonical_order(NINE, CARD_SET)
    assert GAME.redact(chosen, 0) == chosen
    for other in (1, 2, None):
        assert GAME.redact(chosen, other).cards is None
        assert GAME.view(state_of(table), other).players[0].chosen is None
        assert GAME.view(state_of(table), other).players[0].has_chosen
    assert GAME.view(state_of(table), 0).players[0].chosen == chosen.cards


@pytest.mark.parametrize(
    ("seat", "cards", "rule"),
    [
        (0, HUNTERS[:8], "card-count"),
        (0, (*HUNTERS[:7], "chief", "chief", "chief"), "card-count"),
        (0, (*HUNTERS[:6], "chief", "chief", "chief"), "not-in-set"),
        (0, ("hunter-1",) * 9, "not-in-set"),
        (2, HUNTERS[:8], "card-count"),
        (1, (*HUNTERS[:7], "totem"), "not-in-set"),
    ],
)
def test_a_wrong_choice_is_refused_and_changes_nothing(
    seat: int, cards: tuple[CardKind, ...], rule: str
) -> None:
    table = three_players()
    before = table.state
    with pytest.raises(RuleViolation) as refusal:
        act(table, seat, ChooseCards(cards=cards))
    assert refusal.value.rule_id == f"big-manitou.{rule}"
    assert table.state == before


def test_cards_may_be_played_only_once_all_have_chosen() -> None:
    table = three_players()
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, PlayCard(card="hunter-1", ground=0))
    assert refusal.value.rule_id == "big-manitou.not-now"


def test_the_last_choice_shuffles_every_pile_and_deals_hands_of_three() -> None:
    table = three_players()
    act(table, 0, ChooseCards(cards=NINE))
    act(table, 2, ChooseCards(cards=HUNTERS[:7]))
    cursor = table.chance_cursor
    events = act(table, 1, ChooseCards(cards=(*HUNTERS[3:], "rain-maker")))
    piles = [e for e in events if isinstance(e, PileShuffled)]
    # Seat by seat, each chosen set in canonical order, shuffled with the game's chance.
    chance = Chance.for_game(SEED, GAME_ID, cursor=cursor)
    for pile in piles:
        chosen = state_of(table).chosen[pile.seat] or ()
        assert chosen == in_canonical_order(chosen, CARD_SET)
        assert pile.order == tuple(chance.shuffle(chosen))
    hands = [e for e in events if isinstance(e, CardsDrawn)]
    assert [p.seat for p in piles] == [0, 1, 2]
    assert [h.count for h in hands] == [3, 3, 3]
    state = state_of(table)
    for pile, hand in zip(piles, hands, strict=True):
        assert pile.order is not None and hand.cards == pile.order[:3]
        assert Counter(pile.order) == Counter(state.chosen[pile.seat] or ())
        assert state.players[pile.seat].hand == pile.order[:3]
        assert state.players[pile.seat].pile == pile.order[3:]
    assert table.to_act() == {0}  # the player on the dealer's left plays first


def test_the_pile_order_is_secret_even_from_its_owner_who_sees_only_their_hand() -> None:
    table = three_players()
    act(table, 0, ChooseCards(cards=NINE))
    act(table, 2, ChooseCards(cards=HUNTERS[:7]))
    events = act(table, 1, ChooseCards(cards=HUNTERS[2:]))
    for event in events:
        if isinstance(event, PileShuffled):
            assert all(GAME.redact(event, seat).order is None for seat in (0, 1, 2, None))
        if isinstance(event, CardsDrawn):
            assert GAME.redact(event, event.seat).cards == event.cards
            others = {0, 1, 2, None} - {event.seat}
            assert all(GAME.redact(event, seat).cards is None for seat in others)
    mine = GAME.view(state_of(table), 0).players[0]
    assert mine.hand is not None and mine.pile is not None
    assert Counter(mine.hand) + Counter(mine.pile) == Counter(NINE)
    assert mine.pile == in_canonical_order(mine.pile, CARD_SET)  # contents, not the order
    assert GAME.view(state_of(table), 1).players[0].hand is None
    assert GAME.view(state_of(table), 1).players[0].pile is None


def test_hunts_two_and_four_choose_from_the_cards_not_played_before() -> None:
    rng = random.Random(5)
    table = new_table(2, Options(first_dealer=1))
    played_in: dict[int, dict[int, list[str]]] = {}

    def record(state: State) -> None:
        played_in.setdefault(state.hunt, {})
        for seat in range(state.seats):
            played_in[state.hunt][seat] = [
                p.card for g in state.grounds for p in g.cards if p.owner == seat
            ]

    for hunt in (1, 2, 3):
        play_randomly_until(table, lambda s, h=hunt: s.strengths is not None and s.hunt == h, rng)
        record(state_of(table))
        play_randomly_until(table, lambda s, h=hunt: s.hunt == h + 1, rng)
        state = state_of(table)
        for seat in (0, 1):
            expected = played_in[hunt][seat] if hunt % 2 == 1 else []
            assert Counter(state.players[seat].unavailable) == Counter(expected)
    # In hunt 4 a card played in hunt 3 is refused.
    state = state_of(table)
    seat = min(table.to_act())
    size = state.cards_to_choose[seat]
    rest = list((Counter(CARD_SET) - Counter(state.players[seat].unavailable)).elements())
    banned = next(card for card in state.players[seat].unavailable if card not in rest)
    with pytest.raises(RuleViolation) as refusal:
        act(table, seat, ChooseCards(cards=(banned, *rest[: size - 1])))
    assert refusal.value.rule_id == "big-manitou.card-unavailable"
    assert len(rest) >= size  # 10 left, or 9 after a Totem holder's eighth card


def test_after_the_second_hunt_every_card_is_available_again() -> None:
    rng = random.Random(11)
    table = new_table(4)
    play_randomly_until(table, lambda s: s.hunt == 3, rng)
    state = state_of(table)
    assert all(player.unavailable == () for player in state.players)
    assert GAME.legal_commands(state, min(table.to_act()))  # the full set again: 13156 choices


def test_legal_choices_are_every_different_set_of_the_right_size() -> None:
    state = state_of(three_players())
    choices = GAME.legal_commands(state, 0)
    assert len(choices) == 13156  # coefficient of x^9 in (1+x)^13 (1+x+x^2)^2
    assert len(set(choices)) == len(choices)
    assert all(isinstance(c, ChooseCards) and len(c.cards) == 9 for c in choices)


def test_random_cards_variant_draws_each_hand_at_random_and_nobody_chooses() -> None:
    table = new_table(3, Options(random_cards=True, first_dealer=2))
    state = state_of(table)
    assert table.to_act() == {0}
    assert [len(c or ()) for c in state.chosen] == [9, 8, 7]
    assert [len(p.hand) for p in state.players] == [3, 3, 3]
    # BM-R10: after the bag, seat by seat, the available cards in canonical order are
    # shuffled and the first ones taken.
    chance = Chance.for_game(SEED, GAME_ID)
    chance.shuffle(TILE_BAG)
    for seat, count in enumerate((9, 8, 7)):
        drawn = chance.shuffle(CARD_SET)[:count]
        assert state.chosen[seat] == in_canonical_order(drawn, CARD_SET)
    another = state_of(new_table(3, Options(random_cards=True, first_dealer=2), seed=b"2"))
    assert another.chosen != state.chosen

"""The bots' view of Coyote (bots.py): the worlds a seat imagines, and what a state is worth."""

from __future__ import annotations

import random

import msgspec

from referee.games.coyote import GAME
from referee.games.coyote.bots import evaluate, imagine
from referee.games.coyote.data import DECK
from referee.games.coyote.state import State
from referee.kernel.bots import WIN

from .support import position, state

HEADS = ["5", "10", "cactus"]


def cards_of(world: State) -> list[int]:
    """Every card id the state holds: heads, draw pile, discard pile (no Teepee draw between
    commands)."""
    cards = [*world.draw_pile, *world.discard, *world.cards_in_play]
    return [card.id for card in cards]


def test_an_imagined_world_keeps_every_card_the_seat_sees_and_holds_the_whole_deck() -> None:
    real = state(position(HEADS))
    view = GAME.view(real, 0)
    for seed in range(10):
        world = imagine(view, 0, random.Random(seed))
        assert GAME.view(world, 0) == view
        assert world.hands[1:] == real.hands[1:]  # the heads seat 0 sees
        assert sorted(cards_of(world)) == sorted(card.id for card in DECK)


def test_the_seats_own_card_is_imagined_not_copied() -> None:
    view = GAME.view(state(position(HEADS)), 0)
    own_cards = {imagine(view, 0, random.Random(seed)).hands[0][0] for seed in range(30)}
    assert len(own_cards) > 5
    # Never one the seat sees on another head.
    assert not own_cards & {card for hand in view.seats[1:] for card in hand.cards}


def test_what_the_seat_cannot_see_changes_nothing_it_imagines() -> None:
    one, other = state(position(HEADS)), state(position(["20", *HEADS[1:]]))
    assert one.hands[0] != other.hands[0]
    assert GAME.view(one, 0) == GAME.view(other, 0)
    assert imagine(GAME.view(one, 0), 0, random.Random(4)) == imagine(
        GAME.view(other, 0), 0, random.Random(4)
    )


def test_feathers_ahead_are_worth_more_and_a_win_most() -> None:
    real = state(position(HEADS))
    ahead = msgspec.structs.replace(real, feathers=(3, 1, 2))
    level = msgspec.structs.replace(real, feathers=(2, 2, 2))
    behind = msgspec.structs.replace(real, feathers=(1, 3, 2))
    assert evaluate(ahead, 0) > evaluate(level, 0) > evaluate(behind, 0)
    won = msgspec.structs.replace(real, feathers=(1, 0, 0), winner=0, eliminated=(1, 2))
    assert evaluate(won, 0) == WIN and evaluate(won, 1) == -WIN

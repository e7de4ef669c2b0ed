"""The bots' view of Coyote (bots.py): the worlds a seat imagines, and what a state is worth."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.games.coyote import GAME
from referee.games.coyote.bots import evaluate, imagine
from referee.games.coyote.commands import Bid, Challenge
from referee.games.coyote.data import DECK
from referee.games.coyote.state import State
from referee.kernel.bots import WIN, play

from .support import play as play_command
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


# -- the greedy bot's bids ------------------------------------------------------------------------

# Seat 0's head is unseen by seat 0; the others total 5. No card seat 0 could hold makes more than
# 5 + 20 (a Chief there doubles 5): a bid above 25 is false in every world seat 0 can imagine.
FIVE_IN_SIGHT = ["10", "1", "4", "cactus"]
PLAUSIBLE = 25
SEEDS = range(8)


@pytest.mark.parametrize("shaman", [False, True])
def test_the_greedy_opening_bid_is_one_the_cards_in_sight_make_plausible(shaman: bool) -> None:
    real = state(position(FIVE_IN_SIGHT, shaman=shaman))
    for seed in SEEDS:
        command = play(GAME, "greedy", real, 0, random.Random(seed))
        assert isinstance(command, Bid) and command.number <= PLAUSIBLE, (seed, command)


@pytest.mark.parametrize("shaman", [False, True])
@pytest.mark.parametrize("feathers", [1, 3])
def test_the_greedy_bot_calls_coyote_on_a_bid_no_world_reaches(shaman: bool, feathers: int) -> None:
    """The issue's 535: with 5 in sight, a bid of 515 is called, never raised."""
    table = position(["1", "10", "4", "cactus"], starter=3, feathers=feathers, shaman=shaman)
    play_command(table, 3, Bid(number=515))
    for seed in SEEDS:
        command = play(GAME, "greedy", state(table), 0, random.Random(seed))
        assert command == Challenge(), (seed, command)


def test_the_greedy_bot_raises_a_bid_the_cards_reach_no_further_than_they_do() -> None:
    table = position(["10", "1", "4", "cactus"], starter=3)
    play_command(table, 3, Bid(number=3))
    for seed in SEEDS:
        command = play(GAME, "greedy", state(table), 0, random.Random(seed))
        assert command == Challenge() or (
            isinstance(command, Bid) and command.number <= PLAUSIBLE
        ), (seed, command)


def test_a_standing_bid_the_cards_fall_short_of_costs_its_bidder_a_feather() -> None:
    table = position(["1", "10", "4", "cactus"], starter=3)
    before = evaluate(state(table), 3)
    play_command(table, 3, Bid(number=16))  # the heads total 15
    assert evaluate(state(table), 3) == pytest.approx(before - 1)
    reached = position(["1", "10", "4", "cactus"], starter=3)
    play_command(reached, 3, Bid(number=15))
    assert evaluate(state(reached), 3) == pytest.approx(before)


def test_a_bid_that_would_cost_the_last_feather_is_a_lost_game() -> None:
    table = position(["1", "10", "4", "cactus"], starter=3, feathers=1)
    play_command(table, 3, Bid(number=16))
    assert evaluate(state(table), 3) == -WIN

"""The bots' two functions (bots.py): an imagined world keeps what the seat sees and deals the
rest from the components that could be there; evaluate scores by victory points (BM-3)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from referee.games.big_manitou import GAME
from referee.games.big_manitou.bots import evaluate, imagine
from referee.games.big_manitou.data import CARD_SET, TILE_BAG, TileKind
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.stages import Stage, stage
from referee.games.big_manitou.state import Player, State
from referee.kernel.bots import WIN
from referee.kernel.piles import contains

from .support import (
    hold_tiles,
    new_table,
    play_randomly_until,
    plays,
    state_of,
    two_player_hunt,
)


def mid_hunt(seats: int = 3, seed: int = 1) -> State:
    """A hunt some cards into its rounds of play, reached by random legal commands."""
    table = new_table(seats)
    rng = random.Random(seed)
    play_randomly_until(table, lambda s: stage(s) is Stage.PLAYING and s.turn >= seats + 1, rng)
    return state_of(table)


def played_by(state: State, seat: int) -> list[str]:
    return [
        placed.card for ground in state.grounds for placed in ground.cards if placed.owner == seat
    ]


def tiles_everywhere(state: State) -> Counter[TileKind]:
    return Counter(
        [
            *state.bag,
            *state.removed,
            *(tile for ground in state.grounds for tile in ground.tiles),
            *(tile for player in state.players for tile in player.tiles),
        ]
    )


def test_an_imagined_world_keeps_what_the_seat_sees_and_holds_every_component() -> None:
    real = mid_hunt()
    for seat in range(real.seats):
        view = GAME.view(real, seat)
        world = imagine(view, seat, random.Random(seat))
        assert GAME.view(world, seat) == view
        assert world.players[seat].hand == real.players[seat].hand
        assert world.grounds == real.grounds
        assert tiles_everywhere(world) == Counter(TILE_BAG)
        for other, player in enumerate(world.players):
            cards = [*played_by(world, other), *player.hand, *(player.pile or ())]
            chosen = world.chosen[other]
            assert chosen is not None and Counter(cards) == Counter(chosen)
            assert contains(CARD_SET, [*chosen, *player.unavailable])


def test_what_the_seat_cannot_see_is_dealt_differently_by_different_seeds() -> None:
    real = mid_hunt()
    view = GAME.view(real, 0)
    worlds = [imagine(view, 0, random.Random(seed)) for seed in range(12)]
    assert len({world.bag for world in worlds}) > 1
    assert len({world.players[1].hand for world in worlds}) > 1
    assert len({world.players[0].pile for world in worlds}) > 1  # its order: secret to its owner
    assert any(world.players[1] != real.players[1] for world in worlds)


def test_an_imagined_world_depends_on_the_view_alone() -> None:
    real = mid_hunt()
    # The same view for seat 0: the bag in another order, seat 1's hand and pile exchanged.
    other = real.players[1]
    cards = (*other.hand, *(other.pile or ()))
    swapped = Player(
        unavailable=other.unavailable,
        tiles=other.tiles,
        hand=cards[-len(other.hand) :],
        pile=cards[: -len(other.hand)],
    )
    hidden = msgspec.structs.replace(
        real, bag=real.bag[::-1], players=(real.players[0], swapped, *real.players[2:])
    )
    assert hidden.players[1].hand != real.players[1].hand and hidden.bag != real.bag
    assert GAME.view(hidden, 0) == GAME.view(real, 0)
    assert imagine(GAME.view(hidden, 0), 0, random.Random(9)) == imagine(
        GAME.view(real, 0), 0, random.Random(9)
    )


def test_every_choice_made_unseen_is_imagined_and_the_random_cards_variant_too() -> None:
    for options in (Options(), Options(random_cards=True)):
        table = new_table(3, options)
        rng = random.Random(4)
        for _ in range(40):
            state = state_of(table)
            for seat in range(3):
                view = GAME.view(state, seat)
                world = imagine(view, seat, rng)
                assert GAME.view(world, seat) == view
                assert GAME.legal_commands(world, seat) == GAME.legal_commands(state, seat)
            play_randomly_until(table, lambda s, before=state: s != before, rng)


def test_more_victory_points_are_worth_more_and_a_won_game_most() -> None:
    table = two_player_hunt(["hunter-1"], ["hunter-2"])
    hold_tiles(table, {0: ("tepee-2", "buffalo-3"), 1: ("tepee-1",)})
    ahead = state_of(table)
    hold_tiles(table, {0: ("tepee-1",), 1: ("tepee-2", "buffalo-3")})
    behind = state_of(table)
    assert evaluate(ahead, 0) > 0 > evaluate(behind, 0)
    assert evaluate(msgspec.structs.replace(ahead, finished=True), 0) == WIN


def test_booty_in_prospect_counts_a_ground_won_as_the_cards_stand() -> None:
    grounds = [("tepee-3", "buffalo-3", "tomahawk", "tomahawk"), ("totem",), ("horse",)]
    table = two_player_hunt(["hunter-10"], ["hunter-1"], grounds=grounds)
    before = evaluate(state_of(table), 0)
    plays(table, (0, "hunter-10", 0))
    assert evaluate(state_of(table), 0) > before  # the best Hunters take the Tepee and Buffalo

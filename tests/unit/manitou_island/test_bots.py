"""The bots' two functions (bots.py): an imagined world keeps what the seat sees and deals the
rest from the cards that could be there; evaluate scores each team's largest island (MI-6)."""

from __future__ import annotations

import random

import msgspec

from referee.games.manitou_island import GAME
from referee.games.manitou_island.bots import evaluate, imagine
from referee.games.manitou_island.commands import PlayLand
from referee.games.manitou_island.data import LAND_CARD_IDS, SPECIALTY_BY_ID, SPECIALTY_CARDS
from referee.games.manitou_island.scoring import game_result
from referee.games.manitou_island.state import SpecialtyCardState, State
from referee.kernel.bots import WIN

from .support import (
    count_land_cards,
    day,
    fresh_specialty,
    land,
    night,
    open_game,
    play,
    position,
    state_of,
    whirlpool,
)

HAND = (day(3), day(5, 1), night(5), night(3), night(7))
OTHER = (day(1), night(1), day(8), night(8), day(10))


def some_turns_in(seats: int, turns: int = 6) -> State:
    """A game a few land cards in, each the first placement listed."""
    table, _ = open_game(seats)
    for _ in range(turns):
        seat = min(table.to_act())
        first_land = next(
            c for c in GAME.legal_commands(table.state, seat) if isinstance(c, PlayLand)
        )
        play(table, seat, first_land)
    return state_of(table)


def test_an_imagined_world_keeps_what_the_seat_sees_and_holds_every_card() -> None:
    for seats in (2, 4):
        real = some_turns_in(seats)
        for seat in range(seats):
            view = GAME.view(real, seat)
            world = imagine(view, seat, random.Random(seat))
            assert GAME.view(world, seat) == view
            assert world.hands[seat] == real.hands[seat] and world.board == real.board
            assert count_land_cards(world) == sorted(LAND_CARD_IDS)
            for team in world.specialty:
                assert sorted(card.card for card in team) == sorted(c.id for c in SPECIALTY_CARDS)


def test_what_the_seat_cannot_see_is_dealt_differently_by_different_seeds() -> None:
    real = some_turns_in(4)
    view = GAME.view(real, 0)
    worlds = [imagine(view, 0, random.Random(seed)) for seed in range(12)]
    assert len({world.pile for world in worlds}) > 1
    for other in (1, 2, 3):  # the teammate's hand is as hidden as the opponents'
        assert len({world.hands[other] for world in worlds}) > 1


def test_the_other_teams_played_face_is_given_a_card_that_carries_it() -> None:
    # Seat 1 (night) played a whirlpool: two of its cards carry one.
    night_cards = (
        SpecialtyCardState(
            card="whirlpool-lighthouse", played_face="whirlpool", at=whirlpool(1, 0).at
        ),
        *fresh_specialty()[1:],
    )
    table = position(
        [whirlpool(1, 0), land(2, -1, day(5))],
        hands=(HAND, OTHER),
        specialty=(fresh_specialty(), night_cards),
    )
    view = GAME.view(state_of(table), 0)
    guesses = set()
    for seed in range(12):
        world = imagine(view, 0, random.Random(seed))
        assert GAME.view(world, 0) == view
        [played] = [card for card in world.specialty[1] if card.played_face is not None]
        assert played.played_face == "whirlpool" and played.at == whirlpool(1, 0).at
        assert "whirlpool" in SPECIALTY_BY_ID[played.card].faces
        guesses.add(played.card)
    assert guesses == {"whirlpool-lighthouse", "bridge-whirlpool"}


def test_an_imagined_world_depends_on_the_view_alone() -> None:
    real = some_turns_in(2)
    # The same view for seat 0: seat 1's hand exchanged with the top of the pile, which is
    # then put in another order.
    size = len(real.hands[1])
    cards = (*real.pile[:size], *real.hands[1], *real.pile[size:])
    hidden = msgspec.structs.replace(
        real, hands=(real.hands[0], cards[:size]), pile=tuple(reversed(cards[size:]))
    )
    assert hidden.hands[1] != real.hands[1] and hidden.pile != real.pile
    assert GAME.view(hidden, 0) == GAME.view(real, 0)
    assert imagine(GAME.view(hidden, 0), 0, random.Random(3)) == imagine(
        GAME.view(real, 0), 0, random.Random(3)
    )


def test_the_team_with_the_larger_island_is_worth_more_to_both_its_seats() -> None:
    day_ahead = [land(1, 0, day(9)), land(2, 0, day(8)), land(0, 1, night(2))]
    night_ahead = [land(1, 0, night(9)), land(2, 0, night(8)), land(0, 1, day(2))]
    hands = ((day(1),), (night(1),), (day(3),), (night(3),))
    ahead = state_of(position(day_ahead, hands=hands))
    behind = state_of(position(night_ahead, hands=hands))
    for seat in (0, 2):  # team 0 holds day: seat 0 plays first
        assert evaluate(ahead, seat) > 0 > evaluate(behind, seat)
    assert evaluate(ahead, 1) == evaluate(ahead, 3) == -evaluate(ahead, 0)
    over = msgspec.structs.replace(ahead, stage="over", results=(game_result(ahead, None),))
    assert [evaluate(over, seat) for seat in range(4)] == [WIN, -WIN, WIN, -WIN]

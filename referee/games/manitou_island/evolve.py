"""`evolve`, the fold: a new state with one event applied. No randomness and no decisions here."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from referee.games.manitou_island.board import cells_with_land, with_specialty
from referee.games.manitou_island.data import SPECIALTY_CARDS
from referee.games.manitou_island.events import (
    Event,
    FirstPlayerDrawn,
    GameDealt,
    GameEnded,
    LandDrawn,
    LandPlayed,
    SpecialtyPlayed,
)
from referee.games.manitou_island.state import (
    Cell,
    SpecialtyCardState,
    State,
    board_map,
    colour_of_seat,
    team_of,
)
from referee.kernel.seating import next_seat, with_seat


def evolve(state: State, event: Event) -> State:
    match event:  # the most frequent first: a long game's fold tries them in this order
        case LandPlayed():
            return _land_played(state, event)
        case LandDrawn():
            return _land_drawn(state, event)
        case SpecialtyPlayed():
            return _specialty_played(state, event)
        case FirstPlayerDrawn():
            return _first_player_drawn(state, event)
        case GameDealt():
            return _dealt(state, event)
        case GameEnded():
            return _game_ended(state, event)
    assert_never(event)


def _first_player_drawn(state: State, event: FirstPlayerDrawn) -> State:
    same_game = event.game == state.game and state.stage == "dealing"
    rounds = (*state.first_draws, event.draws) if same_game else (event.draws,)
    return replace(state, stage="dealing", game=event.game, first_draws=rounds)


def _dealt(state: State, event: GameDealt) -> State:
    if event.pile is None or any(hand is None for hand in event.hands):
        raise ValueError("a redacted deal cannot be folded")
    fresh = tuple(SpecialtyCardState(card=card.id) for card in SPECIALTY_CARDS)
    specialty = (fresh, fresh) if state.options.specialty_cards else ((), ())
    return replace(
        state,
        stage="start-of-turn",
        game=event.game,
        first_seat=event.first_seat,
        turn_seat=event.first_seat,
        origin=event.origin,
        hands=tuple(hand or () for hand in event.hands),
        pile=event.pile,
        board=(Cell(at=event.origin, content="origin"),),
        specialty=specialty,
    )


def _specialty_played(state: State, event: SpecialtyPlayed) -> State:
    if event.card is None:
        raise ValueError("a redacted specialty card cannot be folded")
    colour = colour_of_seat(state, event.seat)
    board = with_specialty(board_map(state), event.face, event.at, colour, event.flooded)
    team = team_of(event.seat)
    cards = tuple(
        replace(card, played_face=event.face, at=event.at) if card.card == event.card else card
        for card in state.specialty[team]
    )
    specialty = tuple(cards if index == team else own for index, own in enumerate(state.specialty))
    return replace(
        state, stage="specialty-played", board=tuple(board.values()), specialty=specialty
    )


def _land_played(state: State, event: LandPlayed) -> State:
    hand = state.hands[event.seat]
    try:
        at = hand.index(event.card)  # card ids are unique: the one copy
    except ValueError:  # decide refuses it (card-not-in-hand): a forged event
        raise ValueError(f"land card {event.card} is not in seat {event.seat}'s hand") from None
    hand = hand[:at] + hand[at + 1 :]
    return replace(
        state,
        stage="start-of-turn",
        turn_seat=next_seat(event.seat, range(state.seats), state.seats),
        hands=_with_hand(state, event.seat, hand),
        board=cells_with_land(state.board, event.card, event.at, event.flooded),
    )


def _land_drawn(state: State, event: LandDrawn) -> State:
    if event.card is None:
        raise ValueError("a redacted draw cannot be folded")
    if not state.pile or state.pile[0] != event.card:  # a forged event: the draw is the top
        raise ValueError(f"land card {event.card} is not the top of the pile")
    hands = _with_hand(state, event.seat, (*state.hands[event.seat], event.card))
    return replace(state, hands=hands, pile=state.pile[1:])


def _game_ended(state: State, event: GameEnded) -> State:
    return replace(
        state,
        stage="over" if event.match_over else "dealing",
        totals=event.totals,
        results=(*state.results, event.result),
    )


def _with_hand(state: State, seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return with_seat(state.hands, seat, hand)

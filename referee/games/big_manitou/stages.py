"""Where a hunt stands, read from the state alone, and who may act there.

A hunt runs: choose cards, deal, seven rounds of play, the Totem's eighth card, the Horse's
move, the Leather Thief (who is paid before the evaluation from the second hunt on, BM-5),
the evaluation of the three grounds one pick at a time, the Leather Thief's first-hunt penalty,
the end of the hunt. Stages the referee settles itself are marked automatic.
"""

from __future__ import annotations

import enum
from typing import Literal

from referee.games.big_manitou.data import GROUNDS, PLAYS_PER_HUNT
from referee.games.big_manitou.heroes import is_hero, may_place
from referee.games.big_manitou.state import State
from referee.kernel.contract import Seat
from referee.kernel.simultaneous import all_in, waiting_for

Phase = Literal[
    "next-hunt",
    "choosing",
    "dealing",
    "playing",
    "eighth-card",
    "horse-move",
    "thief-strikes",
    "leather-thief",
    "evaluation-begins",
    "ground-evaluation",
    "picking",
    "ground-closing",
    "hunt-ending",
    "over",
]


class Stage(enum.Enum):
    NEXT_HUNT = "next-hunt"  # automatic
    CHOOSING = "choosing"  # automatic in the random-cards variant
    DEALING = "dealing"  # automatic
    PLAYING = "playing"
    EIGHTH_CARD = "eighth-card"
    HORSE_MOVE = "horse-move"
    THIEF_STRIKES = "thief-strikes"  # automatic
    PENALTY = "leather-thief"
    EVALUATION_BEGINS = "evaluation-begins"  # automatic
    GROUND_EVALUATION = "ground-evaluation"  # automatic
    PICKING = "picking"
    GROUND_CLOSING = "ground-closing"  # automatic
    HUNT_ENDING = "hunt-ending"  # automatic
    OVER = "over"

    @property
    def phase(self) -> Phase:
        """The name a view shows. Automatic stages only show in the views of past events."""
        phase: Phase = self.value
        return phase


def stage(state: State) -> Stage:
    if state.finished:
        return Stage.OVER
    if not state.in_hunt:
        return Stage.NEXT_HUNT
    if not all_in(state.chosen):
        return Stage.CHOOSING
    if any(player.pile is None for player in state.players):
        return Stage.DEALING
    if state.turn < PLAYS_PER_HUNT * state.seats:
        return Stage.PLAYING
    if state.strengths is None:  # the cylinders' privileges come before the hunt's result
        if eighth_card_open(state):
            return Stage.EIGHTH_CARD
        if horse_move_open(state):
            return Stage.HORSE_MOVE
        return Stage.THIEF_STRIKES
    if state.tomahawk_bonus is None:
        if state.hunt > 1 and penalty_owed(state):
            return Stage.PENALTY
        return Stage.EVALUATION_BEGINS
    if state.evaluating < GROUNDS:
        if state.picks is None:
            return Stage.GROUND_EVALUATION
        return Stage.PICKING if state.picks else Stage.GROUND_CLOSING
    if state.hunt == 1 and penalty_owed(state):
        return Stage.PENALTY
    return Stage.HUNT_ENDING


def to_act(state: State) -> frozenset[Seat]:
    current = stage(state)
    if current is Stage.CHOOSING:
        return waiting_for(state.chosen)
    if current is Stage.PLAYING:
        return frozenset({state.current})
    if current is Stage.EIGHTH_CARD and state.totem_holder is not None:
        return frozenset({state.totem_holder})
    if current is Stage.HORSE_MOVE and state.horse_holder is not None:
        return frozenset({state.horse_holder})
    if current is Stage.PENALTY:
        return frozenset(penalty_owed(state))
    if current is Stage.PICKING and state.picks:
        return frozenset({state.picks[0].seat})
    return frozenset()


def playable(state: State, seat: Seat) -> list[tuple[int, int]]:
    """(hand index, ground) for every card in `seat`'s hand and every ground it may go to."""
    hand = state.players[seat].hand
    return [
        (index, ground)
        for index, card in enumerate(hand)
        if card not in hand[:index]
        for ground in range(GROUNDS)
        if may_place(state.grounds[ground], seat, card)
    ]


def eighth_card_open(state: State) -> bool:
    """The Totem holder may still play an eighth card, and has one they may play."""
    holder = state.totem_holder
    return holder is not None and not state.totem_resolved and bool(playable(state, holder))


def horse_move_open(state: State) -> bool:
    """The Horse holder may still move a Hunter, and has one in a ground."""
    holder = state.horse_holder
    return (
        holder is not None
        and not state.horse_resolved
        and any(
            placed.owner == holder and not is_hero(placed.card)
            for ground in state.grounds
            for placed in ground.cards
        )
    )


def penalty_owed(state: State) -> tuple[Seat, ...]:
    """The Leather Thief's victims who have not paid yet and hold a tile to pay with."""
    return tuple(
        seat
        for seat in state.thief_victims
        if seat not in state.thief_paid and state.players[seat].tiles
    )

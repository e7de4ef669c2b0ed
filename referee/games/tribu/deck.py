"""The draw pile and the discard pile: where a card may be drawn from, and whether a Diorama
is left in them (TR-11)."""

from __future__ import annotations

from referee.games.tribu.data import family
from referee.games.tribu.state import State


def may_draw_from_pile(state: State) -> bool:
    """The draw pile has a card, or the discard pile has more than its top to rebuild it with."""
    return bool(state.draw_pile) or len(state.discard) > 1


def may_draw_from_discard(state: State) -> bool:
    """Only a Diorama card may be taken from the discard pile, from its top, and only one that
    was discarded there (TR-R13): a card put under the pile is not, even once it is on top."""
    return state.discarded > 0 and family(state.discard[0]) == "diorama"


def dioramas_left(state: State) -> bool:
    """Whether the draw pile or the discard pile still holds a Diorama card."""
    return any(family(card) == "diorama" for card in (*state.draw_pile, *state.discard))

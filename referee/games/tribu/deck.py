"""The draw pile and the discard pile: drawing, and rebuilding the draw pile (TR-10, TR-11)."""

from __future__ import annotations

from referee.games.tribu.data import DECK, family
from referee.games.tribu.events import CardDrawn, DrawPileRebuilt, Event
from referee.games.tribu.evolve import evolve
from referee.games.tribu.state import State
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat
from referee.kernel.piles import shuffled


def may_draw_from_pile(state: State) -> bool:
    """The draw pile has a card, or the discard pile has more than its top to rebuild it with."""
    return bool(state.draw_pile) or len(state.discard) > 1


def may_draw_from_discard(state: State) -> bool:
    """Only a Diorama card may be taken from the discard pile, from its top."""
    return bool(state.discard) and family(state.discard[0]) == "diorama"


def dioramas_left(state: State) -> bool:
    """Whether the draw pile or the discard pile still holds a Diorama card."""
    return any(family(card) == "diorama" for card in (*state.draw_pile, *state.discard))


def draw_from_pile(state: State, seat: Seat, count: int, chance: Chance) -> list[Event]:
    """`count` cards off the draw pile for `seat`. An empty draw pile is rebuilt from the
    discard pile, all but its top card, shuffled from the canonical order (TR-11); when even
    that leaves nothing, fewer cards are drawn (TR-10)."""
    events: list[Event] = []
    for _ in range(count):
        if not state.draw_pile:
            if len(state.discard) <= 1:
                break
            order = shuffled(chance, state.discard[1:], DECK)
            rebuilt = DrawPileRebuilt(rebuild=state.rebuilds + 1, order=order, size=len(order))
            events.append(rebuilt)
            state = evolve(state, rebuilt)
        drawn = CardDrawn(seat=seat, source="draw-pile", card=state.draw_pile[0])
        events.append(drawn)
        state = evolve(state, drawn)
    return events

"""Drawing and dealing, with every chance outcome written into an event.

A `Script` collects the events of one decision and folds each as it is written, so that a later
step (the next card off the pile, the next round's starter) sees the state the earlier ones made.
"""

from __future__ import annotations

from referee.games.coyote.data import DECK, Card
from referee.games.coyote.events import CardDealt, DeckShuffled, Event, RoundStarted, ShuffleReason
from referee.games.coyote.evolve import evolve
from referee.games.coyote.state import State
from referee.kernel import piles
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat


class Script:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def shuffled(state: State, chance: Chance, reason: ShuffleReason) -> DeckShuffled:
    """The draw and discard piles shuffled into a new draw pile, from the canonical order."""
    order = piles.shuffled(chance, state.draw_pile + state.discard, DECK)
    return DeckShuffled(reason=reason, size=len(order), order=order)


def top_card(script: Script, chance: Chance) -> Card:
    """The card a draw will take; an empty draw pile is first rebuilt from the discard (CY-7)."""
    if not script.state.draw_pile:
        script.emit(shuffled(script.state, chance, "draw-pile-empty"))
    if not script.state.draw_pile:
        # Unreachable: at most 13 of the 36 cards are ever in play (6 heads, 6 extra cards,
        # the Teepee's draw), so the two piles always hold at least 23.
        raise RuntimeError("no card left to draw")
    return script.state.draw_pile[0]


def deal(script: Script, chance: Chance, seat: Seat, *, extra: bool = False) -> None:
    script.emit(CardDealt(seat=seat, card=top_card(script, chance), extra=extra))


def start_round(script: Script, chance: Chance, starter: Seat) -> None:
    """A new round: one card to each seat in play, in seat order."""
    script.emit(RoundStarted(round=script.state.round + 1, starter=starter))
    for seat in sorted(script.state.in_play):
        deal(script, chance, seat)

"""Who acts now. Coyote has one kind of decision: the seat in turn bids or answers the bid
(after a Cancel, the bidder must bid again: `checks.rebid_pending`), so `state.turn` is all the
stage there is."""

from __future__ import annotations

from referee.games.coyote.state import State
from referee.kernel.contract import Seat


def to_act(state: State) -> frozenset[Seat]:
    if state.winner is not None or state.turn is None:
        return frozenset()
    return frozenset((state.turn,))

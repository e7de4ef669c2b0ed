"""The end: the last player with feathers wins; the others rank by how long they lasted."""

from __future__ import annotations

from referee.games.coyote.state import State
from referee.kernel.contract import Outcome


def outcome(state: State) -> Outcome:
    if state.winner is None:
        return Outcome(finished=False)
    # Later out ranks better: the winner, then the eliminated seats from the last out.
    ranking = ((state.winner,), *((seat,) for seat in reversed(state.eliminated)))
    return Outcome(finished=True, winners=(state.winner,), ranking=ranking)

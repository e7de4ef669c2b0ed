"""The opening: the deck shuffled, the first player drawn, the first round dealt."""

from __future__ import annotations

from referee.games.coyote.dealing import Script, shuffled, start_round
from referee.games.coyote.events import Event
from referee.games.coyote.options import Options
from referee.games.coyote.state import initial_state
from referee.kernel.chance import Chance


def setup(options: Options, seats: int, chance: Chance) -> list[Event]:
    """Shuffle the deck, draw the first player (our ruling CY-R1), deal the first round."""
    state = initial_state(options, seats)
    script = Script(state)
    script.emit(shuffled(state, chance, "setup"))
    start_round(script, chance, chance.uniform(state.seats))
    return script.events

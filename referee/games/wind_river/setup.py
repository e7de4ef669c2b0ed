"""The opening: the start player, drawn by chance (section 3). Nothing else is random."""

from __future__ import annotations

from referee.games.wind_river.events import Event, StartPlayerDrawn
from referee.games.wind_river.options import Options
from referee.kernel.chance import Chance


def setup(options: Options, seats: int, chance: Chance) -> list[Event]:
    """The start player is the game's first draw: uniform(number of players)."""
    return [StartPlayerDrawn(seat=chance.uniform(seats))]

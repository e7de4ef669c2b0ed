"""The opening (TR-2, TR-12): the leaders, then the first player; the referee then deals the
first challenge (flow.py)."""

from __future__ import annotations

from referee.games.tribu.data import LEADERS
from referee.games.tribu.events import Event, LeadersDrawn, TribuFirstPlayerDrawn
from referee.games.tribu.options import Options
from referee.kernel.chance import Chance


def setup(options: Options, seats: int, chance: Chance) -> list[Event]:
    """The four leader cards shuffled from their canonical order, the first to seat 0, the next
    to seat 1, ...; then the first player, `uniform(seats)`."""
    leaders = chance.shuffle(LEADERS)[:seats]
    return [LeadersDrawn(leaders=tuple(leaders)), TribuFirstPlayerDrawn(seat=chance.uniform(seats))]

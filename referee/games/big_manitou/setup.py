"""The opening: the bag of tiles shuffled (BM-2, from its canonical order).

What follows (the first dealer, drawn unless the options name one, BM-R1, and the first hunt) is
the referee's own first step, `flow.next_hunt`, chained by game.py like every step.
"""

from __future__ import annotations

from referee.games.big_manitou.data import TILE_BAG
from referee.games.big_manitou.events import BagFilled, Event
from referee.games.big_manitou.options import Options
from referee.kernel.chance import Chance
from referee.kernel.piles import shuffled


def setup(options: Options, seats: int, chance: Chance) -> list[Event]:
    return [BagFilled(order=shuffled(chance, TILE_BAG, TILE_BAG))]

"""The environments' action space (referee/envs): bounds the command types leave open, and the
reward read from the game's scoring. The table of indices is in RULES.md, "Actions"."""

from referee.envs.bounds import ActionBounds
from referee.games.manitou_island.data import LAND_CARDS

# Axial coordinates: the largest bordered table (40 by 40) spans q -19..39 and r 0..39; an
# unbounded one grows from the origin by at most one space a card (40 land cards, 6 specialty).
COORDINATE = range(-64, 65)

ACTIONS = ActionBounds(
    ints={
        "manitou-island.play-land.card": range(len(LAND_CARDS)),
        "manitou-island.play-land.at.q": COORDINATE,
        "manitou-island.play-land.at.r": COORDINATE,
        "manitou-island.play-specialty.at.q": COORDINATE,
        "manitou-island.play-specialty.at.r": COORDINATE,
    },
    reward="Both seats of the team that wins (the match, with match play; else the round) "
    "place first, the other team's second; a tie places everyone together.",
    score="The seat's team's points: the match total with match play, else the round's.",
)

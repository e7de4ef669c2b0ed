"""The environments' action space (referee/envs): bounds the command types leave open, and the
reward read from the game's scoring. The table of indices is in RULES.md, "Actions"."""

from referee.envs.bounds import ActionBounds
from referee.games.tribu.game import GAME

SEATS = range(GAME.max_seats)

ACTIONS = ActionBounds(
    ints={"tribu.attack.seat": SEATS, "tribu.block.seat": SEATS, "tribu.steal.seat": SEATS},
    reward="Players are placed by their points at the end (a tie that stands shares its place).",
    score="The player's points at the end.",
)

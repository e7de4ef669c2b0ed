"""The environments' action space (referee/envs): bounds the command types leave open, and the
reward read from the game's scoring. The table of indices is in RULES.md, "Actions"."""

from referee.envs.bounds import ActionBounds
from referee.games.coyote.game import GAME

ACTIONS = ActionBounds(
    ints={"coyote.bid.target": range(GAME.max_seats)},
    reward="The last player with feathers left wins; the others are placed by when they lost "
    "their last feather (the later, the better).",
    score=None,  # no score is kept: feathers only say who is still in
)

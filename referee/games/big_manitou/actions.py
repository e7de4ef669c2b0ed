"""The environments' action space (referee/envs): bounds the command types leave open, and the
reward read from the game's scoring. The table of indices is in RULES.md, "Actions"."""

from referee.envs.bounds import ActionBounds

ACTIONS = ActionBounds(
    ints={},  # every field of every command is bounded by its type
    reward="Players are placed by victory points after the last hunt; a tie goes to the most "
    "Tepees shown, then the most tiles, else the place is shared.",
    score="The player's victory points after the last hunt.",
)

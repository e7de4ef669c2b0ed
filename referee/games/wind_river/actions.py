"""The environments' action space (referee/envs): bounds the command types leave open, and the
reward read from the game's scoring. The table of indices is in RULES.md, "Actions"."""

from referee.envs.bounds import ActionBounds

ACTIONS = ActionBounds(
    ints={},  # every field of every command is bounded by its type
    reward="Players are placed by teepees in the open plains, then by resources in stock (a tie "
    "that stands shares its place).",
    score="The player's teepees in the open plains (often 0 for every player in random play).",
)

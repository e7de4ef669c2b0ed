"""The generic kernel: the game contract, chance, the table that runs a game, the registry."""

from referee.kernel.chance import Chance, NoChance, commitment, new_seed
from referee.kernel.contract import Game, NoLegalCommand, Outcome, RuleViolation, Seat
from referee.kernel.lifecycle import GameCreated, KernelEvent, SeedRevealed
from referee.kernel.registry import Codec, Registry, UnknownKind
from referee.kernel.table import GameOver, NotYourTurn, Played, Table

__all__ = [
    "Chance",
    "Codec",
    "Game",
    "GameCreated",
    "GameOver",
    "KernelEvent",
    "NoChance",
    "NoLegalCommand",
    "NotYourTurn",
    "Outcome",
    "Played",
    "Registry",
    "RuleViolation",
    "Seat",
    "SeedRevealed",
    "Table",
    "UnknownKind",
    "commitment",
    "new_seed",
]

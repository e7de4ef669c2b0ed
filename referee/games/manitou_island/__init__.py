"""Manitou, the island card game: 40 hexagonal land cards around an origin card (MI-1..MI-7)."""

from referee.games.manitou_island.game import GAME, KIND, VERSION, ManitouIsland

__all__ = ["GAME", "KIND", "VERSION", "ManitouIsland"]

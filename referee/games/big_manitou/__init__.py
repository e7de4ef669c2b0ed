"""Manitou, the hunting card game (Big Manitou, Günter Burkhardt; What's Your Game? 2005):
2 to 5 players."""

from referee.games.big_manitou.game import GAME

__all__ = ["GAME"]

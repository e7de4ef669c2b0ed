"""Coyote (Spartaco Albertarelli; the Tilsit edition): bluff about the sum of the cards everyone
sees but you. 3 to 6 players."""

from referee.games.coyote.game import GAME

__all__ = ["GAME"]

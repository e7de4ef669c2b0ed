"""Coyote (Spartaco Albertarelli): bluff about the sum of the cards everyone sees but you."""

from referee.games.coyote.game import Coyote

GAME = Coyote()

__all__ = ["GAME", "Coyote"]

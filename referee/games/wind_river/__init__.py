"""Wind River (Dirk Liekens, Argentum Verlag 2008): teepees follow the buffalo east; 3-4 players."""

from referee.games.wind_river.game import GAME

__all__ = ["GAME"]

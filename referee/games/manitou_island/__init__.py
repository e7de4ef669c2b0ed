"""Manitou, the island card game (Manitou Gameworks): 40 hexagonal land cards around an origin
card (MI-1..MI-7). 2 players, or 4 in two teams."""

from referee.games.manitou_island.game import GAME

__all__ = ["GAME"]

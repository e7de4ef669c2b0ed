"""Tribù (Tribu Indiani, Sergio Fersini, Serfer Giochi): chains of tribe characters; 2-4 players."""

from referee.games.tribu.game import GAME

__all__ = ["GAME"]

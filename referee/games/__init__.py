"""The registry of games: one package per game, each exposing GAME."""

from referee.kernel.registry import Registry

REGISTRY = Registry([])

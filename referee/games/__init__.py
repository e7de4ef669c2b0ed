"""The registry of games: one package per game, each exposing GAME (its newest rules version).
A kind's older rules versions stay registered, before the newest, for the games recorded under
them (referee/kernel/registry.py)."""

from referee.games import big_manitou, coyote, manitou_island, tribu, wind_river
from referee.games.tribu.game import GAME_1 as TRIBU_1
from referee.kernel.registry import Registry

REGISTRY = Registry(
    [coyote.GAME, manitou_island.GAME, big_manitou.GAME, wind_river.GAME, TRIBU_1, tribu.GAME]
)

"""The registry of games: one package per game, each exposing GAME."""

from referee.games import big_manitou, coyote, manitou_island, tribu, wind_river
from referee.kernel.registry import Registry

REGISTRY = Registry(
    [coyote.GAME, manitou_island.GAME, big_manitou.GAME, wind_river.GAME, tribu.GAME]
)

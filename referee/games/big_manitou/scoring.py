"""The end of the game: victory points (BM-3), the ranking, the outcome."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.big_manitou.booty import counts_of, pairs, tepees
from referee.games.big_manitou.data import TileKind
from referee.games.big_manitou.state import State
from referee.kernel.contract import Outcome


def victory_points(
    hoards: Sequence[Sequence[TileKind]], totem_holder: int | None, horse_holder: int | None
) -> tuple[int, ...]:
    """BM-3: pairs, 1 for each cylinder, and 1 for each player with the most Tomahawks (any)."""
    tomahawks = counts_of("tomahawk", hoards)
    most = max(tomahawks)
    return tuple(
        pairs(hoard)
        + (seat == totem_holder)
        + (seat == horse_holder)
        + (most > 0 and tomahawks[seat] == most)
        for seat, hoard in enumerate(hoards)
    )


def ranking(
    points: Sequence[int], hoards: Sequence[Sequence[TileKind]]
) -> tuple[tuple[int, ...], ...]:
    """Most points first; ties go to the most Tepees shown, then the most tiles, else shared."""

    def key(seat: int) -> tuple[int, int, int]:
        return (points[seat], tepees(hoards[seat]), len(hoards[seat]))

    places: dict[tuple[int, int, int], list[int]] = {}
    for seat in sorted(range(len(points)), key=key, reverse=True):
        places.setdefault(key(seat), []).append(seat)
    return tuple(tuple(seats) for seats in places.values())


def outcome(state: State) -> Outcome:
    hoards = [player.tiles for player in state.players]
    points = victory_points(hoards, state.totem_holder, state.horse_holder)
    if not state.finished:
        return Outcome(finished=False)
    places = ranking(points, hoards)
    return Outcome(finished=True, winners=places[0], ranking=places, scores=points)

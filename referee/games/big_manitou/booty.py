"""Booty tiles: what they show, what a player may take or must give up, the cylinders."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.big_manitou.data import BUFFALOES, TEPEES, TILE_KINDS, Cylinder, TileKind
from referee.kernel.piles import distinct_selections, in_canonical_order
from referee.kernel.seating import next_seat


def tepees(tiles: Sequence[TileKind]) -> int:
    """The Tepees shown on the tiles (a tile shows 1, 2 or 3)."""
    return sum(TEPEES.get(tile, 0) for tile in tiles)


def buffaloes(tiles: Sequence[TileKind]) -> int:
    return sum(BUFFALOES.get(tile, 0) for tile in tiles)


def pairs(tiles: Sequence[TileKind]) -> int:
    """Each Tepee with a Buffalo is a pair worth one victory point."""
    return min(tepees(tiles), buffaloes(tiles))


def discard_options(tiles: Sequence[TileKind]) -> tuple[TileKind, ...]:
    """The kinds of tile the Leather Thief may take: a Tepee or Buffalo when there is one."""
    held = set(tiles)
    herds = [kind for kind in TILE_KINDS if kind in held and (kind in TEPEES or kind in BUFFALOES)]
    return tuple(herds) if herds else tuple(kind for kind in TILE_KINDS if kind in held)


def take_options(tiles: Sequence[TileKind], count: int) -> Sequence[tuple[TileKind, ...]]:
    """Every different choice of `count` tiles among `tiles`."""
    return distinct_selections(in_canonical_order(tiles, TILE_KINDS), count)


def holder_after_gain(holder: int | None, counts: Sequence[int], gainer: int) -> int | None:
    """The first to take a tile of the kind gets the cylinder; whoever draws level takes it over."""
    if holder is None or counts[gainer] >= counts[holder]:
        return gainer
    return holder


def holder_after_loss(holder: int | None, counts: Sequence[int]) -> int | None:
    """Our ruling BM-R6: when the holder falls behind, the cylinder goes to whoever now has the
    most (the first of them clockwise from the holder); with no tile of the kind left anywhere
    it goes back to the side of the table. A holder still level with the best keeps it."""
    if holder is None:
        return None
    best = max(counts)
    if best == 0:
        return None
    if counts[holder] == best:
        return holder
    seat = holder
    while counts[seat] != best:
        seat = next_seat(seat, range(len(counts)), len(counts))
    return seat


def counts_of(kind: Cylinder | TileKind, hoards: Sequence[Sequence[TileKind]]) -> list[int]:
    return [hoard.count(kind) for hoard in hoards]

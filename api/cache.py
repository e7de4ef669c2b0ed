"""Rebuilt games kept in memory, so that a move does not fold the whole stream again.

An entry is a `Table` folded up to some version of its game: it is only ever extended with the
events the store has after that version, so it can never be stale, only behind. Nothing here is
needed by another process: any number of API processes share one database.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass

from referee.kernel import Table


@dataclass(frozen=True)
class CachedGame:
    table: Table
    seed: bytes | None = None  # the secret seed, once a command has needed it


class TableCache:
    """A least-recently-used map from game id to its latest rebuilt table."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, CachedGame] = OrderedDict()

    def get(self, game_id: str) -> CachedGame | None:
        """A private copy of the cached game: the caller may play on it freely."""
        entry = self._entries.get(game_id)
        if entry is None:
            return None
        self._entries.move_to_end(game_id)
        # Table.play replaces `state` (a frozen Struct) rather than changing it, so a shallow
        # copy is an independent table.
        return CachedGame(copy.copy(entry.table), entry.seed)

    def put(self, game_id: str, table: Table, seed: bytes | None = None) -> None:
        """Remember `table` unless a later version of the game is already cached."""
        current = self._entries.get(game_id)
        if current is not None and current.table.version > table.version:
            return
        if seed is None and current is not None:
            seed = current.seed
        self._entries[game_id] = CachedGame(copy.copy(table), seed)
        self._entries.move_to_end(game_id)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

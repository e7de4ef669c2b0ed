"""What a process keeps in memory so as not to redo expensive work.

`TableCache`: rebuilt games, so that a move does not fold the whole stream again. An entry is a
`Table` folded up to some version of its game: it is only ever extended with the events the
store has after that version, so it can never be stale, only behind.

`ReportCache`: audit reports, so that auditing a game again does not verify it again. An entry
is handed out only while the game's stored record is still the one it was computed on: the
same rows, none written since (`eventstore.RecordStamp`).

Nothing here is needed by another process: any number of API processes share one database, and
each computes a game's report at most once per state of its stored record.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from api.verify import AuditReport
from eventstore import RecordStamp
from referee.kernel import Table


@dataclass(frozen=True)
class CachedGame:
    table: Table
    seed: bytes | None = None  # the secret seed, once a command has needed it
    recorded_at: datetime | None = None  # when the table's last event was recorded, if known


class TableCache:
    """A least-recently-used map from game id to its latest rebuilt table."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, CachedGame] = OrderedDict()

    @property
    def capacity(self) -> int:
        return self._capacity

    def get(self, game_id: str) -> CachedGame | None:
        """A private copy of the cached game: the caller may play on it freely."""
        entry = self._entries.get(game_id)
        if entry is None:
            return None
        self._entries.move_to_end(game_id)
        # Table.play replaces `state` (a frozen Struct) rather than changing it, so a shallow
        # copy is an independent table.
        return CachedGame(copy.copy(entry.table), entry.seed, entry.recorded_at)

    def put(
        self,
        game_id: str,
        table: Table,
        seed: bytes | None = None,
        recorded_at: datetime | None = None,
    ) -> None:
        """Remember `table` unless a later version of the game is already cached."""
        current = self._entries.get(game_id)
        if current is not None and current.table.version > table.version:
            return
        if current is not None and current.table.version == table.version:
            seed = seed or current.seed
            recorded_at = recorded_at or current.recorded_at
        elif seed is None and current is not None:
            seed = current.seed
        self._entries[game_id] = CachedGame(copy.copy(table), seed, recorded_at)
        self._entries.move_to_end(game_id)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


@dataclass(frozen=True)
class KeptReport:
    """An audit report and the stored record it was computed on (its stamp, read before)."""

    stamp: RecordStamp
    report: AuditReport


class ReportCache:
    """A least-recently-used map from game id to its latest audit report.

    A report is only handed out again while the game's record has the same stamp
    (`Archive.audit` asks the store): a game that moved on, or any row of it written behind the
    service's back (an event, its body, hash or cursor, a command, the game's row), has another
    stamp and is audited afresh.
    """

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._entries: OrderedDict[str, KeptReport] = OrderedDict()

    def get(self, game_id: str) -> KeptReport | None:
        entry = self._entries.get(game_id)
        if entry is not None:
            self._entries.move_to_end(game_id)
        return entry

    def put(self, game_id: str, kept: KeptReport) -> None:
        if self._capacity <= 0:
            return
        self._entries[game_id] = kept
        self._entries.move_to_end(game_id)
        while len(self._entries) > self._capacity:
            self._entries.popitem(last=False)

    def discard(self, game_id: str) -> None:
        self._entries.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._entries)

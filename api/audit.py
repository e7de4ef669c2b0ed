"""Stored games as bundles: the export of a finished game, and the audit of any game.

The bundle of a game still running carries no seed (the seed is not even read), so its audit
runs only the checks that do not need it. Verification itself is pure (`api.verify`) and runs in
a worker thread: re-executing a long game should not hold up the event loop.

A report is kept (`ReportCache`) and answered again for as long as the game's stored record is
the one it vouched for: the same rows, none written since. The store tells with one statement
that reads no body (`EventStore.record_stamp`): a digest of the row version, `xmin` and `ctid`,
of the game's row and of each of its events and commands. Any UPDATE, DELETE or INSERT of any
of them, whatever it writes (a body re-encoded with its hash left standing, a hash rewritten,
a chance cursor, a command, the game's row), is a row version of another transaction, which no
SQL can choose: the stamp changes and the game is verified afresh. A finished game is so
verified once; a running one once per version, its appends moving the game's row. It costs a
visit of the game's rows, no body sent: 0.24 ms for a game of 100 events (a head read took
0.21), 7 to 8 ms for 10,000 events and 6,600 commands, where reading the record again to hash
its chain takes 80 and a verification 640 (tests/bench/kept_report_bench.py).

The stamp is read before the record it stands for: a change between the two leaves a report of
the changed record under the earlier stamp, which the next audit no longer finds.
"""

from __future__ import annotations

import asyncio
import time
from typing import cast, get_args

import msgspec
import structlog
from anyio import to_thread

from api.bundle import (
    FORMAT,
    FORMAT_VERSION,
    UNSEALED,
    Bundle,
    BundleCommand,
    BundleEvent,
    BundleStatus,
    canonical_bytes,
    seal,
)
from api.cache import KeptReport, ReportCache
from api.verify import AuditReport, verify, verify_file
from eventstore import CommandRecord, RecordStamp, StoredEvent, StreamInfo
from eventstore.store import EventStore
from referee.kernel import GameCreated
from referee.kernel.registry import Registry

SNAPSHOT_ATTEMPTS = 3  # reads of a running game while commands keep coming in
OVER = ("finished", "cancelled")  # the statuses of a game whose seed is revealed

log = structlog.get_logger("api.audit")


class GameNotFinished(Exception):
    """Only a finished game can be exported: its seed is secret until then."""


class Archive:
    """Bundles of the games in a store, and their verification."""

    def __init__(
        self, store: EventStore, registry: Registry, reports: ReportCache | None = None
    ) -> None:
        self._store = store
        self._registry = registry
        self._reports = reports if reports is not None else ReportCache(0)
        self._computing: dict[tuple[str, RecordStamp], asyncio.Future[AuditReport]] = {}
        self.computed = 0  # reports verified from scratch (the others were kept ones)

    async def bundle(self, game_id: str, *, reveal: bool) -> Bundle:
        """The game as a bundle; with `reveal`, a finished game's bundle carries its seed.

        Raises StreamNotFound.
        """
        info, events, commands = await self._snapshot(game_id)
        seed = None
        if reveal and info.status in OVER:
            seed = (await self._store.seed(game_id)).hex()
        return stored_bundle(info, events, commands, seed)

    async def export(self, game_id: str) -> tuple[Bundle, bytes]:
        """The sealed bundle of a finished game (or a cancelled table) and its file.

        Raises GameNotFinished, StreamNotFound.
        """
        bundle = await self.bundle(game_id, reveal=True)
        if bundle.seed is None:
            raise GameNotFinished(game_id)
        sealed = seal(bundle)
        return sealed, canonical_bytes(sealed)

    async def audit(self, game_id: str) -> AuditReport:
        """Every check on the stored game; those needing the seed only once it is over.

        A kept report while the game's stored record is unchanged (its stamp); one verification
        at a time per game and stamp (concurrent audits of one record share it). Raises
        StreamNotFound.
        """
        stamp = await self._store.record_stamp(game_id)
        kept = self._reports.get(game_id)
        if kept is not None and kept.stamp == stamp:
            return kept.report
        key = (game_id, stamp)
        running = self._computing.get(key)
        if running is None:
            running = asyncio.ensure_future(self._verify(game_id, stamp))
            self._computing[key] = running
            running.add_done_callback(lambda _: self._computing.pop(key, None))
        # Shielded: a client that goes away does not cancel the work others wait for.
        return await asyncio.shield(running)

    async def _verify(self, game_id: str, stamp: RecordStamp) -> AuditReport:
        """Verify the record as stored now; keep the report under `stamp`, read before it."""
        started = time.perf_counter()
        bundle = await self.bundle(game_id, reveal=True)
        report = await to_thread.run_sync(verify, bundle, self._registry)
        self.computed += 1
        log.info(
            "audit verified",
            game_id=game_id,
            version=bundle.version,
            verdict=report.verdict,
            duration_ms=round((time.perf_counter() - started) * 1000, 2),
        )
        if bundle.version == stamp.version:  # else the game moved on between the two reads
            self._reports.put(game_id, KeptReport(stamp, report))
        return report

    async def verify_file(self, data: bytes) -> AuditReport:
        """Every check on an uploaded bundle. Raises MalformedBundle."""
        return await to_thread.run_sync(verify_file, data, self._registry)

    async def _snapshot(
        self, game_id: str
    ) -> tuple[StreamInfo, list[StoredEvent], list[CommandRecord]]:
        """The game's row, events and commands as of one version.

        The three reads are separate; a command appended between them would make them disagree,
        so a running game is read until its version stands still. Nothing is appended to a
        finished game or a cancelled table.
        """
        for _ in range(SNAPSHOT_ATTEMPTS):
            info = await self._store.info(game_id)
            events = await self._store.read(game_id)
            commands = await self._store.commands(game_id)
            if info.status in OVER:
                return info, events, commands
            if (await self._store.info(game_id)).version == info.version:
                return info, events, commands
        # Still moving: the events up to the version first read are complete.
        version = info.version
        kept = [command for command in commands if command.last_seq <= version]
        return info, [event for event in events if event.seq <= version], kept


def stored_bundle(
    info: StreamInfo,
    events: list[StoredEvent],
    commands: list[CommandRecord],
    seed: str | None,
) -> Bundle:
    """The bundle of a stored game. The header fields the store does not keep beside the events
    (options, entropy, commitment) come from event 1 as recorded; the seating and the status
    are the game's row's (the `creation` and `replay` checks hold them to the events)."""
    created = _created(events)
    return Bundle(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        game_id=info.game_id,
        kind=info.kind,
        rules_version=info.rules_version,
        seats=info.seats,
        seating="open" if info.seating == "open" else "creator",
        options=created.options if created else msgspec.Raw(b"null"),
        entropy=created.entropy if created else "",
        seed_chosen_by_creator=info.seed_chosen_by_creator,
        commitment=created.commitment if created else "",
        seed=seed,
        status=_status(info.status),
        version=info.version,
        created_at=info.created_at,
        commands=tuple(_command(command) for command in commands),
        events=tuple(_event(event) for event in events),
        digest=UNSEALED,
    )


def _status(stored: str) -> BundleStatus:
    """The game row's status, one of the bundle's (the store has no other)."""
    return cast(BundleStatus, stored) if stored in get_args(BundleStatus) else "active"


def _created(events: list[StoredEvent]) -> GameCreated | None:
    if not events or events[0].seq != 1:
        return None
    try:
        return msgspec.json.decode(events[0].body, type=GameCreated)
    except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
        return None


def _command(command: CommandRecord) -> BundleCommand:
    return BundleCommand(
        id=command.id,
        seat=command.seat,
        first_seq=command.first_seq,
        last_seq=command.last_seq,
        recorded_at=command.recorded_at,
        body=bytes(command.body),
    )


def _event(event: StoredEvent) -> BundleEvent:
    return BundleEvent(
        seq=event.seq,
        type=event.type,
        seat=event.seat,
        command_id=event.command_id,
        chance_cursor=event.chance_cursor,
        recorded_at=event.recorded_at,
        prev_hash=bytes(event.prev_hash).hex(),
        hash=bytes(event.hash).hex(),
        body=bytes(event.body),
    )

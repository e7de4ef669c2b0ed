"""Checks through the rules: the recorded rules version and the fold of the recorded events.

Nothing here trusts the game's code not to raise: an exception while folding is a finding about
the record, reported at the event where it happened.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from api.bundle import Bundle, BundleStatus
from api.verify.reexecution import CHANCE, REEXECUTION
from api.verify.report import Check, CheckResult
from referee.kernel import Codec, GameCreated, Outcome, Played, SeedRevealed, Table
from referee.kernel.registry import AnyGame, Registry, UnknownKind, UnknownRulesVersion
from referee.kernel.wording import counted

OVER = ("finished", "cancelled")

RULES = Check("rules-version", "This referee has the rules the game was recorded under.")
REPLAY = Check(
    "replay",
    "Every event decodes and folds under those rules; the status agrees with them, and the seed "
    "is revealed right after the end, and only then.",
)


def find_rules(bundle: Bundle, registry: Registry) -> tuple[CheckResult, AnyGame | None]:
    try:
        game = registry.rules(bundle.kind, bundle.rules_version)
    except UnknownKind:
        return RULES.failed(f"This referee has no rules for {bundle.kind!r}."), None
    except UnknownRulesVersion:
        have = ", ".join(repr(game.version) for game in registry.versions(bundle.kind))
        return RULES.failed(
            f"The game was recorded under {bundle.kind} rules {bundle.rules_version!r}; this "
            f"referee has rules {have} only."
        ), None
    return RULES.passed(f"{game.title}, rules version {game.version}."), game


def skipped_without_rules() -> list[CheckResult]:
    reason = "The game's rules are not available here (see rules-version)."
    return [check.skipped(reason) for check in (REPLAY, CHANCE, REEXECUTION)]


# -- the fold ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """The recorded events decoded, and where they lead."""

    played: list[Played]
    outcome: Outcome


def replay(bundle: Bundle, game: AnyGame) -> tuple[CheckResult, Replayed | None]:
    codec = Codec(game)
    played: list[Played] = []
    for seq, event in enumerate(bundle.events, start=1):
        try:
            played.append(Played(codec.decode_event(event.body), event.chance_cursor))
        except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
            return REPLAY.failed(
                f"Event {seq} does not decode under {game.kind} rules {game.version}.", seq
            ), None
    if not played or not isinstance(played[0].event, GameCreated) or played[0].chance_cursor:
        return REPLAY.failed(
            "The stream does not open with game.created, before any draw.", 1
        ), None
    try:
        table = Table.replay(game, played[:1])
    except Exception as error:  # options the rules cannot read
        return REPLAY.failed(f"Event 1 does not open a game: {type(error).__name__}.", 1), None
    seq = 1
    try:
        for seq, item in enumerate(played[1:], start=2):
            problem = _out_of_place(table, item, played[seq - 2].chance_cursor)
            if problem is not None:
                return REPLAY.failed(f"Event {seq} {problem}.", seq), None
            table.advance([item])
        return _replayed(bundle, table, played)
    except Exception as error:
        return REPLAY.failed(
            f"Event {seq} does not fold under these rules: {type(error).__name__}.", seq
        ), None


def _out_of_place(table: Table, item: Played, previous_cursor: int) -> str | None:
    if isinstance(item.event, GameCreated):
        return "opens a second game"
    if table.seed_revealed:
        return "comes after the seed's reveal, which closes the game"
    finished = table.outcome().finished
    if isinstance(item.event, SeedRevealed) and not finished:
        return "reveals the seed before the game is over"
    if finished and not isinstance(item.event, SeedRevealed):
        return "comes after the end of the game"
    if item.chance_cursor < previous_cursor:
        return "moves the chance cursor backwards"
    return None


def _replayed(
    bundle: Bundle, table: Table, played: list[Played]
) -> tuple[CheckResult, Replayed | None]:
    outcome = table.outcome()
    end = len(played) + 1
    if outcome.finished and not table.seed_revealed:
        return REPLAY.failed("The game is over but its seed was never revealed.", end), None
    said = _status(table)
    if bundle.status != said:
        # Said to be over, it lacks the events that end it; else the header is what is wrong.
        seq = end if bundle.status in OVER and said not in OVER else None
        return REPLAY.failed(
            f"The game is recorded as {bundle.status}; its events say {said}.", seq
        ), None
    if said == "cancelled":
        where = "the table was cancelled unfilled: nothing was dealt, nobody won"
    elif said == "waiting":
        where = f"the table waits for players, open seats: {_seats(_open_seats(table))}"
    elif outcome.finished:
        where = f"the game is over, winners: {_seats(outcome.winners)}"
    else:
        where = f"the game goes on, to act: {_seats(table.to_act())}"
    folded = counted(len(played), "event")
    result = REPLAY.passed(f"{folded} fold under {table.game.kind} rules; {where}.")
    return result, Replayed(played, outcome)


def _status(table: Table) -> BundleStatus:
    """The status the events give, as the API states it (api/views.py, `status_of`)."""
    if table.outcome().finished:
        return "cancelled" if table.seating is not None and table.seating.cancelled else "finished"
    return "waiting" if table.waiting() else "active"


def _open_seats(table: Table) -> tuple[int, ...]:
    return () if table.seating is None else table.seating.open_seats()


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(str(seat) for seat in sorted(seats)) or "none"

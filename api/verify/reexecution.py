"""The re-execution of the recorded commands, which re-derives every chance outcome too.

With the seed, the game is opened again from its recorded parameters and every command played
in order; the events must come out byte for byte, at the recorded chance cursors. Without it (a
game still running), each command that draws nothing is played on the recorded state before it.
Nothing here trusts the game's code not to raise: an exception while deciding is a finding
about the record, reported at the event where it happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from api.bundle import Bundle, BundleCommand, BundleEvent
from api.verify.report import Check, CheckResult
from referee.kernel import Chance, Codec, GameOver, Played, RuleViolation, Table
from referee.kernel.lifecycle import (
    BotSeat,
    BotsSeated,
    SeatTaken,
    TableOpened,
    TimeControl,
    TimeControlSet,
)
from referee.kernel.registry import AnyGame
from referee.kernel.table import OpenTable
from referee.kernel.wording import counted

CHANCE = Check(
    "chance",
    "Every chance outcome (shuffle, draw) is re-derived from the seed, at the recorded chance "
    "cursors.",
)
REEXECUTION = Check(
    "re-execution",
    "The recorded commands, re-executed from the start through the rules, give the recorded "
    "events byte for byte.",
)


class SeedNeeded(Exception):
    """A draw while re-executing without the seed."""


class SealedChance(Chance):
    """The chance of a game whose seed is still secret: any draw stops the re-execution, and so
    does keying an open table's stream once its last seat is taken (the key needs the seed)."""

    def __init__(self, cursor: int) -> None:
        super().__init__(b"", cursor)

    def word(self) -> int:
        raise SeedNeeded

    def for_seats(self, seat_entropies: Sequence[str]) -> Chance:
        raise SeedNeeded


@dataclass(frozen=True)
class Divergence:
    seq: int
    message: str
    chance: bool = False  # a chance outcome or cursor is involved


@dataclass
class Comparison:
    """Re-executed events compared with the record, a step (the opening, a command) at a time,
    from `position` on."""

    recorded: tuple[BundleEvent, ...]
    position: int = 0  # events matched so far
    cursor: int = 0  # the chance cursor after the last matched event
    draws: int = 0  # steps matched that drew chance

    def take(self, played: list[Played]) -> Divergence | None:
        """Compare one step's events. Every event of a step carries the cursor after the step."""
        drew = bool(played) and played[-1].chance_cursor != self.cursor
        for item in played:
            seq = self.position + 1
            if seq > len(self.recorded):
                return Divergence(seq, f"Re-execution gives an event {seq}; the record ends.")
            event = self.recorded[seq - 1]
            if Codec.encode(item.event) != event.body:
                involved = drew or event.chance_cursor != self.cursor
                return Divergence(seq, f"Event {seq} differs from the re-executed event.", involved)
            if item.chance_cursor != event.chance_cursor:
                return Divergence(
                    seq,
                    f"Event {seq} is recorded at chance cursor {event.chance_cursor}; "
                    f"re-execution reaches {item.chance_cursor}.",
                    chance=True,
                )
            self.position = seq
        if played:
            self.cursor = played[-1].chance_cursor
            self.draws += drew
        return None


def reexecute(
    bundle: Bundle,
    game: AnyGame,
    seed: bytes | None,
    recorded: list[Played] | None,
    stream_ok: bool,
) -> tuple[CheckResult, CheckResult]:
    """The chance and re-execution checks: from the start with the seed, else what can be."""
    if seed is not None:
        return _from_the_start(bundle, game, seed)
    if bundle.seed is not None:
        reason = "The bundle's seed is unreadable (see seed)."
    elif bundle.status == "waiting":
        reason = (
            "The table is still waiting for players: its draws are re-derived once its seed is "
            "revealed."
        )
    else:
        reason = "The game is still running: its draws are re-derived once its seed is revealed."
    chance = CHANCE.skipped(reason)
    if recorded is None:
        return chance, REEXECUTION.skipped("The recorded events do not fold (see replay).")
    if not stream_ok:
        return chance, REEXECUTION.skipped("Events and commands do not line up (see stream).")
    return chance, _without_seed(bundle, game, recorded)


def _from_the_start(bundle: Bundle, game: AnyGame, seed: bytes) -> tuple[CheckResult, CheckResult]:
    comparison = Comparison(bundle.events)
    divergence = _run(bundle, game, seed, comparison)
    return (
        _chance_result(divergence, comparison),
        _reexecution_result(divergence, comparison, bundle),
    )


def _run(bundle: Bundle, game: AnyGame, seed: bytes, comparison: Comparison) -> Divergence | None:
    """Open the game again and play every recorded command; the first divergence, if any."""
    opened = _open(bundle, game, seed)
    if isinstance(opened, Divergence):
        return opened
    table, played = opened
    codec = Codec(game)
    divergence = comparison.take(played + table.close(seed))
    for command in bundle.commands:
        if divergence is not None:
            return divergence
        chance = table.chance_for(seed, bundle.game_id)
        result = _play(table, codec, command, chance, comparison.position + 1)
        if isinstance(result, Divergence):
            return result
        divergence = comparison.take(result + table.close(seed))
    if divergence is None and comparison.position < len(bundle.events):
        seq = comparison.position + 1
        return Divergence(seq, f"Event {seq} is recorded; the commands produce no more events.")
    return divergence


# What the rules may refuse of the creator's own sitting at an open table: its seat, its name.
_CREATOR_REFUSALS = frozenset({"kernel.no-such-seat", "kernel.seat-taken"})


def _open(bundle: Bundle, game: AnyGame, seed: bytes) -> tuple[Table, list[Played]] | Divergence:
    """The game opened again from its recorded parameters."""
    creator_seq = None
    try:
        options = msgspec.json.decode(bundle.options, type=game.options_type)
        settings = _table_settings(bundle)
        creator_seq = settings.creator_seq
        return Table.open(
            game,
            options,
            bundle.seats,
            game_id=bundle.game_id,
            seed=seed,
            entropy=bundle.entropy,
            seed_chosen_by_creator=bundle.seed_chosen_by_creator,
            time_control=settings.time_control,
            bots=settings.bots,
            at=bundle.events[0].recorded_at if bundle.events else None,
            open_table=settings.open_table,
        )
    except RuleViolation as error:
        rule = error.rule_id
        if creator_seq is not None and (
            rule in _CREATOR_REFUSALS or rule.startswith("kernel.name-")
        ):
            return Divergence(creator_seq, f"The rules refuse the creator's sitting ({rule}).")
        return Divergence(1, f"The rules refuse to open this game ({rule}).")
    except Exception as error:  # options the rules cannot read, a game that fails to set up
        return Divergence(1, f"The game does not open again: {type(error).__name__}.")


@dataclass(frozen=True)
class TableSettings:
    """How the table was set at its creation, as recorded in its creation step."""

    time_control: TimeControl | None = None
    bots: tuple[BotSeat, ...] = ()
    open_table: OpenTable | None = None
    creator_seq: int | None = None  # the seq of the creator's sitting at an open table


def _table_settings(bundle: Bundle) -> TableSettings:
    """The time control, bots and open table recorded right after event 1, and the seat the
    creator of an open table took in the creation step: creation parameters, as the options are
    (the re-executed opening must then give these very events back). The bots' sittings are
    not read: opening the table again seats the bots of `game.bots` itself."""
    time_control: TimeControl | None = None
    bots: tuple[BotSeat, ...] = ()
    opened: TableOpened | None = None
    for event in bundle.events[1:4]:
        if event.type == "game.time-control":
            time_control = msgspec.json.decode(event.body, type=TimeControlSet).time_control
        elif event.type == "game.bots":
            bots = msgspec.json.decode(event.body, type=BotsSeated).seats
        elif event.type == "game.table-opened":
            opened = msgspec.json.decode(event.body, type=TableOpened)
    if opened is None:
        return TableSettings(time_control, bots)
    creator, creator_seq = _creator_sitting(bundle, {bot.seat for bot in bots})
    open_table = OpenTable(opened.visibility, opened.expires_at, creator)
    return TableSettings(time_control, bots, open_table, creator_seq)


def _creator_sitting(bundle: Bundle, bot_seats: set[int]) -> tuple[SeatTaken | None, int | None]:
    """The first sitting of the creation step at a seat no bot plays: the creator's (a second
    one is no creation of this referee's, and re-execution finds it where it stands)."""
    creation = bundle.commands[0].first_seq - 1 if bundle.commands else len(bundle.events)
    for seq, event in enumerate(bundle.events[:creation], start=1):
        if event.type != "game.seat-taken":
            continue
        taken = msgspec.json.decode(event.body, type=SeatTaken)
        if taken.seat not in bot_seats:
            return taken, seq
    return None, None


def _play(
    table: Table, codec: Codec, command: BundleCommand, chance: Chance, seq: int
) -> list[Played] | Divergence:
    """The events of `command` played on `table`, or why it cannot be played (at `seq`)."""
    who = f"command {command.id} (seat {command.seat})"
    try:
        value = codec.decode_command(command.body)
    except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
        return Divergence(seq, f"The body of {who} is not a command of these rules.")
    try:
        return table.play(command.seat, value, chance, at=command.recorded_at)
    except SeedNeeded:
        raise
    except GameOver:
        return Divergence(seq, f"The game is over before {who}.")
    except RuleViolation as error:
        return Divergence(seq, f"The rules refuse {who}: {error.rule_id}.")
    except Exception as error:
        return Divergence(seq, f"Re-executing {who} fails: {type(error).__name__}.")


def _chance_result(divergence: Divergence | None, comparison: Comparison) -> CheckResult:
    if divergence is None:
        return CHANCE.passed(
            f"Chance was drawn in {counted(comparison.draws, 'step')} (the opening, commands): "
            f"every outcome re-derived from the seed, {counted(comparison.cursor, 'random word')} "
            "in all."
        )
    if divergence.chance:
        return CHANCE.failed(divergence.message, divergence.seq)
    return CHANCE.partial(
        f"Chance drawn before event {divergence.seq} ({counted(comparison.draws, 'step')}) was "
        "re-derived; re-execution stops there (see re-execution)."
    )


def _reexecution_result(
    divergence: Divergence | None, comparison: Comparison, bundle: Bundle
) -> CheckResult:
    if divergence is not None:
        return REEXECUTION.failed(divergence.message, divergence.seq)
    return REEXECUTION.passed(
        f"The opening and {counted(len(bundle.commands), 'command')}, re-executed from the "
        f"start, give the recorded events ({comparison.position}) byte for byte, at the recorded "
        "chance cursors."
    )


def _without_seed(bundle: Bundle, game: AnyGame, played: list[Played]) -> CheckResult:
    """Re-execute each command that draws nothing on the recorded state before it."""
    commands = bundle.commands
    opening = commands[0].first_seq - 1 if commands else len(played)
    table = Table.replay(game, played[:opening])
    # An open table's creation draws nothing; the deal comes with the sitting that fills it.
    start = "The opening" if table.seating is None else "The table's creation"
    codec = Codec(game)
    checked = 0
    for command in commands:
        comparison = Comparison(bundle.events, command.first_seq - 1, table.chance_cursor)
        try:
            chance = SealedChance(table.chance_cursor)
            result = _play(table, codec, command, chance, command.first_seq)
        except SeedNeeded:
            table.advance(played[command.first_seq - 1 : command.last_seq])
            continue
        divergence = result if isinstance(result, Divergence) else comparison.take(result)
        if divergence is None and comparison.position != command.last_seq:
            seq = comparison.position + 1
            divergence = Divergence(
                seq, f"Event {seq} is recorded; command {command.id} gives no more."
            )
        if divergence is not None:
            return REEXECUTION.failed(divergence.message, divergence.seq)
        checked += 1
    drew = len(commands) - checked
    needing = (
        f"{start} needs"
        if drew == 0
        else (f"{start} and {counted(drew, 'command')} that drew chance need")
    )
    return REEXECUTION.partial(
        f"{checked} of {counted(len(commands), 'command')} re-executed on the recorded state give "
        f"their events byte for byte. {needing} the seed, revealed when the game ends."
    )

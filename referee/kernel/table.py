"""A game in play, generic over the contract: the fold of its events and the chance cursor.

The API rebuilds a Table from the stored events (`Table.replay`), asks it to play a command,
and stores what comes back. Nothing here knows a game's rules.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

import msgspec

from referee.kernel import leaving
from referee.kernel.chance import Chance, WaitingChance, commitment, open_table_key
from referee.kernel.clocks import Clocks
from referee.kernel.contract import Game, Outcome, RuleViolation, Seat
from referee.kernel.lifecycle import (
    KERNEL_EVENTS,
    Abandon,
    Abandoned,
    BotSeat,
    BotsSeated,
    CancelTable,
    ClaimTimeout,
    ClockRead,
    Departure,
    GameCreated,
    LeaveSeat,
    Resign,
    Resigned,
    SeatLeft,
    SeatTaken,
    SeedRevealed,
    Sit,
    StandIn,
    TableCancelled,
    TableOpened,
    TimeControl,
    TimeControlSet,
    TimedOut,
    Visibility,
)
from referee.kernel.open_seats import Seating, bot_name, normal_name

_KERNEL_EVENT_TYPES = frozenset(KERNEL_EVENTS)  # a set: one lookup per event in a fold
MAX_STAND_INS = 10_000  # the referee's moves for seats that left, in one step: a runaway guard


class GameOver(Exception):
    """A command sent to a finished game."""


class NotYourTurn(RuleViolation):
    def __init__(self, seat: Seat) -> None:
        super().__init__("kernel.not-your-turn", f"Seat {seat} may not act now.")


def refusal(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"kernel.{rule}", message)


@dataclass(frozen=True)
class OpenTable:
    """How an open table is created: who may sit, until when, and the creator's own seat."""

    visibility: Visibility
    expires_at: datetime
    creator: SeatTaken | None = None  # the seat the creator takes, if any


class Played(msgspec.Struct, frozen=True):
    """An event as the kernel produced it, with the chance cursor right after it.

    A Struct, not a frozen dataclass: a cold load makes one per event, and a frozen
    dataclass's constructor costs eight times as much (~0.9 µs against ~0.1)."""

    event: msgspec.Struct
    chance_cursor: int


@dataclass
class Table:
    """One game: its recorded opening, its state, and how far its chance has been read."""

    game: Game[Any, Any, Any, Any]
    created: GameCreated
    options: msgspec.Struct
    state: msgspec.Struct
    chance_cursor: int = 0
    version: int = 1  # the number of events so far (GameCreated is event 1)
    seed_revealed: bool = field(default=False)
    clocks: Clocks | None = None  # a timed game's clocks, as of its latest step
    bots: tuple[BotSeat, ...] = ()  # seats the server's bots play
    departures: tuple[tuple[Seat, Departure], ...] = ()  # seats that left, in order
    abandoned: bool = False
    seating: Seating | None = None  # an open table's seats; None: its creator seated it

    def __copy__(self) -> Table:
        """What `copy.copy` makes (the same fields, shared), without its generic machinery: a
        table is copied several times a move (the cache hands out and keeps copies, a step is
        worked out on one); through `__reduce_ex__` a copy took 2.2 µs, this takes 0.9."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        return twin

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        game: Game[Any, Any, Any, Any],
        options: msgspec.Struct,
        seats: int,
        *,
        game_id: str,
        seed: bytes,
        entropy: str = "",
        seed_chosen_by_creator: bool = False,
        time_control: TimeControl | None = None,
        bots: Sequence[BotSeat] = (),
        at: datetime | None = None,
        open_table: OpenTable | None = None,
    ) -> tuple[Table, list[Played]]:
        """Create a game: GameCreated, the table's settings, then the game's opening events
        (a timed game's clocks start `at`). An `open_table` takes the creator's seat and the
        bots' and waits for the other players: it is dealt once its last seat is taken."""
        check_seats(game, seats)
        game.validate_options(options, seats)
        check_table_settings(seats, time_control, bots)
        if open_table is not None and seed_chosen_by_creator:
            raise refusal(
                "open-table-seed",
                "An open table's seed is the referee's alone: a chosen seed would let its "
                "creator steer the deal.",
            )
        created = GameCreated(
            kind=game.kind,
            rules_version=game.version,
            seats=seats,
            options=msgspec.Raw(msgspec.json.encode(options)),
            commitment=commitment(seed),
            entropy=entropy,
            seed_chosen_by_creator=seed_chosen_by_creator,
        )
        table = cls(game, created, options, game.initial_state(options, seats))
        settings: list[msgspec.Struct] = []
        if time_control is not None:
            settings.append(TimeControlSet(time_control=time_control))
        if bots:
            settings.append(BotsSeated(seats=tuple(sorted(bots, key=lambda bot: bot.seat))))
        if open_table is not None:
            visibility, expires_at = open_table.visibility, open_table.expires_at
            settings.append(TableOpened(visibility=visibility, expires_at=expires_at))
        played = [Played(created, 0), *table._apply_all(settings, 0)]
        chance = table.chance_for(seed, game_id)
        if open_table is None:
            played += table._apply_all(table._opening(chance, at), chance.cursor)
            return table, played
        taken = [] if open_table.creator is None else [open_table.creator]
        taken += [
            SeatTaken(seat=bot.seat, name=bot_name(bot.seat, bot.strategy)) for bot in table.bots
        ]
        played += table._take_seats(sorted(taken, key=lambda event: event.seat), chance, at)
        return table, played

    def _opening(self, chance: Chance, at: datetime | None) -> list[msgspec.Struct]:
        """The game's set-up, and a timed game's first clock reading."""
        opening = list(self.game.setup(self.options, self.seats, chance))
        if self.clocks is not None:
            opening.append(ClockRead(at=_required(at)))
        return opening

    @classmethod
    def replay(cls, game: Game[Any, Any, Any, Any], events: Iterable[Played]) -> Table:
        """Rebuild a table by folding recorded events (the first must be GameCreated)."""
        iterator = iter(events)
        first = next(iterator)
        if not isinstance(first.event, GameCreated):
            raise ValueError("a stream starts with game.created")
        created = first.event
        options = msgspec.json.decode(created.options, type=game.options_type)
        # A recorded opening is checked as a new one is: an uploaded bundle is untrusted input,
        # and ten million seats would build a state that exhausts memory.
        check_seats(game, created.seats)
        game.validate_options(options, created.seats)
        table = cls(game, created, options, game.initial_state(options, created.seats))
        for played in iterator:
            table._apply(played.event, played.chance_cursor)
        return table

    # -- play --------------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.created.seats

    def outcome(self) -> Outcome:
        if self.seating is not None and not self.seating.dealt:
            return Outcome(
                finished=self.seating.cancelled,
                ending="cancelled" if self.seating.cancelled else None,
            )
        base = self.game.outcome(self.state)
        if not self.departures and not self.abandoned:  # the common case, asked at every step
            return msgspec.structs.replace(base, ending="rules") if base.finished else base
        sides = self.game.sides(self.seats)
        return leaving.outcome(base, sides, self.departures, abandoned=self.abandoned)

    def departed(self) -> frozenset[Seat]:
        return frozenset(seat for seat, _ in self.departures)

    def waiting(self) -> bool:
        """An open table still waiting for players: nothing is dealt, nobody is to act."""
        return self.seating is not None and self.seating.waiting

    def names(self) -> tuple[str | None, ...] | None:
        """Who sits where at an open table (None: an open seat); None if the creator seated it."""
        return None if self.seating is None else self.seating.names()

    def sitting(self, seat: Seat) -> int | None:
        """The event that seated `seat`'s player at an open table (its tokens are good for that
        sitting only); 0 at a table the creator seated; None for an open seat."""
        if self.seating is None:
            return 0
        if not 0 <= seat < self.seats:
            return None
        sitter = self.seating.sitters[seat]
        return None if sitter is None else sitter.sitting

    def to_act(self) -> frozenset[Seat]:
        if self.waiting() or self.outcome().finished:
            return frozenset()
        return self.game.to_act(self.state) - self.departed()

    def play(
        self,
        seat: Seat | None,
        command: msgspec.Struct,
        chance: Chance,
        *,
        at: datetime | None = None,
    ) -> list[Played]:
        """Decide a command of `seat` (None: the referee) and apply its events; on a refusal
        nothing changes. A timed game needs the time `at` which the command is accepted.

        `chance` must stand at `self.chance_cursor` (use `chance_for`).
        """
        if self.outcome().finished:
            raise GameOver("the game is over")
        if chance.cursor != self.chance_cursor:
            raise ValueError("the chance must stand at the table's cursor (use chance_for)")
        if isinstance(command, Sit | LeaveSeat | CancelTable):
            return self._seat_command(seat, command, chance, at)
        if self.waiting():
            raise refusal(
                "table-waiting", "The table is waiting for players: nothing is dealt yet."
            )
        if isinstance(command, Resign | ClaimTimeout | Abandon):
            return self._step(self._kernel_events(seat, command, at), chance)
        if seat is None:
            raise refusal("referee-has-no-moves", "The referee makes no move of the game.")
        self._check_present(seat)
        if seat not in self.to_act():
            raise NotYourTurn(seat)
        events: list[msgspec.Struct] = []
        if self.clocks is not None:
            now = _required(at)
            if self.clocks.out_of_time(seat, now):
                raise refusal("out-of-time", f"Seat {seat}'s time has run out.")
            events.append(ClockRead(at=now, seat=seat))
        events += self.game.decide(self.state, seat, command, chance)
        return self._step(events, chance)

    def _seat_command(
        self,
        seat: Seat | None,
        command: Sit | LeaveSeat | CancelTable,
        chance: Chance,
        at: datetime | None,
    ) -> list[Played]:
        """Sitting down at an open table, getting up, or the referee cancelling it."""
        seating = self.seating
        if seating is None:
            raise refusal("not-an-open-table", "Its creator seated this table: no seat is open.")
        if isinstance(command, CancelTable):
            if seat is not None:
                raise refusal("referee-only", "Only the referee cancels an unfilled table.")
            if not seating.waiting:
                raise refusal("table-not-waiting", "This table is not waiting for players.")
            if _required(at) < seating.expires_at:
                raise refusal("table-not-expired", f"The table waits until {seating.expires_at}.")
            return self._step([TableCancelled(open_seats=seating.open_seats())], chance)
        if seat is None:
            raise refusal("referee-has-no-seat", "The referee takes no seat.")
        if isinstance(command, LeaveSeat):
            seating.check_leave(seat)
            return self._step([SeatLeft(seat=seat)], chance)
        taken = SeatTaken(seat=seat, name=normal_name(command.name), entropy=command.entropy)
        return self._take_seats([taken], chance, at)

    def _take_seats(
        self, taken: list[SeatTaken], chance: Chance, at: datetime | None
    ) -> list[Played]:
        """Seat players; once the last seat is taken, deal, from the chance keyed by every
        seat's entropy. Worked out on a copy: a refusal leaves the table as it was."""
        scratch = copy.copy(self)
        events: list[msgspec.Struct] = list(taken)
        for sitting in taken:
            scratch._apply(sitting, chance.cursor)
        assert scratch.seating is not None
        if scratch.seating.dealt:
            chance = chance.for_seats(scratch.seating.entropies())
            opening = scratch._opening(chance, at)
            for event in opening:
                scratch._apply(event, chance.cursor)
            events += opening
        scratch.chance_cursor = chance.cursor
        self.__dict__.update(vars(scratch))
        return [Played(event, chance.cursor) for event in events]

    def _kernel_events(
        self, seat: Seat | None, command: Resign | ClaimTimeout | Abandon, at: datetime | None
    ) -> list[msgspec.Struct]:
        """The events of a kernel command, or its refusal."""
        if isinstance(command, Abandon):
            if seat is not None:
                raise refusal("referee-only", "Only the referee closes an abandoned game.")
            return [Abandoned(idle_seconds=command.idle_seconds)]
        if seat is not None:
            self._check_present(seat)
        reading = [] if self.clocks is None else [ClockRead(at=_required(at))]
        if isinstance(command, Resign):
            if seat is None:
                raise refusal("referee-cannot-resign", "Only a seat can resign.")
            return [*reading, Resigned(seat=seat)]
        self._check_claim(seat, command.seat, _required(at) if self.clocks else None)
        return [*reading, TimedOut(seat=command.seat)]

    def _check_present(self, seat: Seat) -> None:
        if seat in self.departed():
            raise refusal("seat-left", f"Seat {seat} has left this game.")

    def _check_claim(self, claimant: Seat | None, seat: Seat, at: datetime | None) -> None:
        if self.clocks is None or at is None:
            raise refusal("no-time-control", "This game has no time control.")
        if claimant == seat:
            raise refusal("own-timeout", "A seat cannot claim its own timeout.")
        if seat >= self.seats or seat not in self.to_act():
            raise refusal("not-on-the-clock", f"Seat {seat} is not to act: its clock is stopped.")
        if not self.clocks.out_of_time(seat, at):
            left = self.clocks.left(seat, at, acting=True) or 0.0
            raise refusal("time-remains", f"Seat {seat} has {left:.3f} s left.")

    def _step(self, events: list[msgspec.Struct], chance: Chance) -> list[Played]:
        """Apply a step's events, then the referee's moves for seats that left, if it waits
        for any. Worked out on a copy: a refusal on the way leaves the table as it was."""
        scratch = copy.copy(self)
        for event in events:
            scratch._apply(event, chance.cursor)
        events = events + scratch._stand_ins(chance)
        scratch.chance_cursor = chance.cursor
        self.__dict__.update(vars(scratch))
        return [Played(event, chance.cursor) for event in events]

    def _stand_ins(self, chance: Chance) -> list[msgspec.Struct]:
        """Moves the referee makes, now, for seats that have left (see `leaving`)."""
        made: list[msgspec.Struct] = []
        for _ in range(MAX_STAND_INS):
            if self.outcome().finished:
                return made
            waiting = sorted(self.game.to_act(self.state) & self.departed())
            if not waiting:
                return made
            seat = waiting[0]
            command = leaving.stand_in(self.game, self.state, seat)
            step = [StandIn(seat=seat), *self.game.decide(self.state, seat, command, chance)]
            for event in step:
                self._apply(event, chance.cursor)
            made += step
        raise RuntimeError(f"the referee played {MAX_STAND_INS} moves for seats that left")

    def reveal_seed(self, seed: bytes) -> Played:
        """The closing event of a finished game."""
        if commitment(seed) != self.created.commitment:
            raise ValueError("this seed does not match the game's commitment")
        played = Played(SeedRevealed(seed=seed.hex()), self.chance_cursor)
        self._apply(played.event, played.chance_cursor)
        return played

    def close(self, seed: bytes) -> list[Played]:
        """The closing events due now: the seed revealed once the game has just finished.

        Empty while the game runs and once the seed is out. Whoever records a game appends
        these with the events that end it; an audit re-executes the same rule.
        """
        if self.seed_revealed or not self.outcome().finished:
            return []
        return [self.reveal_seed(seed)]

    def advance(self, played: Iterable[Played]) -> None:
        """Fold events recorded after this table's version, as `replay` does."""
        for item in played:
            self._apply(item.event, item.chance_cursor)

    def chance_for(self, seed: bytes, game_id: str) -> Chance:
        """The game's stream at the table's cursor (CHANCE.md: the key of an open table covers
        every seat's entropy, so it is made once the last seat is taken)."""
        if self.seating is None:
            return Chance.for_game(seed, game_id, self.created.entropy, self.chance_cursor)
        key_for = partial(open_table_key, seed, game_id, self.created.entropy)
        if self.seating.waiting:
            return WaitingChance(key_for, self.chance_cursor)
        return Chance(key_for(self.seating.entropies()), self.chance_cursor)

    # -- fold ---------------------------------------------------------------------------------

    def _apply_all(self, events: Sequence[msgspec.Struct], cursor: int) -> list[Played]:
        played = [Played(event, cursor) for event in events]
        for item in played:
            self._apply(item.event, item.chance_cursor)
        return played

    def _apply(self, event: msgspec.Struct, cursor: int) -> None:
        if type(event) in _KERNEL_EVENT_TYPES:
            self._apply_kernel_event(event)
        else:  # most of a stream: the game's own events
            self.state = self.game.evolve(self.state, event)
        self.chance_cursor = cursor
        self.version += 1

    def _apply_kernel_event(self, event: msgspec.Struct) -> None:
        match event:
            case SeedRevealed():
                self.seed_revealed = True
            case GameCreated():
                raise ValueError("game.created may only open a stream")
            case TimeControlSet() | BotsSeated() | TableOpened():
                self._apply_setting(event)
            case SeatTaken() | SeatLeft() | TableCancelled():
                self._apply_seating(event)
            case ClockRead():
                if self.clocks is None:
                    raise ValueError("a clock reading in a game with no time control")
                self.clocks = self.clocks.read(event.at, event.seat, self.to_act())
            case Resigned() | TimedOut():
                self._apply_departure(event)
            case StandIn():
                if event.seat not in self.departed() & self.game.to_act(self.state):
                    raise ValueError(f"the referee stands in for seat {event.seat} out of turn")
            case Abandoned():
                self.abandoned = True
            case _:
                raise AssertionError(f"{type(event).__name__} is not in KERNEL_EVENTS")

    def _apply_setting(self, event: TimeControlSet | BotsSeated | TableOpened) -> None:
        # Settings come right after game.created, each at most once, in this order.
        settled = (self.clocks is not None) + bool(self.bots) + (self.seating is not None)
        if isinstance(event, TimeControlSet):
            again = self.clocks is not None or bool(self.bots) or self.seating is not None
        elif isinstance(event, BotsSeated):
            again = bool(self.bots) or self.seating is not None
        else:
            again = self.seating is not None
        if again or self.version != 1 + settled:
            raise ValueError(f"{type(event).__name__} only follows game.created, once")
        if isinstance(event, TimeControlSet):
            check_table_settings(self.seats, event.time_control, self.bots)
            self.clocks = Clocks.start(event.time_control, self.seats)
        elif isinstance(event, BotsSeated):
            check_table_settings(self.seats, None, event.seats)
            self.bots = event.seats
        else:
            self.seating = Seating.empty(event.visibility, event.expires_at, self.seats)

    def _apply_seating(self, event: SeatTaken | SeatLeft | TableCancelled) -> None:
        if self.seating is None:
            raise ValueError(f"{type(event).__name__} at a table its creator seated")
        if isinstance(event, SeatTaken):
            self.seating = self.seating.take(event, self.version + 1)
        elif isinstance(event, SeatLeft):
            self.seating = self.seating.leave(event.seat)
        elif not self.seating.waiting or event.open_seats != self.seating.open_seats():
            raise ValueError("only a table waiting for the seats it names is cancelled")
        else:
            self.seating = self.seating.cancel()

    def _apply_departure(self, event: Resigned | TimedOut) -> None:
        if not 0 <= event.seat < self.seats or event.seat in self.departed():
            raise ValueError(f"seat {event.seat} cannot leave")
        if self.outcome().finished:
            raise ValueError("a seat leaves a finished game")
        how: Departure = "resignation" if isinstance(event, Resigned) else "timeout"
        self.departures = (*self.departures, (event.seat, how))


def check_table_settings(
    seats: int, time_control: TimeControl | None, bots: Sequence[BotSeat]
) -> None:
    """A time control that limits something; bots on distinct seats of the game."""
    if time_control is not None and (
        time_control.per_move_seconds is None and time_control.total_seconds is None
    ):
        raise refusal("time-control", "A time control sets per_move_seconds or total_seconds.")
    taken = [bot.seat for bot in bots]
    if len(set(taken)) != len(taken) or any(seat >= seats for seat in taken):
        raise refusal("bot-seats", f"Bots sit on distinct seats, from 0 to {seats - 1}.")


def _required(at: datetime | None) -> datetime:
    """A step's time, in UTC: recorded the same however the database's session zone reads it."""
    if at is None or at.tzinfo is None:
        raise ValueError("a timed game's step needs its time, with a time zone")
    return at.astimezone(UTC)


def check_seats(game: Game[Any, Any, Any, Any], seats: int) -> None:
    if seats not in game.seat_counts:
        allowed = ", ".join(str(count) for count in game.seat_counts)
        raise RuleViolation(
            f"{game.kind}.seat-count",
            f"{game.title} is played by {allowed} players, not {seats}.",
        )

"""Tribù behind the kernel's Game contract: wiring only."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.tribu import decide, flow, legal, scoring, setup, stages, views
from referee.games.tribu.commands import Command
from referee.games.tribu.data import MAX_PLAYERS, MIN_PLAYERS
from referee.games.tribu.events import Event
from referee.games.tribu.evolve import evolve
from referee.games.tribu.options import Options, validate
from referee.games.tribu.state import State, initial_state
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat
from referee.kernel.flow import then_advance

KIND = "tribu"
VERSION = "1"


class Tribu:
    kind = KIND
    title = "Tribù"
    version = VERSION
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    seat_counts = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    options_type = Options
    command_type = Command
    event_type = Event
    view_type = views.TribuView

    def validate_options(self, options: Options, seats: int) -> None:
        validate(options, seats)

    def initial_state(self, options: Options, seats: int) -> State:
        return initial_state(seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        state = self.initial_state(options, seats)
        return then_advance(
            state, setup.setup(options, seats, chance), chance, evolve, flow.next_step
        )

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        events = decide.decide(state, seat, command, chance)
        return then_advance(state, events, chance, evolve, flow.next_step)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        return stages.to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return legal.legal_commands(state, seat)

    def view(self, state: State, seat: Seat | None) -> views.TribuView:
        return views.view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return views.redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        return scoring.outcome(state)


GAME = Tribu()

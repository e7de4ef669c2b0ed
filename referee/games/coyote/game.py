"""Coyote as the kernel sees it: the contract, wired to the modules that implement each part."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.coyote.commands import Command
from referee.games.coyote.decide import decide
from referee.games.coyote.events import Event
from referee.games.coyote.evolve import evolve
from referee.games.coyote.legal import legal_commands
from referee.games.coyote.options import Options, validate
from referee.games.coyote.scoring import outcome
from referee.games.coyote.setup import setup
from referee.games.coyote.stages import to_act
from referee.games.coyote.state import State, initial_state
from referee.games.coyote.views import CoyoteView, redact, view
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat


class Coyote:
    kind = "coyote"
    title = "Coyote"
    version = "1"
    min_seats = 3
    max_seats = 6
    seat_counts = tuple(range(min_seats, max_seats + 1))
    options_type = Options
    command_type = Command
    event_type = Event
    view_type = CoyoteView

    def validate_options(self, options: Options, seats: int) -> None:
        validate(options, seats)

    def initial_state(self, options: Options, seats: int) -> State:
        return initial_state(options, seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        return setup(options, seats, chance)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        return decide(state, seat, command, chance)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return legal_commands(state, seat)

    def view(self, state: State, seat: Seat | None) -> CoyoteView:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        return outcome(state)


GAME = Coyote()

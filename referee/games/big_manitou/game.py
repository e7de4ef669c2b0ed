"""Big Manitou behind the kernel's Game contract: wiring only.

A command's own events (`decide`) and the opening (`setup`) are followed by the referee's own
steps (`flow.next_step`), folded one by one in the kernel's loop until a player must choose.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.big_manitou import views
from referee.games.big_manitou.commands import Command
from referee.games.big_manitou.data import MAX_PLAYERS, MIN_PLAYERS
from referee.games.big_manitou.decide import KIND, decide
from referee.games.big_manitou.events import Event
from referee.games.big_manitou.evolve import evolve
from referee.games.big_manitou.flow import next_step
from referee.games.big_manitou.legal import legal_commands
from referee.games.big_manitou.options import Options, validate
from referee.games.big_manitou.scoring import outcome
from referee.games.big_manitou.setup import setup
from referee.games.big_manitou.stages import to_act
from referee.games.big_manitou.state import State, initial_state
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat
from referee.kernel.flow import then_advance


class BigManitou:
    kind = KIND
    title = "Manitou (Big Manitou)"
    version = "1"
    min_seats = MIN_PLAYERS
    max_seats = MAX_PLAYERS
    seat_counts = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    options_type = Options
    command_type = Command
    event_type = Event
    view_type = views.BigManitouView

    def validate_options(self, options: Options, seats: int) -> None:
        validate(options, seats)

    def initial_state(self, options: Options, seats: int) -> State:
        return initial_state(options, seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        """The bag shuffled first, then the first hunt (and, if not given, the first dealer)."""
        events = setup(options, seats, chance)
        return then_advance(initial_state(options, seats), events, chance, evolve, next_step)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        events = decide(state, seat, command, chance)
        return then_advance(state, events, chance, evolve, next_step)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return legal_commands(state, seat)

    def view(self, state: State, seat: Seat | None) -> views.BigManitouView:
        return views.view(state, seat)

    def redact(self, event: views.RedactedT, seat: Seat | None) -> views.RedactedT:
        return views.redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        return outcome(state)


GAME = BigManitou()

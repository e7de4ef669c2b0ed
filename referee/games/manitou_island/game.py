"""Manitou, the island card game (Manitou Gameworks), as a game of the referee: wiring only.

A command's own events (`decide`) are followed by the referee's own steps (`flow.next_step`: the
end of a game, the next deal of a match), folded one by one in the kernel's loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.manitou_island import views
from referee.games.manitou_island.commands import Command
from referee.games.manitou_island.decide import decide
from referee.games.manitou_island.events import Event
from referee.games.manitou_island.evolve import evolve
from referee.games.manitou_island.flow import next_step
from referee.games.manitou_island.legal import legal_commands
from referee.games.manitou_island.options import Options, validate
from referee.games.manitou_island.scoring import outcome
from referee.games.manitou_island.setup import setup
from referee.games.manitou_island.stages import to_act
from referee.games.manitou_island.state import State, initial_state
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat
from referee.kernel.flow import then_advance

KIND = "manitou-island"
VERSION = "1"


class ManitouIsland:
    kind = KIND
    title = "Manitou (the island card game)"
    version = VERSION
    min_seats = 2
    max_seats = 4
    seat_counts: tuple[int, ...] = (2, 4)  # head to head, or two teams of two
    options_type = Options
    command_type = Command
    event_type = Event
    view_type = views.View

    def validate_options(self, options: Options, seats: int) -> None:
        validate(options, seats)

    def initial_state(self, options: Options, seats: int) -> State:
        return initial_state(options, seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        return setup(options, seats, chance)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        events = decide(state, seat, command, chance)
        return then_advance(state, events, chance, evolve, next_step)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        return to_act(state)

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return legal_commands(state, seat)

    def view(self, state: State, seat: Seat | None) -> views.View:
        return views.view(state, seat)

    def redact(self, event: views.EventT, seat: Seat | None) -> views.EventT:
        return views.redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        return outcome(state)


GAME = ManitouIsland()

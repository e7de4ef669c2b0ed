"""Big Manitou behind the kernel's Game contract."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.big_manitou import views
from referee.games.big_manitou.booty import ranking, victory_points
from referee.games.big_manitou.commands import Command
from referee.games.big_manitou.data import MAX_PLAYERS, MIN_PLAYERS, TILE_BAG
from referee.games.big_manitou.events import BagFilled, Event
from referee.games.big_manitou.flow import advance
from referee.games.big_manitou.fold import evolve
from referee.games.big_manitou.legal import legal_commands
from referee.games.big_manitou.rules import KIND, command_events, refuse
from referee.games.big_manitou.stages import to_act
from referee.games.big_manitou.state import Options, State, initial_state
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat
from referee.kernel.piles import shuffled


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
        first = options.first_dealer
        if first is not None and not 0 <= first < seats:
            refuse("first-dealer", f"The first dealer must be one of the seats 0 to {seats - 1}.")

    def initial_state(self, options: Options, seats: int) -> State:
        return initial_state(options, seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        """The bag shuffled first, then the first hunt (and, if not given, the first dealer)."""
        events: list[Event] = [BagFilled(order=shuffled(chance, TILE_BAG, TILE_BAG))]
        state = self.initial_state(options, seats)
        for event in events:
            state = evolve(state, event)
        return events + advance(state, chance)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        events = command_events(state, seat, command)
        for event in events:
            state = evolve(state, event)
        return events + advance(state, chance)

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
        hoards = [player.tiles for player in state.players]
        points = victory_points(hoards, state.totem_holder, state.horse_holder)
        if not state.finished:
            return Outcome(finished=False)
        places = ranking(points, hoards)
        return Outcome(finished=True, winners=places[0], ranking=places, scores=points)


GAME = BigManitou()

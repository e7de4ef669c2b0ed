"""Coyote as the kernel sees it: the contract, wired to the modules that implement each part."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.coyote.commands import Command
from referee.games.coyote.data import DECK, MAX_FEATHERS, MIN_FEATHERS
from referee.games.coyote.dealing import setup_events
from referee.games.coyote.decide import decide
from referee.games.coyote.events import Event
from referee.games.coyote.evolve import evolve
from referee.games.coyote.legal import legal_command_space
from referee.games.coyote.model import Options, State
from referee.games.coyote.views import CoyoteView, redact, view
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, RuleViolation, Seat


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
        if not MIN_FEATHERS <= options.feathers <= MAX_FEATHERS:
            raise RuleViolation(
                "coyote.feathers",
                f"Each player starts with {MIN_FEATHERS} to {MAX_FEATHERS} feathers.",
            )

    def initial_state(self, options: Options, seats: int) -> State:
        return State(
            seats=seats,
            shaman=options.shaman,
            feathers=(options.feathers,) * seats,
            shaman_used=(False,) * seats,
            draw_pile=DECK,
            hands=((),) * seats,
        )

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        return setup_events(self.initial_state(options, seats), chance)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        return decide(state, seat, command, chance)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        if state.winner is not None or state.turn is None:
            return frozenset()
        return frozenset((state.turn,))

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return list(legal_command_space(state, seat))

    def view(self, state: State, seat: Seat | None) -> CoyoteView:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        if state.winner is None:
            return Outcome(finished=False)
        # Later out ranks better: the winner, then the eliminated seats from the last out.
        ranking = ((state.winner,), *((seat,) for seat in reversed(state.eliminated)))
        return Outcome(finished=True, winners=(state.winner,), ranking=ranking)

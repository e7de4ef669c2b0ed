"""Manitou, the island card game (Manitou Gameworks), as a game of the referee."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.manitou_island import fold, rules, views
from referee.games.manitou_island.commands import Command
from referee.games.manitou_island.deal import opening_events
from referee.games.manitou_island.events import Event
from referee.games.manitou_island.model import PLAYING, State, team_seats
from referee.games.manitou_island.options import Options, validate
from referee.games.manitou_island.scoring import match_winner
from referee.kernel.chance import Chance
from referee.kernel.contract import Outcome, Seat

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
        return State(seats=seats, options=options)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[Event]:
        return opening_events(options, seats, 1, chance)

    def decide(self, state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
        return rules.decide(state, seat, command, chance)

    def evolve(self, state: State, event: Event) -> State:
        return fold.evolve(state, event)

    def to_act(self, state: State) -> frozenset[Seat]:
        return frozenset({state.turn_seat}) if state.stage in PLAYING else frozenset()

    def legal_commands(self, state: State, seat: Seat) -> Sequence[Command]:
        return rules.legal_commands(state, seat)

    def view(self, state: State, seat: Seat | None) -> views.View:
        return views.view(state, seat)

    def redact(self, event: views.EventT, seat: Seat | None) -> views.EventT:
        return views.redact(event, seat)

    def outcome(self, state: State) -> Outcome:
        if state.stage != "over" or not state.results:
            return Outcome(finished=False)
        last = state.results[-1]
        if state.options.match_play:
            team_scores, winner = state.totals, match_winner(state.totals)
        else:
            team_scores, winner = last.scores, last.winner_team
        scores = tuple(team_scores[seat % 2] for seat in range(state.seats))
        if winner is None:
            return Outcome(finished=True, ranking=(tuple(range(state.seats)),), scores=scores)
        winners = team_seats(winner, state.seats)
        return Outcome(
            finished=True,
            winners=winners,
            ranking=(winners, team_seats(1 - winner, state.seats)),
            scores=scores,
        )


GAME = ManitouIsland()

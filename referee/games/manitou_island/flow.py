"""The referee's own steps: the end of a game, and in match play the deal of the next one.

`next_step` is what the kernel's loop (`referee.kernel.flow`, wired in game.py) asks after each
command; `[]` when a player must choose.
"""

from __future__ import annotations

from typing import assert_never

from referee.games.manitou_island.events import Event, GameEnded
from referee.games.manitou_island.legal import can_play
from referee.games.manitou_island.scoring import game_result, match_over
from referee.games.manitou_island.setup import opening_events
from referee.games.manitou_island.stages import stage
from referee.games.manitou_island.state import State
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat


def next_step(state: State, chance: Chance) -> list[Event]:
    current = stage(state)
    match current:
        case "start-of-turn":
            return closing_events(state)
        case "dealing":
            # Match play: a game has ended and the match goes on; the referee deals the next one.
            # (The first game is dealt by `setup`.)
            if not state.results:
                return []
            return opening_events(state.options, state.seats, state.game + 1, chance)
        case "specialty-played" | "over":
            return []
    assert_never(current)


def closing_events(after: State) -> list[Event]:
    """At the start of a turn (after a land card): the game ends when every land card is played,
    or when the seat to play cannot play a card (it forfeits, with its team: MI-6)."""
    if not after.pile and not any(after.hands):
        return end_game_events(after, None)
    if not can_play(after, after.turn_seat):
        return end_game_events(after, after.turn_seat)
    return []


def end_game_events(state: State, forfeited_seat: Seat | None) -> list[Event]:
    result = game_result(state, forfeited_seat)
    totals = (state.totals[0] + result.scores[0], state.totals[1] + result.scores[1])
    over = match_over(state, totals)
    ended = GameEnded(
        result=result,
        totals=totals,
        match_over=over,
        hands=state.hands,
        pile=state.pile,
        specialty=state.specialty,
    )
    return [ended]

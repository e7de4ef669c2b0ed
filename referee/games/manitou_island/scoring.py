"""Islands, their populations, the end of a game and of a match (MI-5, MI-6, MI-7), the outcome."""

from __future__ import annotations

import itertools

import msgspec

from referee.games.manitou_island.board import Board
from referee.games.manitou_island.data import Colour, land_card
from referee.games.manitou_island.state import (
    TEAMS,
    Cell,
    GameResult,
    State,
    board_map,
    colour_of_team,
    day_team,
    team_of,
    team_seats,
)
from referee.kernel.contract import Outcome, Seat
from referee.kernel.hexgrid import Hex, connected_regions


class Island(msgspec.Struct, frozen=True):
    colour: Colour
    population: int
    cells: tuple[Hex, ...]  # its land cards and the bridges that join them, sorted


def _is_island_part(cell: Cell, colour: Colour) -> bool:
    if cell.content == "bridge":
        return cell.colour == colour
    return (
        cell.content == "land" and cell.card is not None and land_card(cell.card).colour == colour
    )


def islands(board: Board, colour: Colour) -> list[Island]:
    """The islands of one colour, most populated first.

    An island is a group of face-up land cards of the colour sharing edges; bridges of that
    colour join the groups they (or a run of such bridges) touch. Water, whirlpools,
    lighthouses, the origin and the other colour's bridges join nothing and count nothing.
    """
    parts = [at for at, cell in board.items() if _is_island_part(cell, colour)]
    result = []
    for region in connected_regions(parts):
        lands = [board[at].card for at in region if board[at].content == "land"]
        if lands:  # bridges with no land card are not an island
            population = sum(land_card(card).number for card in lands if card is not None)
            result.append(Island(colour=colour, population=population, cells=tuple(sorted(region))))
    result.sort(key=lambda island: (-island.population, island.cells))
    return result


def populations(board: Board, colour: Colour) -> tuple[int, ...]:
    return tuple(island.population for island in islands(board, colour))


def compare(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """MI-6: the larger largest island wins; on a tie the second largest, and so on.

    1 if `first` wins, -1 if `second` wins, 0 for a draw (a missing island counts 0).
    """
    for a, b in itertools.zip_longest(first, second, fillvalue=0):
        if a != b:
            return 1 if a > b else -1
    return 0


def game_result(state: State, forfeited_seat: Seat | None) -> GameResult:
    """How the game stands now, as its end: by the islands, or lost by a forfeit."""
    board = board_map(state)
    by_team = tuple(populations(board, colour_of_team(state, team)) for team in TEAMS)
    largest = [pops[0] if pops else 0 for pops in by_team]
    if forfeited_seat is not None:
        loser = team_of(forfeited_seat)
        winner: int | None = 1 - loser
        largest[loser] = 0  # our ruling MI-R8: a forfeited game adds nothing to the match total
    else:
        verdict = compare(by_team[0], by_team[1])
        winner = None if verdict == 0 else (0 if verdict > 0 else 1)
    return GameResult(
        game=state.game,
        day_team=day_team(state),
        reason="all-land-played" if forfeited_seat is None else "forfeit",
        forfeited_seat=forfeited_seat,
        islands=(by_team[0], by_team[1]),
        winner_team=winner,
        scores=(largest[0], largest[1]),
    )


def match_over(state: State, totals: tuple[int, int]) -> bool:
    """A single game is over when it ends; a match when a team reaches the target and leads
    (our ruling MI-R7: equal totals at or past the target play another game)."""
    if not state.options.match_play:
        return True
    return max(totals) >= state.options.match_target and totals[0] != totals[1]


def match_winner(totals: tuple[int, int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def outcome(state: State) -> Outcome:
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

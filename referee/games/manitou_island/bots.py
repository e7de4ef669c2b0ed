"""What a bot may think (referee/kernel/bots.py): a world its seat cannot tell from the real one,
and a state's worth to a seat by the game's own scoring.

`imagine` keeps everything the view shows and deals what it hides at random: the other seats'
hands (a teammate's too, MI-R5) and the pile's order, from the 40 land cards less every card on
the board and in the seat's hand; and, for the other team, which of its specialty cards made
each specialty space on the board (a card carrying that face) and so which are still unused.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import cast

from referee.games.manitou_island import board as rules_board
from referee.games.manitou_island.data import (
    LAND_CARD_IDS,
    MATCH_TARGET,
    SPECIALTY_CARDS,
    Colour,
    Face,
)
from referee.games.manitou_island.legal import can_play
from referee.games.manitou_island.options import Borders, Options, bounded_board
from referee.games.manitou_island.scoring import outcome, populations
from referee.games.manitou_island.state import (
    Cell,
    SpecialtyCardState,
    State,
    board_map,
    colour_of_team,
    team_of,
)
from referee.games.manitou_island.views import CellView, TeamView, View
from referee.kernel.bots import ended, lead
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import Hex
from referee.kernel.unseen import deal_unseen, deal_until_it_fits

# A deal that leaves the seat to play without a turn (the game would have ended with its
# forfeit) is dealt again; a few tries find a fitting one.
ATTEMPTS = 200

SPECIALTY_FACES: frozenset[str] = frozenset({"whirlpool", "lighthouse", "bridge"})


def imagine(view: View, seat: Seat, rng: random.Random) -> State:
    """A state `seat` cannot tell from the real one, everything its view hides dealt at random."""
    return deal_until_it_fits(
        lambda: _dealt(view, seat, rng), lambda world: _fits(world, seat), ATTEMPTS
    )


def evaluate(state: State, seat: Seat) -> float:
    """The seat's team's lead in the match tally if the game ended now (MI-6, MI-7: each team's
    largest island, added to its total), or the final result."""
    if state.stage == "over":
        return ended(outcome(state).winners, seat)
    if not state.hands:  # nothing dealt yet: only the tally so far
        return lead(state.totals, team_of(seat))
    colours = (colour_of_team(state, 0), colour_of_team(state, 1))
    scores = largest_islands(state.board, colours)
    tally = tuple(total + score for total, score in zip(state.totals, scores, strict=True))
    return lead(tally, team_of(seat))


# The greedy bot scores each command in several imagined worlds that differ only in hidden
# cards: the board is the same in all of them, so its islands are counted once.
@functools.lru_cache(maxsize=4096)
def largest_islands(board: tuple[Cell, ...], colours: tuple[Colour, Colour]) -> tuple[int, ...]:
    """Each team's largest island: what the game adds to its tally if it ends now (MI-6)."""
    cells = {cell.at: cell for cell in board}
    return tuple(max(populations(cells, colour), default=0) for colour in colours)


# -- the imagined world ---------------------------------------------------------------------------


def _dealt(view: View, seat: Seat, rng: random.Random) -> State:
    board = tuple(_cell(cell) for cell in view.board)
    dealt = view.first_seat is not None
    hands, pile = _land_cards(view, board, rng) if dealt else ((), ())
    first_seat = view.first_seat or 0
    return State(
        seats=len(view.seats),
        options=_options(view),
        stage=view.stage,
        game=view.game,
        first_draws=view.first_player_draws,
        first_seat=first_seat,
        # Not shown once nobody is to play (between games, at the end), when nothing reads it.
        turn_seat=first_seat if view.turn_seat is None else view.turn_seat,
        origin=view.origin,
        hands=hands,
        pile=pile,
        board=board,
        specialty=(_specialty(view, view.teams[0], rng), _specialty(view, view.teams[1], rng)),
        totals=(view.teams[0].match_total, view.teams[1].match_total),
        results=view.results,
    )


def _cell(cell: CellView) -> Cell:
    card = cell.card.id if cell.card is not None else None
    return Cell(at=cell.at, content=cell.content, card=card, colour=cell.colour)


def _land_cards(
    view: View, board: tuple[Cell, ...], rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every hand and the pile: those the view shows, the others dealt from the unseen cards."""
    shown = {
        seat.seat: tuple(card.id for card in seat.hand)
        for seat in view.seats
        if seat.hand is not None
    }
    hidden = [seat for seat in view.seats if seat.hand is None]
    in_sight = [
        *(cell.card for cell in board if cell.card is not None),
        *(card for hand in shown.values() for card in hand),
    ]
    shown_pile = tuple(card.id for card in view.pile) if view.pile is not None else None
    if shown_pile is not None:
        in_sight += shown_pile
    sizes = [seat.hand_size for seat in hidden]
    *dealt, pile = deal_unseen(
        LAND_CARD_IDS, in_sight, (*sizes, 0 if shown_pile is not None else view.pile_size), rng
    )
    hands = shown | {seat.seat: hand for seat, hand in zip(hidden, dealt, strict=True)}
    return tuple(hands[seat] for seat in range(len(view.seats))), (
        pile if shown_pile is None else shown_pile
    )


def _options(view: View) -> Options:
    """The options the view implies. Borders whose origin the options fixed look like borders
    whose origin was drawn: only the next game of a match would tell them apart."""
    dealt = view.first_seat is not None
    borders = view.borders
    return Options(
        specialty_cards=not dealt or any(team.specialty_set for team in view.teams),
        match_play=view.match_play,
        match_target=view.match_target or MATCH_TARGET,
        borders=Borders(columns=borders.columns, rows=borders.rows) if borders else None,
    )


def _specialty(view: View, team: TeamView, rng: random.Random) -> tuple[SpecialtyCardState, ...]:
    """The team's specialty cards: as shown, or each played face given a card that carries it."""
    if team.specialty_cards is not None:
        return tuple(
            SpecialtyCardState(card=card.id, played_face=card.played_face, at=card.at)
            for card in team.specialty_cards
        )
    if team.specialty_set is None:
        return ()
    played = [
        (cast(Face, cell.content), cell.at)
        for cell in view.board
        if cell.content in SPECIALTY_FACES and cell.colour == team.colour
    ]
    used = rng.choice(_cards_for(played))
    return tuple(
        SpecialtyCardState(card=card.id, played_face=used[card.id][0], at=used[card.id][1])
        if card.id in used
        else SpecialtyCardState(card=card.id)
        for card in SPECIALTY_CARDS
    )


def _cards_for(played: list[tuple[Face, Hex]]) -> list[dict[str, tuple[Face, Hex]]]:
    """Every way to give each played face a different card that carries it (by card id)."""
    return [
        dict(zip((card.id for card in cards), played, strict=True))
        for cards in itertools.permutations(SPECIALTY_CARDS, len(played))
        if all(face in card.faces for card, (face, _) in zip(cards, played, strict=True))
    ]


def _fits(world: State, seat: Seat) -> bool:
    """Whether another seat to play has a turn in the world (the seat's own hand is real)."""
    if world.stage == "start-of-turn" and world.turn_seat != seat:
        return can_play(world, world.turn_seat)
    if world.stage == "specialty-played" and world.turn_seat != seat:
        bounds = bounded_board(world.options.borders)
        hand = world.hands[world.turn_seat]
        return rules_board.has_land_placement(board_map(world), bounds, hand)
    return True

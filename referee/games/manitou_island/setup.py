"""The opening of each game: the first-player draw (MI-1), the origin, the deal.

`setup` opens the first game; in match play the referee opens each next one the same way
(`opening_events`, from `flow.next_step`).

Every shuffle starts from the canonical order of the land cards (data.LAND_CARD_IDS):
1. First-player draw: shuffle; the drawing seats, in seat order, take the cards from the top.
   The highest number goes first; if several seats tie for it, only they draw again, from a new
   shuffle. The cards go back.
2. Borders with no fixed origin: the origin's space is uniform(number of spaces), an index into
   the board's spaces row by row.
3. Deal: shuffle; one card at a time, starting with the first player and going round, five each;
   the rest is the draw pile, top first.
"""

from __future__ import annotations

from referee.games.manitou_island import data
from referee.games.manitou_island.events import Event, FirstPlayerDrawn, GameDealt
from referee.games.manitou_island.options import Options, bounded_board, fixed_origin
from referee.games.manitou_island.state import SeatCard
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import ORIGIN, Hex


def setup(options: Options, seats: int, chance: Chance) -> list[Event]:
    return opening_events(options, seats, 1, chance)


def opening_events(options: Options, seats: int, game: int, chance: Chance) -> list[Event]:
    draws = first_player_draws(seats, game, chance)
    first_seat = _winner_of(draws[-1])
    origin = draw_origin(options, chance)
    deck = chance.shuffle(data.LAND_CARD_IDS)
    dealt = data.HAND_SIZE * seats
    # The k-th card goes to the seat k places after the first player, round and round.
    hands = tuple(tuple(deck[(seat - first_seat) % seats : dealt : seats]) for seat in range(seats))
    pile = tuple(deck[dealt:])
    deal = GameDealt(
        game=game,
        first_seat=first_seat,
        origin=origin,
        hands=hands,
        pile=pile,
        pile_size=len(pile),
    )
    return [*draws, deal]


def first_player_draws(seats: int, game: int, chance: Chance) -> list[FirstPlayerDrawn]:
    rounds = []
    drawing: list[Seat] = list(range(seats))
    while True:
        deck = chance.shuffle(data.LAND_CARD_IDS)
        draws = tuple(
            SeatCard(seat=seat, card=card) for seat, card in zip(drawing, deck, strict=False)
        )
        rounds.append(FirstPlayerDrawn(game=game, draws=draws))
        highest = max(data.land_card(draw.card).number for draw in draws)
        drawing = [draw.seat for draw in draws if data.land_card(draw.card).number == highest]
        if len(drawing) == 1:
            return rounds


def draw_origin(options: Options, chance: Chance) -> Hex:
    if options.borders is None:
        return ORIGIN
    fixed = fixed_origin(options.borders)
    if fixed is not None:
        return fixed
    board = bounded_board(options.borders)
    assert board is not None
    return board.cells[chance.uniform(len(board))]


def _winner_of(draw_round: FirstPlayerDrawn) -> Seat:
    return max(draw_round.draws, key=lambda draw: data.land_card(draw.card).number).seat

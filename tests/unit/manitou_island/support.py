"""Building Manitou positions for tests: a board, hands and a seat to act, run by a real Table.

A position is a State built directly (the rules are then exercised through `Table.play`, as the
API does). Every land card not on the board or in a hand is in the pile, so positions conserve
the 40 cards like real games.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import Command
from referee.games.manitou_island.data import LAND_CARD_IDS, SPECIALTY_CARDS, Colour
from referee.games.manitou_island.options import Options
from referee.games.manitou_island.stages import Stage
from referee.games.manitou_island.state import Cell, SpecialtyCardState, State
from referee.kernel import Played, Table
from referee.kernel.hexgrid import ORIGIN, Hex
from tests.unit.positions import opening

SEED = b"manitou-island-test-seed"
GAME_ID = "manitou-island-test"


def card(colour: Colour, number: int, copy: int = 0) -> int:
    """The id of a land card: day 1, day 1, day 2, ... night 10 (the canonical order)."""
    return (0 if colour == "day" else 20) + 2 * (number - 1) + copy


def day(number: int, copy: int = 0) -> int:
    return card("day", number, copy)


def night(number: int, copy: int = 0) -> int:
    return card("night", number, copy)


def land(q: int, r: int, card_id: int) -> Cell:
    return Cell(at=Hex(q, r), content="land", card=card_id)


def water(q: int, r: int, card_id: int) -> Cell:
    return Cell(at=Hex(q, r), content="water", card=card_id)


def whirlpool(q: int, r: int, colour: Colour = "night") -> Cell:
    return Cell(at=Hex(q, r), content="whirlpool", colour=colour)


def lighthouse(q: int, r: int, card_id: int, colour: Colour = "day") -> Cell:
    return Cell(at=Hex(q, r), content="lighthouse", card=card_id, colour=colour)


def bridge(q: int, r: int, card_id: int, colour: Colour = "day") -> Cell:
    return Cell(at=Hex(q, r), content="bridge", card=card_id, colour=colour)


def fresh_specialty() -> tuple[SpecialtyCardState, ...]:
    return tuple(SpecialtyCardState(card=c.id) for c in SPECIALTY_CARDS)


def position(
    cells: Iterable[Cell] = (),
    *,
    hands: tuple[tuple[int, ...], ...] = ((), ()),
    pile: tuple[int, ...] | None = None,
    seats: int | None = None,
    first_seat: int = 0,
    turn_seat: int = 0,
    stage: Stage = "start-of-turn",
    options: Options | None = None,
    origin: Hex = ORIGIN,
    specialty: tuple[tuple[SpecialtyCardState, ...], ...] | None = None,
    totals: tuple[int, int] = (0, 0),
    game: int = 1,
) -> Table:
    options = options or Options()
    seats = seats or len(hands)
    board = (Cell(at=origin, content="origin"), *cells)
    used = {cell.card for cell in board if cell.card is not None} | {c for h in hands for c in h}
    if pile is None:
        pile = tuple(c for c in LAND_CARD_IDS if c not in used)
    if specialty is None:
        specialty = (fresh_specialty(), fresh_specialty()) if options.specialty_cards else ((), ())
    state = State(
        seats=seats,
        options=options,
        stage=stage,
        game=game,
        first_seat=first_seat,
        turn_seat=turn_seat,
        origin=origin,
        hands=hands,
        pile=pile,
        board=board,
        specialty=specialty,
        totals=totals,
    )
    return Table(GAME, opening(GAME, options, seats, SEED), options, state)


def play(table: Table, seat: int, command: Command) -> list[msgspec.Struct]:
    """Play a command and return its events."""
    return [p.event for p in table.play(seat, command, table.chance_for(SEED, GAME_ID))]


def open_game(
    seats: int = 2, options: Options | None = None, seed: bytes = SEED
) -> tuple[Table, list[Played]]:
    return Table.open(GAME, options or Options(), seats, game_id=GAME_ID, seed=seed)


def cell_at(table: Table, q: int, r: int) -> Cell | None:
    state = table.state
    assert isinstance(state, State)
    return next((cell for cell in state.board if cell.at == Hex(q, r)), None)


def content_at(table: Table, q: int, r: int) -> str | None:
    cell = cell_at(table, q, r)
    return None if cell is None else cell.content


def count_land_cards(state: State) -> list[int]:
    """Every land card of the game, wherever it is: hands, pile, board (beneath anything)."""
    on_board = [cell.card for cell in state.board if cell.card is not None]
    return sorted([*on_board, *state.pile, *(c for hand in state.hands for c in hand)])


def night_9_trap() -> list[Cell]:
    """A board where a night 9 fits only at (4, 0): next to a night 4 at (3, 0), but also next to
    a day 2 at (5, 0). The origin and the night 4 are ringed with water."""
    around_origin = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    around_four = [(4, -1), (3, -1), (2, 0), (2, 1), (3, 1)]
    ring_origin = [
        water(*at, night(n)) for at, n in zip(around_origin, [1, 2, 3, 5, 6, 7], strict=True)
    ]
    ring_four = [water(*at, day(n)) for at, n in zip(around_four, [1, 3, 4, 5, 6], strict=True)]
    return [*ring_origin, *ring_four, land(3, 0, night(4)), land(5, 0, day(2))]


def state_of(table: Table) -> State:
    state = table.state
    assert isinstance(state, State)
    return state


def out_of_the_way(
    cells: Iterable[Cell],
    hands: Iterable[Iterable[int]],
    pile: Iterable[int] = (),
    row: int = 30,
) -> list[Cell]:
    """Every land card not in `cells`, the hands or `pile`, as water in a row far from play: a
    late position (pass `pile` to `position` too) whose 40 cards are conserved."""
    kept = {cell.card for cell in cells if cell.card is not None}
    kept |= {c for hand in hands for c in hand} | set(pile)
    rest = [c for c in LAND_CARD_IDS if c not in kept]
    return [water(q, row, c) for q, c in enumerate(rest)]


def played(card_id: str, face: str, at: Hex) -> SpecialtyCardState:
    """A specialty card already played, with `face` on `at` (put the matching cell on the
    board)."""
    return SpecialtyCardState(card=card_id, played_face=face, at=at)  # type: ignore[arg-type]

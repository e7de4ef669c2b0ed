"""Where cards may go on the board and what they turn to water: pure functions over a board.

A board here is a dict from space to Cell (built from the state's tuple for each question).
`bounds` is the bordered playing area, or None for an unbounded table.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from operator import attrgetter

from referee.games.manitou_island.data import Colour, Face, LandCard, land_card
from referee.games.manitou_island.state import Cell
from referee.kernel.hexgrid import Hex, HexBoard

Board = dict[Hex, Cell]
_SPACE = attrgetter("at")
Placement = tuple[int, Hex]  # (land card, space)


def face_up_land(board: Board, at: Hex) -> LandCard | None:
    cell = board.get(at)
    if cell is None or cell.content != "land" or cell.card is None:
        return None
    return land_card(cell.card)


def is_open(board: Board, bounds: HexBoard | None, at: Hex) -> bool:
    """An open space: empty, and on the playing area."""
    return at not in board and (bounds is None or at in bounds)


def touches_land_or_origin(board: Board, at: Hex) -> bool:
    """MI-2: a land card must touch a face-up land card or the origin (water, whirlpools,
    lighthouses and bridges do not count)."""
    for neighbour in at.neighbours():
        cell = board.get(neighbour)
        if cell is not None and cell.content in ("land", "origin"):
            return True
    return False


def adjacent_lands(board: Board, at: Hex) -> list[tuple[Hex, LandCard]]:
    result = []
    for neighbour in at.neighbours():
        card = face_up_land(board, neighbour)
        if card is not None:
            result.append((neighbour, card))
    return result


def matches(card: LandCard, other: LandCard) -> bool:
    return card.colour == other.colour or card.number == other.number


def mismatched(card: LandCard, board: Board, at: Hex) -> list[Hex]:
    """The adjacent face-up land cards that share neither colour nor number with `card`."""
    return [where for where, other in adjacent_lands(board, at) if not matches(card, other)]


def flooded_by_land(card: LandCard, board: Board, at: Hex) -> tuple[Hex, ...]:
    """The adjacent land cards of the same number and the other colour: they turn to water,
    lighthouse or not."""
    return tuple(
        where
        for where, other in adjacent_lands(board, at)
        if other.number == card.number and other.colour != card.colour
    )


def land_spaces(board: Board, bounds: HexBoard | None) -> list[Hex]:
    """Every open space that touches a face-up land card or the origin, sorted."""
    spaces: set[Hex] = set()
    for at, cell in board.items():
        if cell.content in ("land", "origin"):
            spaces.update(at.neighbours())
    spaces.difference_update(board)  # what `is_open` says, a set at a time
    if bounds is not None:
        spaces = {space for space in spaces if space in bounds}
    return sorted(spaces)


def land_placements(board: Board, bounds: HexBoard | None, hand: Sequence[int]) -> list[Placement]:
    """Every (card, space) a hand may play, sorted by card then space."""
    cards = [land_card(card) for card in sorted(hand)]
    placements: list[Placement] = []
    for space, neighbours in _land_spaces_and_neighbours(board, bounds):
        placements.extend((card.id, space) for card in cards if fits(card, neighbours))
    placements.sort()
    return placements


def has_land_placement(board: Board, bounds: HexBoard | None, hand: Sequence[int]) -> bool:
    cards = [land_card(card) for card in set(hand)]
    return any(
        fits(card, neighbours)
        for _, neighbours in _land_spaces_and_neighbours(board, bounds)
        for card in cards
    )


def _land_spaces_and_neighbours(
    board: Board, bounds: HexBoard | None
) -> Iterator[tuple[Hex, list[LandCard]]]:
    """Each of `land_spaces`, with the face-up land cards next to it. The cards in play are
    mapped once (what `face_up_land` finds one at a time): a legal read looks at the
    neighbours of every open space."""
    lands = {
        at: land_card(cell.card)
        for at, cell in board.items()
        if cell.content == "land" and cell.card is not None
    }
    for space in land_spaces(board, bounds):
        yield space, [lands[n] for n in space.neighbours() if n in lands]


def fits(card: LandCard, neighbours: Sequence[LandCard]) -> bool:
    """MI-2: `card` matches each of `neighbours` by colour or number (what `mismatched` finds
    none of). A loop, not `all(matches(...))`: a legal read asks it of every card of a hand on
    every open space."""
    colour, number = card.colour, card.number
    for other in neighbours:  # noqa: SIM110 - a third of the time of all(...) here
        if other.colour != colour and other.number != number:
            return False
    return True


def with_land(board: Board, card: int, at: Hex, flooded: Iterable[Hex]) -> Board:
    result = dict(board)
    result[at] = Cell(at=at, content="land", card=card)
    _flood(result, flooded)
    return result


def cells_with_land(
    cells: tuple[Cell, ...], card: int, at: Hex, flooded: Collection[Hex]
) -> tuple[Cell, ...]:
    """A state's board (its cells, in the order they came) with a land card played: what
    `with_land` makes of it, in the same order. The fold's own path (a long game plays a land
    card every other event): a card that floods nothing, the usual case, is added without
    building a dict of the board."""
    if flooded:
        return tuple(with_land({cell.at: cell for cell in cells}, card, at, flooded).values())
    if at in map(_SPACE, cells):  # decide refuses it (space-taken): a forged event
        raise ValueError(f"a land card on a taken space ({at.q}, {at.r}) cannot be folded")
    return (*cells, Cell(at=at, content="land", card=card))


# -- specialty cards -----------------------------------------------------------------------------


def is_protected(board: Board, at: Hex) -> bool:
    """A land card next to a lighthouse is safe from whirlpools."""
    return any(
        (cell := board.get(n)) is not None and cell.content == "lighthouse" for n in at.neighbours()
    )


def flooded_by_whirlpool(board: Board, at: Hex) -> tuple[Hex, ...]:
    """Every adjacent land card in play, except those a lighthouse protects."""
    return tuple(where for where, _ in adjacent_lands(board, at) if not is_protected(board, where))


def touches_any_card(board: Board, at: Hex) -> bool:
    return any(n in board for n in at.neighbours())


def whirlpool_spaces(board: Board, bounds: HexBoard | None) -> list[Hex]:
    """MI-4: open spaces that touch at least one card in play."""
    spaces: set[Hex] = set()
    for at in board:
        spaces.update(n for n in at.neighbours() if is_open(board, bounds, n))
    return sorted(spaces)


def is_own_land(board: Board, at: Hex, colour: Colour) -> bool:
    card = face_up_land(board, at)
    return card is not None and card.colour == colour


def lighthouse_spaces(board: Board, colour: Colour) -> list[Hex]:
    """A lighthouse goes on one of the player's own (colour's) face-up land cards."""
    return sorted(at for at in board if is_own_land(board, at, colour))


def touches_own_land(board: Board, at: Hex, colour: Colour) -> bool:
    return any(is_own_land(board, n, colour) for n in at.neighbours())


def bridge_spaces(board: Board, colour: Colour) -> list[Hex]:
    """A bridge goes on water (not a whirlpool) next to one of the player's own land cards."""
    return sorted(
        at
        for at, cell in board.items()
        if cell.content == "water" and touches_own_land(board, at, colour)
    )


def with_specialty(
    board: Board, face: Face, at: Hex, colour: Colour, flooded: Iterable[Hex]
) -> Board:
    result = dict(board)
    beneath = board[at].card if at in board else None  # the sacrificed card, or the water
    result[at] = Cell(at=at, content=face, card=beneath, colour=colour)
    _flood(result, flooded)
    return result


def _flood(board: Board, spaces: Iterable[Hex]) -> None:
    for at in spaces:
        board[at] = Cell(at=at, content="water", card=board[at].card)

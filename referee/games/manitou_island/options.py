"""The game's options (MI-7): team play comes from the seat count, the rest is chosen here."""

from __future__ import annotations

import functools

import msgspec

from referee.games.manitou_island import data
from referee.kernel.contract import RuleViolation
from referee.kernel.hexgrid import Hex, HexBoard, OffsetLayout, offset_to_axial

BORDER_LAYOUT = OffsetLayout.ODD_R


class Borders(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A bounded playing area: `rows` rows of `columns` pointy-top hexes, odd rows shifted right.

    The origin sits at (origin_column, origin_row), counted from 0; leave both out to have the
    referee draw its space at random for each game.
    """

    columns: int = data.DEFAULT_BORDER_COLUMNS
    rows: int = data.DEFAULT_BORDER_ROWS
    origin_column: int | None = None
    origin_row: int | None = None


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Two seats play head to head; four seats play in teams (seats 0 and 2 against 1 and 3)."""

    specialty_cards: bool = True
    match_play: bool = False
    match_target: int = data.MATCH_TARGET
    borders: Borders | None = None


def validate(options: Options, seats: int) -> None:
    if options.match_target < 1:
        raise RuleViolation("manitou-island.match-target", "A match target must be at least 1.")
    if not options.match_play and options.match_target != data.MATCH_TARGET:
        raise RuleViolation(
            "manitou-island.match-target-without-match-play",
            "A match target only applies with match play.",
        )
    if options.borders is not None:
        validate_borders(options.borders)


def validate_borders(borders: Borders) -> None:
    low, high = data.MIN_BORDER_SIDE, data.MAX_BORDER_SIDE
    if not (low <= borders.columns <= high and low <= borders.rows <= high):
        raise RuleViolation(
            "manitou-island.border-size",
            f"A bordered board has {low} to {high} columns and {low} to {high} rows.",
        )
    if borders.columns * borders.rows < data.MIN_BORDER_CELLS:
        raise RuleViolation(
            "manitou-island.border-size",
            f"A bordered board needs at least {data.MIN_BORDER_CELLS} spaces: "
            "the origin and every land card.",
        )
    column, row = borders.origin_column, borders.origin_row
    if (column is None) != (row is None):
        raise RuleViolation(
            "manitou-island.border-origin",
            "Give both the origin's column and its row, or neither to draw it at random.",
        )
    if (
        column is not None
        and row is not None
        and not (0 <= column < borders.columns and 0 <= row < borders.rows)
    ):
        raise RuleViolation(
            "manitou-island.border-origin", "The origin must lie on the bordered board."
        )


def bounded_board(borders: Borders | None) -> HexBoard | None:
    """The spaces of a bordered board in row-major order (None: the table is unbounded)."""
    if borders is None:
        return None
    return _rectangle(borders.columns, borders.rows)


@functools.cache
def _rectangle(columns: int, rows: int) -> HexBoard:
    return HexBoard.rectangle(columns, rows, BORDER_LAYOUT)


def fixed_origin(borders: Borders) -> Hex | None:
    """The origin's space when the options fix it."""
    if borders.origin_column is None or borders.origin_row is None:
        return None
    return offset_to_axial(borders.origin_column, borders.origin_row, BORDER_LAYOUT)

"""What happened. Every outcome of a draw is in an event, so the fold never draws."""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.manitou_island.data import Face, SpecialtyCardId
from referee.games.manitou_island.state import GameResult, SeatCard, SpecialtyCardState
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import Hex


class FirstPlayerDrawn(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag="manitou-island.first-player-drawn",
):
    """One round of the first-player draw (MI-1), face up; the seats tied for highest redraw."""

    game: int
    draws: tuple[SeatCard, ...]


class GameDealt(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="manitou-island.game-dealt"
):
    """The origin placed, five cards dealt to each seat, the rest forms the draw pile.

    `hands[seat]` is None for every seat but the viewer's; `pile` (top first) is None for all.
    """

    game: int
    first_seat: Seat
    origin: Hex
    hands: tuple[tuple[int, ...] | None, ...]
    pile: tuple[int, ...] | None
    pile_size: int


class SpecialtyPlayed(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag="manitou-island.specialty-played",
):
    """A specialty face played; `card` (which says the unused face) only for the seat's team."""

    seat: Seat
    card: SpecialtyCardId | None
    face: Face
    at: Hex
    flooded: tuple[Hex, ...]  # the land cards a whirlpool turned to water


class LandPlayed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="manitou-island.land-played"
):
    seat: Seat
    card: int
    at: Hex
    flooded: tuple[Hex, ...]  # same-number cards of the other colour turned to water


class LandDrawn(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="manitou-island.land-drawn"
):
    """The draw that ends a turn: the top card of the pile; `card` only for the drawing seat."""

    seat: Seat
    card: int | None


class GameEnded(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="manitou-island.game-ended"
):
    """A game is over: its result, the match totals, and everything that was still hidden."""

    result: GameResult
    totals: tuple[int, int]
    match_over: bool
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    specialty: tuple[tuple[SpecialtyCardState, ...], ...]


Event = FirstPlayerDrawn | GameDealt | SpecialtyPlayed | LandPlayed | LandDrawn | GameEnded
EndReason = Literal["all-land-played", "forfeit"]

"""What a seat may send. A turn is an optional specialty card, then a land card (RULES.md)."""

from __future__ import annotations

import msgspec

from referee.games.manitou_island.data import Face, SpecialtyCardId
from referee.kernel.hexgrid import Hex


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class PlaySpecialty(_Command, frozen=True, tag="manitou-island.play-specialty"):
    """Play one face of one of your (your team's) specialty cards; a land card must follow."""

    card: SpecialtyCardId
    face: Face
    at: Hex


class PlayLand(_Command, frozen=True, tag="manitou-island.play-land"):
    """Play a land card from your hand face up; the draw that ends the turn follows by itself."""

    card: int
    at: Hex


Command = PlaySpecialty | PlayLand

"""The components of Manitou (the island card game), as data.

The pictures of the printed rules are lost; this list follows the text ("20 daytime land cards
(2 each of 1 through 10)", the same for nighttime) and ruling MI-3 for the specialty cards.
The tuples below are the **canonical order**: every shuffle starts from LAND_CARDS in this order,
so a third party can re-derive a deal from the revealed seed (RULES.md, "Canonical order").
"""

from __future__ import annotations

from typing import Literal

import msgspec

Colour = Literal["day", "night"]
COLOURS: tuple[Colour, Colour] = ("day", "night")

Face = Literal["whirlpool", "lighthouse", "bridge"]
SpecialtyCardId = Literal["whirlpool-lighthouse", "lighthouse-bridge", "bridge-whirlpool"]


class LandCard(msgspec.Struct, frozen=True):
    """A numbered land card; its back is water. `id` is its place in the canonical order."""

    id: int
    colour: Colour
    number: int


class SpecialtyCard(msgspec.Struct, frozen=True):
    """A double-faced specialty card (MI-3): playing it uses one face; the other stays secret."""

    id: SpecialtyCardId
    faces: tuple[Face, Face]


NUMBERS = tuple(range(1, 11))
COPIES_PER_NUMBER = 2

# Day 1, day 1, day 2, day 2, ..., day 10, day 10, then night in the same order: ids 0..39.
LAND_CARDS: tuple[LandCard, ...] = tuple(
    LandCard(id=index, colour=colour, number=number)
    for index, (colour, number) in enumerate(
        (colour, number)
        for colour in COLOURS
        for number in NUMBERS
        for _ in range(COPIES_PER_NUMBER)
    )
)
LAND_CARD_IDS: tuple[int, ...] = tuple(card.id for card in LAND_CARDS)

# Each side (sun for day, moon for night) holds one of each (MI-3).
SPECIALTY_CARDS: tuple[SpecialtyCard, ...] = (
    SpecialtyCard(id="whirlpool-lighthouse", faces=("whirlpool", "lighthouse")),
    SpecialtyCard(id="lighthouse-bridge", faces=("lighthouse", "bridge")),
    SpecialtyCard(id="bridge-whirlpool", faces=("bridge", "whirlpool")),
)
SPECIALTY_BY_ID: dict[str, SpecialtyCard] = {card.id: card for card in SPECIALTY_CARDS}
SPECIALTY_SET_OF: dict[Colour, Literal["sun", "moon"]] = {"day": "sun", "night": "moon"}

HAND_SIZE = 5
MATCH_TARGET = 200

# Borders (MI-7; our ruling MI-R6): a rectangle of pointy-top hexes, odd rows shifted right.
DEFAULT_BORDER_COLUMNS = 10
DEFAULT_BORDER_ROWS = 8
MIN_BORDER_SIDE = 3
MAX_BORDER_SIDE = 40
MIN_BORDER_CELLS = 1 + len(LAND_CARDS)  # room for the origin and every land card


def land_card(card_id: int) -> LandCard:
    return LAND_CARDS[card_id]


def is_land_card(card_id: int) -> bool:
    return 0 <= card_id < len(LAND_CARDS)

"""The components of Big Manitou and the numbers of its set-up, as data (the project's rulings
BM-1, BM-2, stated in RULES.md).

Identical components share one value: a player's two Chiefs are both "chief", the eight
one-Tepee tiles are all "tepee-1". The tuples below are the canonical orders that every shuffle
starts from (RULES.md, "Canonical order").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

HunterKind = Literal[
    "hunter-1",
    "hunter-2",
    "hunter-3",
    "hunter-4",
    "hunter-5",
    "hunter-6",
    "hunter-7",
    "hunter-8",
    "hunter-9",
    "hunter-10",
]
HeroKind = Literal["chief", "squaw", "rain-maker", "scout", "medicine-man"]
CardKind = Literal[HunterKind, HeroKind]

TileKind = Literal[
    "tepee-1",
    "tepee-2",
    "tepee-3",
    "buffalo-1",
    "buffalo-2",
    "buffalo-3",
    "totem",
    "horse",
    "tomahawk",
]
Cylinder = Literal["totem", "horse"]

HUNTERS: tuple[HunterKind, ...] = get_args(HunterKind)
HEROES: tuple[HeroKind, ...] = get_args(HeroKind)
HUNTER_VALUES: Mapping[str, int] = {hunter: value for value, hunter in enumerate(HUNTERS, 1)}

# The 17 playable cards of one player's set, in canonical order. The set's 18th card, the
# Tribe card, only summarises the Trials of Strength and is never played.
CARD_SET: tuple[CardKind, ...] = (
    *HUNTERS,
    "chief",
    "chief",
    "squaw",
    "squaw",
    "rain-maker",
    "scout",
    "medicine-man",
)

# Who defeats whom (the project's data: the original 1997 Manitou table). Identical Heroes eliminate
# each other; every other pair has exactly one winner.
DEFEATS: Mapping[str, frozenset[str]] = {
    "chief": frozenset({"medicine-man", "rain-maker", "scout"}),
    "squaw": frozenset({"chief"}),
    "medicine-man": frozenset({"rain-maker", "squaw"}),
    "rain-maker": frozenset({"scout", "squaw"}),
    "scout": frozenset({"medicine-man", "squaw"}),
}

# BM-2: the 60 booty tiles, by kind, in canonical order.
TILE_COUNTS: tuple[tuple[TileKind, int], ...] = (
    ("tepee-1", 8),
    ("tepee-2", 6),
    ("tepee-3", 6),
    ("buffalo-1", 8),
    ("buffalo-2", 6),
    ("buffalo-3", 6),
    ("totem", 8),
    ("horse", 6),
    ("tomahawk", 6),
)
TILE_BAG: tuple[TileKind, ...] = tuple(kind for kind, count in TILE_COUNTS for _ in range(count))
TILE_KINDS: tuple[TileKind, ...] = get_args(TileKind)
TEPEES: Mapping[str, int] = {"tepee-1": 1, "tepee-2": 2, "tepee-3": 3}
BUFFALOES: Mapping[str, int] = {"buffalo-1": 1, "buffalo-2": 2, "buffalo-3": 3}
CYLINDERS: tuple[Cylinder, ...] = ("totem", "horse")

MIN_PLAYERS = 2
MAX_PLAYERS = 5
GROUNDS = 3
HAND_SIZE = 3
PLAYS_PER_HUNT = 7

HUNTS: Mapping[int, int] = {2: 4, 3: 3, 4: 4, 5: 5}
# BM-1: booty tiles per hunting ground, in the order the grounds are evaluated.
TILES_PER_GROUND: Mapping[int, tuple[int, int, int]] = {
    2: (4, 3, 3),
    3: (4, 4, 3),
    4: (4, 4, 4),
    5: (4, 4, 4),
}


# Cards each player chooses for a hunt: the first player (on the dealer's left) the most, the
# dealer the fewest, everybody else in between; with two players only the first and the dealer.
FIRST_PLAYER_CHOOSES: Mapping[int, int] = {2: 8, 3: 9, 4: 9, 5: 9}
OTHERS_CHOOSE = 8
DEALER_CHOOSES = 7

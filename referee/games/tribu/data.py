"""The house edition of the deck (TR-1, TR-2) as data: the printed card faces are not known, so
this module is the one place to change when they are (under a new rules version).

A card is its type's name: the four copies of a type are the same value. `DECK` is the
canonical order every shuffle starts from (RULES.md, "Chance").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

import msgspec

Character = Literal["shaman", "warrior", "hunter", "elder", "scout"]
Vase = Literal["statue", "horse", "flag", "drum", "canoe", "bow"]
Colour = Literal["red", "blue"]
Family = Literal["tribe", "diorama", "evento", "azione", "protezione"]

Card = Literal[
    # Tribù cards: the five characters (5 spheres each)
    "shaman",
    "warrior",
    "hunter",
    "elder",
    "scout",
    # Diorama cards: eleven coloured vases, the Multidiorama and the Totem
    "statue-red",
    "statue-blue",
    "horse-red",
    "horse-blue",
    "flag-red",
    "flag-blue",
    "drum-red",
    "drum-blue",
    "canoe-red",
    "canoe-blue",
    "bow-red",
    "multidiorama",
    "totem",
    # Evento cards
    "wolf",
    "bison",
    # Azione cards
    "draw-three",
    "block",
    "steal",
    # Protezione cards
    "feathers-of-courage",
    "feathers-of-strength",
]


class CardInfo(msgspec.Struct, frozen=True, kw_only=True):
    family: Family
    spheres: int = 0  # only Tribù and Diorama cards carry spheres
    vase: Vase | None = None  # a coloured Diorama's vase
    colour: Colour | None = None  # a coloured Diorama's spheres
    strength: int = 0  # vases an Evento destroys, or a Protezione saves


COPIES = 4
CHARACTERS: tuple[Character, ...] = get_args(Character)
CARD_TYPES: tuple[Card, ...] = get_args(Card)

# TR-1: each character's vases, in the order its Diorama cards are placed.
VASES: Mapping[Character, tuple[Vase, Vase, Vase]] = {
    "shaman": ("statue", "horse", "flag"),
    "warrior": ("horse", "drum", "bow"),
    "hunter": ("canoe", "bow", "horse"),
    "elder": ("drum", "statue", "canoe"),
    "scout": ("flag", "canoe", "drum"),
}
VASE_SPHERES: Mapping[Vase, int] = {
    "statue": 1,
    "horse": 2,
    "flag": 1,
    "drum": 2,
    "canoe": 3,
    "bow": 3,
}
TRIBE_SPHERES = 5
MULTIDIORAMA_SPHERES = 3
TOTEM_SPHERES = 5


def _coloured(card: str) -> CardInfo:
    vase, colour = card.split("-")
    return CardInfo(
        family="diorama",
        spheres=VASE_SPHERES[vase],  # type: ignore[index]
        vase=vase,  # type: ignore[arg-type]
        colour=colour,  # type: ignore[arg-type]
    )


CARDS: Mapping[Card, CardInfo] = {
    **{character: CardInfo(family="tribe", spheres=TRIBE_SPHERES) for character in CHARACTERS},
    **{card: _coloured(card) for card in CARD_TYPES[5:16]},
    "multidiorama": CardInfo(family="diorama", spheres=MULTIDIORAMA_SPHERES),
    "totem": CardInfo(family="diorama", spheres=TOTEM_SPHERES),
    "wolf": CardInfo(family="evento", strength=1),
    "bison": CardInfo(family="evento", strength=2),
    "draw-three": CardInfo(family="azione"),
    "block": CardInfo(family="azione"),
    "steal": CardInfo(family="azione"),
    "feathers-of-courage": CardInfo(family="protezione", strength=2),
    "feathers-of-strength": CardInfo(family="protezione", strength=1),
}

# The 100 cards in canonical order: each type four times, in the order of `Card`.
DECK: tuple[Card, ...] = tuple(card for card in CARD_TYPES for _ in range(COPIES))

# TR-2: the four Tribe Leader big-cards are the first four characters.
LEADERS: tuple[Character, ...] = CHARACTERS[:4]

MIN_PLAYERS = 2
MAX_PLAYERS = 4
HAND_SIZE = 5
DRAW_THREE = 3
WINNING_SPHERES = 100  # TR-6
MAGICAL_BONUS = 10  # per Protected Magical Chain
LEADER_MAGICAL_BONUS = 20  # instead of 10, with the player's leader's character
COMPLETE_CHAINS_TO_CLOSE: Mapping[int, int] = {2: 4, 3: 4, 4: 3}
MAX_REBUILDS = 5  # TR-8: the fifth rebuild of the draw pile ends the challenge
MAX_CHALLENGES = 10  # TR-8
# Our ruling TR-R1: a challenge also ends, as if the Diorama cards had run out, at the end of a
# turn that makes this many turns in a row without a card drawn from the draw pile (play that
# never empties the draw pile is never stopped by TR-8's rebuilds).
QUIET_TURNS_LIMIT = 20


def family(card: Card) -> Family:
    return CARDS[card].family


def spheres(card: Card) -> int:
    return CARDS[card].spheres

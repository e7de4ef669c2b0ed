"""Coyote's components, as data: the 36 cards in their canonical order, and the game's limits.

Every shuffle starts from this order (sorted by card id), so a third party can re-derive a deal
from the revealed seed. RULES.md lists the same order. A corrected card list is a change here only.
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

CardKind = Literal["indian", "cactus", "cavalry", "chief", "moon", "spirit", "teepee"]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One card of the deck. `id` is its place in the canonical order (0 to 35)."""

    id: int
    kind: CardKind
    value: int  # what the card adds to the count; 0 for Cactus and for the four specials


# (kind, value, copies), in the canonical order (RULES.md, "The deck"). The rulebook lists
# "4 Cavalry Cards" but three values (-5, -5, -10); every other source has three, and 36 cards.
# One Chief: the rulebook says "1 Indian Chief"; the deck list's "Chief (x2)" names its effect (it
# doubles the Indians), and only one Chief makes the 36 cards both sources count.
CARD_LIST: tuple[tuple[CardKind, int, int], ...] = (
    ("indian", 1, 4),
    ("indian", 2, 4),
    ("indian", 3, 4),
    ("indian", 4, 4),
    ("indian", 5, 4),
    ("indian", 10, 3),
    ("indian", 15, 2),
    ("indian", 20, 1),
    ("cactus", 0, 3),
    ("cavalry", -5, 2),
    ("cavalry", -10, 1),
    ("chief", 0, 1),
    ("moon", 0, 1),
    ("spirit", 0, 1),
    ("teepee", 0, 1),
)


def build_deck(card_list: tuple[tuple[CardKind, int, int], ...]) -> tuple[Card, ...]:
    cards = [(kind, value) for kind, value, copies in card_list for _ in range(copies)]
    return tuple(Card(id=i, kind=kind, value=value) for i, (kind, value) in enumerate(cards))


DECK: tuple[Card, ...] = build_deck(CARD_LIST)

MIN_BID = 1
MAX_BID = 999  # CY-2
MIN_FEATHERS = 1
MAX_FEATHERS = 5  # CY-1
DEFAULT_FEATHERS = 3
TWO_FEATHERS_PENALTY = 2
PENALTY = 1

# The Shaman powers declared together with a bid (CY-8); Eye of the Lynx and Cancel are
# commands of their own because they replace the bid.
BidPower = Literal["two-feathers", "u-turn", "take-a-card", "it-is-your-turn"]
BID_POWERS: tuple[BidPower, ...] = get_args(BidPower)
TARGETED_POWERS: frozenset[BidPower] = frozenset({"take-a-card", "it-is-your-turn"})

"""Chains: which Diorama fits next, complete, protected and magical chains, their spheres."""

from __future__ import annotations

from referee.games.tribu.data import (
    CARDS,
    TRIBE_SPHERES,
    VASES,
    Card,
)
from referee.games.tribu.state import Chain

TOTEM = "totem"
MULTIDIORAMA = "multidiorama"
VASES_PER_CHAIN = 3


def vases(chain: Chain) -> tuple[Card, ...]:
    """The Diorama cards that stand for the character's vases (the Totem is not one)."""
    return tuple(card for card in chain.dioramas if card != TOTEM)


def is_complete(chain: Chain) -> bool:
    return len(vases(chain)) == VASES_PER_CHAIN


def is_protected(chain: Chain) -> bool:
    return TOTEM in chain.dioramas


def is_lone(chain: Chain) -> bool:
    return not chain.dioramas


def is_magical(chain: Chain) -> bool:
    """Protected, with every sphere of one colour: the Totem's and the Tribù card's spheres
    have no colour and a Multidiorama counts as either (TR-12)."""
    colours = {CARDS[card].colour for card in vases(chain) if card != MULTIDIORAMA}
    return is_protected(chain) and len(colours) <= 1


def fits(card: Card, chain: Chain) -> bool:
    """Whether `card` may be placed next on `chain`: the vase its Tribù card shows next (any
    colour), a Multidiorama in place of any vase (one per chain), or a Totem on a complete
    chain (one per chain)."""
    if CARDS[card].family != "diorama" or is_protected(chain):
        return False
    if card == TOTEM:
        return is_complete(chain)
    placed = vases(chain)
    if len(placed) == VASES_PER_CHAIN:
        return False
    if card == MULTIDIORAMA:
        return MULTIDIORAMA not in placed
    return CARDS[card].vase == VASES[chain.character][len(placed)]


def may_be_attacked(chain: Chain) -> bool:
    """Wolf, Bison and Steal take vases: never from a protected chain or a lone Tribù card."""
    return bool(chain.dioramas) and not is_protected(chain)


def spheres_on_table(chain: Chain) -> int:
    return TRIBE_SPHERES + sum(CARDS[card].spheres for card in chain.dioramas)

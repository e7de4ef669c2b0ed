"""What a player may send: one Struct per decision of the rules (the turn's phases [A]-[G]).

A turn is `draw` and then one action (discard, place, activate, swap and another action, play
an Azione card), or, without drawing, one active card used ([G]: `continue-chain`, `attack`).
A player's chains are named by their character (no player has two of one character). An
active card is named by the chain it lies beside: only its owner knows what it is.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from referee.games.tribu.data import Card, Character
from referee.kernel.contract import Seat

Source = Literal["draw-pile", "discard-pile"]
OwnChain = Annotated[Character, msgspec.Meta(description="One of your chains, by its character.")]
ActiveOf = Annotated[
    Character, msgspec.Meta(description="The chain of yours whose active card is used.")
]
Opponent = Annotated[Seat, msgspec.Meta(ge=0, description="Another player's seat.")]
TheirChain = Annotated[Character, msgspec.Meta(description="That player's chain, by character.")]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class Draw(_Command, frozen=True, tag="tribu.draw"):
    """Take a card: from the draw pile, or from the discard pile when its top card is a Diorama."""

    source: Source = "draw-pile"


class Discard(_Command, frozen=True, tag="tribu.discard"):
    """[A] (or after a swap): put a card of your hand on the discard pile."""

    card: Card


class PlaceTribe(_Command, frozen=True, tag="tribu.place-tribe"):
    """[C]: start a chain with a Tribù card (never a second one of the same character)."""

    card: Character


class PlaceDiorama(_Command, frozen=True, tag="tribu.place-diorama"):
    """[D]: a Diorama card from your hand as the next vase of one of your chains."""

    card: Card
    chain: OwnChain


class Activate(_Command, frozen=True, tag="tribu.activate"):
    """[E]: a card from your hand face down beside a chain of yours that has no active card
    (never a Tribù or an Azione card)."""

    card: Card
    chain: OwnChain


class SwapActive(_Command, frozen=True, tag="tribu.swap-active"):
    """[F]: exchange a chain's active card for a different card of your hand, which stays
    active there; then one more action: discard, place, activate or play an Azione card."""

    chain: OwnChain
    card: Card


class ContinueChain(_Command, frozen=True, tag="tribu.continue-chain"):
    """[G], without drawing: turn an active Diorama card and place it on a chain where it fits."""

    active: ActiveOf
    chain: OwnChain


class Attack(_Command, frozen=True, tag="tribu.attack"):
    """[G], without drawing: turn an active Wolf or Bison against another player's chain that
    is neither protected nor a lone Tribù card. That player answers before it takes effect."""

    active: ActiveOf
    seat: Opponent
    chain: TheirChain


class DrawThree(_Command, frozen=True, tag="tribu.draw-three"):
    """[B], Azione "Take 3 cards": take three cards from the draw pile, then discard three."""


class DiscardThree(_Command, frozen=True, tag="tribu.discard-three"):
    """After Take 3: discard as many cards as were drawn (three, unless the piles ran short)."""

    cards: tuple[Card, ...]


class Block(_Command, frozen=True, tag="tribu.block"):
    """[B], Azione "Block": another player, with a chain and not blocked already, skips their
    next turn."""

    seat: Opponent


class Steal(_Command, frozen=True, tag="tribu.steal"):
    """[B], Azione "Steal a Diorama": the last card of another player's unprotected chain, to be
    placed at once on your chain `into`, where it must fit. That player answers first."""

    seat: Opponent
    chain: TheirChain
    into: OwnChain


class Defend(_Command, frozen=True, tag="tribu.defend"):
    """Answer an attack or a Steal, out of turn, with an active Protezione card of yours."""

    active: ActiveOf


class PassDefence(_Command, frozen=True, tag="tribu.pass"):
    """Answer an attack or a Steal without defending."""


Command = (
    Draw
    | Discard
    | PlaceTribe
    | PlaceDiorama
    | Activate
    | SwapActive
    | ContinueChain
    | Attack
    | DrawThree
    | DiscardThree
    | Block
    | Steal
    | Defend
    | PassDefence
)

"""Why a command is refused: the predicates that `decide` raises and `legal` filters with.

Each `*_refusal` returns the RuleViolation that refuses the command, or None when the rules
accept it. A refusal never tells a player more than they know: their own hand, their own active
cards, and what lies face up on the table.
"""

from __future__ import annotations

from typing import NoReturn

from referee.games.tribu.chains import (
    MULTIDIORAMA,
    TOTEM,
    fits,
    is_complete,
    is_protected,
    may_be_attacked,
    vases,
)
from referee.games.tribu.data import VASES, Card, Character, family
from referee.games.tribu.deck import may_draw_from_discard, may_draw_from_pile
from referee.games.tribu.state import Chain, State
from referee.kernel.contract import Refusals, RuleViolation, Seat
from referee.kernel.piles import contains

KIND = "tribu"
refusal = Refusals(KIND)
ACTIVATABLE = frozenset({"diorama", "evento", "protezione"})


def refuse(rule: str, message: str) -> NoReturn:
    raise refusal(rule, message)


def name(card: str) -> str:
    return card.replace("-", " ")


def in_hand_refusal(state: State, seat: Seat, card: Card) -> RuleViolation | None:
    if card not in state.players[seat].hand:
        return refusal("not-in-hand", f"You hold no {name(card)} card.")
    return None


def own_chain(state: State, seat: Seat, character: Character) -> Chain | RuleViolation:
    chain = state.chain(seat, character)
    if chain is None:
        return refusal("no-such-chain", f"You have no {character} chain.")
    return chain


def active_of(state: State, seat: Seat, character: Character) -> Card | RuleViolation:
    chain = own_chain(state, seat, character)
    if isinstance(chain, RuleViolation):
        return chain
    if chain.active is None:
        return refusal("no-active-card", f"No card is active beside your {character} chain.")
    return chain.active


def fit_refusal(card: Card, chain: Chain) -> RuleViolation | None:
    """Why `card` may not go next on `chain` (see chains.fits)."""
    character = chain.character
    if family(card) != "diorama":
        return refusal(
            "not-a-diorama", f"Only Diorama cards continue a chain; {name(card)} is not one."
        )
    if is_protected(chain):
        return refusal("chain-protected", f"The {character} chain is protected: it is finished.")
    if card == TOTEM:
        if not is_complete(chain):
            return refusal(
                "totem-needs-complete-chain",
                "A Totem goes only on a complete chain: three Diorama cards first.",
            )
        return None
    if is_complete(chain):
        return refusal(
            "chain-complete", f"The {character} chain is complete: only a Totem follows."
        )
    if card == MULTIDIORAMA and MULTIDIORAMA in vases(chain):
        return refusal("one-multidiorama", "A chain takes only one Multidiorama.")
    if not fits(card, chain):
        needed = VASES[character][len(vases(chain))]
        return refusal(
            "does-not-fit", f"The {character} chain needs a {needed} next (or a Multidiorama)."
        )
    return None


def opponent_refusal(state: State, seat: Seat, target: Seat) -> RuleViolation | None:
    if target == seat or not 0 <= target < state.seats:
        return refusal("not-an-opponent", f"Seat {target} is not one of your opponents.")
    return None


def target_refusal(
    state: State, seat: Seat, target: Seat, character: Character
) -> RuleViolation | None:
    """An attack or a Steal aims at another player's chain with an unprotected vase."""
    if found := opponent_refusal(state, seat, target):
        return found
    chain = state.chain(target, character)
    if chain is None:
        return refusal("no-such-chain", f"Seat {target} has no {character} chain.")
    if not may_be_attacked(chain):
        if chain.dioramas:
            return refusal("chain-protected", "A chain protected by a Totem cannot be attacked.")
        return refusal("lone-tribe-card", "A lone Tribù card has no vase to attack.")
    return None


# -- the turn ----------------------------------------------------------------------------------


def draw_refusal(state: State, source: str) -> RuleViolation | None:
    if source not in ("draw-pile", "discard-pile"):
        return refusal("no-such-pile", "Draw from the draw-pile or the discard-pile.")
    if source == "discard-pile" and not may_draw_from_discard(state):
        if state.discard and family(state.discard[0]) == "diorama":
            return refusal(
                "discard-top-not-diorama",
                "The Diorama on top of the discard pile was put under it, not discarded, and only"
                ' discarded cards are taken ("the other ones must be placed under this deck":'
                " ruling TR-14).",
            )
        return refusal(
            "discard-top-not-diorama",
            "A card is taken from the discard pile only when its top card is a discarded Diorama.",
        )
    if source == "draw-pile" and not may_draw_from_pile(state):
        return refusal(
            "draw-pile-empty", "The draw pile is empty and the discard pile cannot rebuild it."
        )
    return None


def tribe_refusal(state: State, seat: Seat, card: Card) -> RuleViolation | None:
    if found := in_hand_refusal(state, seat, card):
        return found
    if family(card) != "tribe":
        return refusal("not-a-tribe-card", f"{name(card)} is not a Tribù card.")
    if state.chain(seat, card) is not None:  # type: ignore[arg-type]
        return refusal("double", f"You already have a {card} chain: no doubles in a tribe.")
    return None


def diorama_refusal(
    state: State, seat: Seat, card: Card, character: Character
) -> RuleViolation | None:
    if found := in_hand_refusal(state, seat, card):
        return found
    chain = own_chain(state, seat, character)
    if isinstance(chain, RuleViolation):
        return chain
    if card == state.returned and state.players[seat].hand.count(card) == 1:
        return refusal(
            "returned-card",
            "The card taken back from active is not placed on a chain in the turn you drew"
            ' ("if the player takes a card he cannot use an active card": ruling TR-14).',
        )
    return fit_refusal(card, chain)


def activation_card_refusal(card: Card) -> RuleViolation | None:
    if family(card) not in ACTIVATABLE:
        return refusal("cannot-activate", "Tribù and Azione cards cannot be made active.")
    return None


def activate_refusal(
    state: State, seat: Seat, card: Card, character: Character
) -> RuleViolation | None:
    if found := in_hand_refusal(state, seat, card) or activation_card_refusal(card):
        return found
    chain = own_chain(state, seat, character)
    if isinstance(chain, RuleViolation):
        return chain
    if chain.active is not None:
        return refusal("chain-has-active", f"Your {character} chain has an active card already.")
    return None


def swap_refusal(
    state: State, seat: Seat, character: Character, card: Card
) -> RuleViolation | None:
    active = active_of(state, seat, character)
    if isinstance(active, RuleViolation):
        return active
    if found := in_hand_refusal(state, seat, card) or activation_card_refusal(card):
        return found
    if card == active:
        return refusal("swap-same-card", "Exchange the active card for a different card.")
    return None


def continue_refusal(
    state: State, seat: Seat, active: Character, character: Character
) -> RuleViolation | None:
    card = active_of(state, seat, active)
    if isinstance(card, RuleViolation):
        return card
    if family(card) != "diorama":
        return refusal(
            "active-not-diorama", f"The card active beside your {active} chain is no Diorama."
        )
    chain = own_chain(state, seat, character)
    if isinstance(chain, RuleViolation):
        return chain
    return fit_refusal(card, chain)


def attack_refusal(
    state: State, seat: Seat, active: Character, target: Seat, character: Character
) -> RuleViolation | None:
    card = active_of(state, seat, active)
    if isinstance(card, RuleViolation):
        return card
    if family(card) != "evento":
        return refusal(
            "active-not-evento",
            f"The card active beside your {active} chain is no Wolf or Bison.",
        )
    return target_refusal(state, seat, target, character)


def discard_three_refusal(
    state: State, seat: Seat, cards: tuple[Card, ...]
) -> RuleViolation | None:
    due = state.discards_due
    if len(cards) != due:
        return refusal("discard-count", f"Discard exactly {due} card(s): as many as you drew.")
    if not contains(state.players[seat].hand, cards):
        return refusal("not-in-hand", "You do not hold all of those cards.")
    return None


def block_refusal(state: State, seat: Seat, target: Seat) -> RuleViolation | None:
    if found := in_hand_refusal(state, seat, "block") or opponent_refusal(state, seat, target):
        return found
    player = state.players[target]
    if not player.chains:
        return refusal("block-needs-chain", "A Block is laid beside a chain: that player has none.")
    if player.blocked:
        return refusal("already-blocked", f"Seat {target} is blocked already.")
    return None


def steal_refusal(
    state: State, seat: Seat, target: Seat, character: Character, into: Character
) -> RuleViolation | None:
    if found := in_hand_refusal(state, seat, "steal") or target_refusal(
        state, seat, target, character
    ):
        return found
    own = own_chain(state, seat, into)
    if isinstance(own, RuleViolation):
        return own
    victim = state.chain(target, character)
    assert victim is not None and victim.dioramas  # target_refusal found it, with a vase
    if fit_refusal(victim.dioramas[-1], own) is not None:
        return refusal(
            "steal-does-not-fit",
            f"The stolen card must go at once on your {into} chain, and it does not fit there.",
        )
    return None


def defend_refusal(state: State, seat: Seat, active: Character) -> RuleViolation | None:
    card = active_of(state, seat, active)
    if isinstance(card, RuleViolation):
        return card
    if family(card) != "protezione":
        return refusal(
            "active-not-protezione",
            f"The card active beside your {active} chain is no Protezione card.",
        )
    return None

"""Every command `decide` accepts from a seat now: the candidates that no check refuses."""

from __future__ import annotations

from itertools import permutations

from referee.games.tribu.checks import (
    activate_refusal,
    block_refusal,
    defend_refusal,
    diorama_refusal,
    steal_refusal,
    swap_refusal,
    tribe_refusal,
)
from referee.games.tribu.commands import (
    Activate,
    Block,
    Command,
    Defend,
    Discard,
    DiscardThree,
    DrawThree,
    PassDefence,
    PlaceDiorama,
    PlaceTribe,
    Steal,
    SwapActive,
)
from referee.games.tribu.data import CHARACTERS
from referee.games.tribu.stages import Stage, stage, to_act
from referee.games.tribu.state import State
from referee.games.tribu.turn_start import opponents_chains, turn_start_commands
from referee.kernel.contract import Seat


def legal_commands(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    match stage(state):
        case Stage.START_OF_TURN:
            return turn_start_commands(state, seat)
        case Stage.AFTER_DRAW:
            return [*actions(state, seat), *swaps(state, seat)]
        case Stage.AFTER_SWAP:
            return actions(state, seat)
        case Stage.DISCARDING:
            hand = state.players[seat].hand
            choices = dict.fromkeys(permutations(hand, state.discards_due))
            return [DiscardThree(cards=cards) for cards in choices]
        case Stage.DEFENCE:
            chains = state.players[seat].chains
            return [
                PassDefence(),
                *(
                    Defend(active=chain.character)
                    for chain in chains
                    if defend_refusal(state, seat, chain.character) is None
                ),
            ]
    return []


def actions(state: State, seat: Seat) -> list[Command]:
    """Discard, place a Tribù or a Diorama card, activate, or play an Azione card."""
    hand = tuple(dict.fromkeys(state.players[seat].hand))
    own = [chain.character for chain in state.players[seat].chains]
    commands: list[Command] = [Discard(card=card) for card in hand]
    commands += [
        PlaceTribe(card=card)
        for card in hand
        if card in CHARACTERS and tribe_refusal(state, seat, card) is None
    ]
    commands += [
        PlaceDiorama(card=card, chain=chain)
        for card in hand
        for chain in own
        if diorama_refusal(state, seat, card, chain) is None
    ]
    commands += [
        Activate(card=card, chain=chain)
        for card in hand
        for chain in own
        if activate_refusal(state, seat, card, chain) is None
    ]
    return commands + azioni(state, seat, hand)


def azioni(state: State, seat: Seat, hand: tuple[str, ...]) -> list[Command]:
    commands: list[Command] = []
    if "draw-three" in hand:
        commands.append(DrawThree())
    commands += [
        Block(seat=other)
        for other in range(state.seats)
        if block_refusal(state, seat, other) is None
    ]
    own = [chain.character for chain in state.players[seat].chains]
    commands += [
        Steal(seat=other, chain=chain, into=into)  # type: ignore[arg-type]
        for other, chain in opponents_chains(state, seat)
        for into in own
        if steal_refusal(state, seat, other, chain, into) is None  # type: ignore[arg-type]
    ]
    return commands


def swaps(state: State, seat: Seat) -> list[Command]:
    hand = tuple(dict.fromkeys(state.players[seat].hand))
    return [
        SwapActive(chain=chain.character, card=card)
        for chain in state.players[seat].chains
        for card in hand
        if swap_refusal(state, seat, chain.character, card) is None
    ]

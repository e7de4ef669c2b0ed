"""Every command `decide` accepts from a seat now: the candidates that no check refuses."""

from __future__ import annotations

from itertools import permutations

from referee.games.tribu.checks import (
    activate_refusal,
    attack_refusal,
    block_refusal,
    continue_refusal,
    defend_refusal,
    diorama_refusal,
    draw_refusal,
    steal_refusal,
    swap_refusal,
    tribe_refusal,
)
from referee.games.tribu.commands import (
    Activate,
    Attack,
    Block,
    Command,
    ContinueChain,
    Defend,
    Discard,
    DiscardThree,
    Draw,
    DrawThree,
    PassDefence,
    PlaceDiorama,
    PlaceTribe,
    Source,
    Steal,
    SwapActive,
)
from referee.games.tribu.data import CHARACTERS, family
from referee.games.tribu.stages import Stage, stage, to_act
from referee.games.tribu.state import State
from referee.kernel.contract import Seat

SOURCES: tuple[Source, ...] = ("draw-pile", "discard-pile")


def legal_commands(state: State, seat: Seat) -> list[Command]:
    if seat not in to_act(state):
        return []
    match stage(state):
        case Stage.START_OF_TURN:
            return [*draws(state), *continuations(state, seat), *attacks(state, seat)]
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


def draws(state: State) -> list[Command]:
    return [Draw(source=source) for source in SOURCES if draw_refusal(state, source) is None]


def continuations(state: State, seat: Seat) -> list[Command]:
    own = [chain.character for chain in state.players[seat].chains]
    return [
        ContinueChain(active=active, chain=chain)
        for active in own
        for chain in own
        if continue_refusal(state, seat, active, chain) is None
    ]


def opponents_chains(state: State, seat: Seat) -> list[tuple[Seat, str]]:
    return [
        (other, chain.character)
        for other in range(state.seats)
        if other != seat
        for chain in state.players[other].chains
    ]


def attacks(state: State, seat: Seat) -> list[Command]:
    return [
        Attack(active=active.character, seat=other, chain=chain)  # type: ignore[arg-type]
        for active in state.players[seat].chains
        if active.active is not None and family(active.active) == "evento"
        for other, chain in opponents_chains(state, seat)
        if attack_refusal(state, seat, active.character, other, chain) is None  # type: ignore[arg-type]
    ]


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

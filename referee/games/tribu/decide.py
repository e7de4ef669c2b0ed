"""`decide`: a command checked against the rules and turned into its events.

What follows by itself (resolving an attack once answered, the end of the turn, the next
challenge) is the referee's, in `flow.py`.
"""

from __future__ import annotations

from typing import assert_never

from referee.games.tribu.checks import (
    activate_refusal,
    attack_refusal,
    block_refusal,
    continue_refusal,
    defend_refusal,
    diorama_refusal,
    discard_three_refusal,
    draw_refusal,
    in_hand_refusal,
    refuse,
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
    Steal,
    SwapActive,
)
from referee.games.tribu.data import DECK, DRAW_THREE, Card, Character
from referee.games.tribu.events import (
    ActiveSwapped,
    AttackMade,
    BlockPlayed,
    CardActivated,
    CardDiscarded,
    CardDrawn,
    DefencePassed,
    Defended,
    DioramaPlaced,
    DrawPileRebuilt,
    DrawThreePlayed,
    Event,
    StealPlayed,
    ThreeDiscarded,
    TribePlaced,
)
from referee.games.tribu.evolve import evolve
from referee.games.tribu.stages import Stage, stage
from referee.games.tribu.state import State
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat, raise_if
from referee.kernel.piles import shuffled

AFTER_A_DRAW = (Discard, PlaceTribe, PlaceDiorama, Activate, DrawThree, Block, Steal)
ADMITS: dict[Stage, tuple[type, ...]] = {
    Stage.START_OF_TURN: (Draw, ContinueChain, Attack),
    Stage.AFTER_DRAW: (*AFTER_A_DRAW, SwapActive),
    Stage.AFTER_SWAP: AFTER_A_DRAW,
    Stage.DISCARDING: (DiscardThree,),
    Stage.DEFENCE: (Defend, PassDefence),
}
WAITING_FOR = {
    Stage.START_OF_TURN: "a draw, or an active card used",
    Stage.AFTER_DRAW: "one action after the draw",
    Stage.AFTER_SWAP: "one action after the exchange of an active card",
    Stage.DISCARDING: "the cards to discard after Take 3",
    Stage.DEFENCE: "the attacked player's answer",
}


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    current = stage(state)
    if not isinstance(command, ADMITS.get(current, ())):
        refuse("not-now", f"The game is waiting for {WAITING_FOR.get(current, 'nothing')}.")
    match command:
        case Draw():
            raise_if(draw_refusal(state, command.source))
            if command.source == "draw-pile":
                return draw_from_pile(state, seat, 1, chance)
            return [CardDrawn(seat=seat, source="discard-pile", card=state.discard[0])]
        case Discard():
            raise_if(in_hand_refusal(state, seat, command.card))
            return [CardDiscarded(seat=seat, card=command.card)]
        case PlaceTribe():
            raise_if(tribe_refusal(state, seat, command.card))
            return [TribePlaced(seat=seat, card=command.card)]
        case PlaceDiorama():
            raise_if(diorama_refusal(state, seat, command.card, command.chain))
            return [DioramaPlaced(seat=seat, card=command.card, chain=command.chain)]
        case Activate():
            raise_if(activate_refusal(state, seat, command.card, command.chain))
            return [CardActivated(seat=seat, chain=command.chain, card=command.card)]
        case SwapActive():
            raise_if(swap_refusal(state, seat, command.chain, command.card))
            returned = active_card(state, seat, command.chain)
            return [
                ActiveSwapped(seat=seat, chain=command.chain, card=command.card, returned=returned)
            ]
        case ContinueChain():
            raise_if(continue_refusal(state, seat, command.active, command.chain))
            card = active_card(state, seat, command.active)
            return [DioramaPlaced(seat=seat, card=card, chain=command.chain, active=command.active)]
        case Attack():
            raise_if(attack_refusal(state, seat, command.active, command.seat, command.chain))
            card = active_card(state, seat, command.active)
            return [
                AttackMade(
                    seat=seat,
                    active=command.active,
                    card=card,
                    target=command.seat,
                    chain=command.chain,
                )
            ]
        case DrawThree():
            raise_if(in_hand_refusal(state, seat, "draw-three"))
            return take_three(state, seat, chance)
        case DiscardThree():
            raise_if(discard_three_refusal(state, seat, command.cards))
            return [ThreeDiscarded(seat=seat, cards=command.cards)]
        case Block():
            raise_if(block_refusal(state, seat, command.seat))
            return [BlockPlayed(seat=seat, target=command.seat)]
        case Steal():
            raise_if(steal_refusal(state, seat, command.seat, command.chain, command.into))
            return [
                StealPlayed(seat=seat, target=command.seat, chain=command.chain, into=command.into)
            ]
        case Defend():
            raise_if(defend_refusal(state, seat, command.active))
            card = active_card(state, seat, command.active)
            return [Defended(seat=seat, active=command.active, card=card)]
        case PassDefence():
            return [DefencePassed(seat=seat)]
    assert_never(command)


def active_card(state: State, seat: Seat, character: Character) -> Card:
    chain = state.chain(seat, character)
    assert chain is not None and chain.active is not None  # the refusal checks found it
    return chain.active


def take_three(state: State, seat: Seat, chance: Chance) -> list[Event]:
    """Take 3: the card played, three cards drawn (fewer when the piles run short, TR-10);
    nothing drawn, nothing to discard."""
    played = DrawThreePlayed(seat=seat)
    drawn = draw_from_pile(evolve(state, played), seat, DRAW_THREE, chance)
    if not any(isinstance(event, CardDrawn) for event in drawn):
        return [played, *drawn, ThreeDiscarded(seat=seat, cards=())]
    return [played, *drawn]


def draw_from_pile(state: State, seat: Seat, count: int, chance: Chance) -> list[Event]:
    """`count` cards off the draw pile for `seat`. An empty draw pile is rebuilt from the
    discard pile, all but its top card, shuffled from the canonical order (TR-11); when even
    that leaves nothing, fewer cards are drawn (TR-10)."""
    events: list[Event] = []
    for _ in range(count):
        if not state.draw_pile:
            if len(state.discard) <= 1:
                break
            order = shuffled(chance, state.discard[1:], DECK)
            rebuilt = DrawPileRebuilt(rebuild=state.rebuilds + 1, order=order, size=len(order))
            events.append(rebuilt)
            state = evolve(state, rebuilt)
        drawn = CardDrawn(seat=seat, source="draw-pile", card=state.draw_pile[0])
        events.append(drawn)
        state = evolve(state, drawn)
    return events

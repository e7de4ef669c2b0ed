"""What a player may do at the start of a turn: draw a card ([A]-[F]), or use an active card
without drawing ([G]: continue a chain with an active Diorama, attack with an active Evento).

Apart from `legal.py` because `stages.py` needs it too: a player with none of these has no
legal decision at all, and the challenge then ends (TR-13).
"""

from __future__ import annotations

from referee.games.tribu.checks import attack_refusal, continue_refusal, draw_refusal
from referee.games.tribu.commands import Attack, Command, ContinueChain, Draw, Source
from referee.games.tribu.data import family
from referee.games.tribu.deck import may_draw_from_discard, may_draw_from_pile
from referee.games.tribu.state import State
from referee.kernel.contract import Seat

SOURCES: tuple[Source, ...] = ("draw-pile", "discard-pile")


def turn_start_commands(state: State, seat: Seat) -> list[Command]:
    return [*draws(state), *continuations(state, seat), *attacks(state, seat)]


def has_a_decision(state: State, seat: Seat) -> bool:
    """Whether `seat`, at the start of its turn, has any legal decision (TR-13). Asked at every
    look at a turn's start: the piles first, which answer at once in nearly every game."""
    if may_draw_from_pile(state) or may_draw_from_discard(state):  # what `draws` checks
        return True
    return bool(continuations(state, seat) or attacks(state, seat))


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

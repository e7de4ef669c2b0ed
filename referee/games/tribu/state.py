"""The state of a game of Tribù: frozen Structs of tuples, replaced, never mutated."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from referee.games.tribu.data import Card, Character
from referee.games.tribu.options import Options
from referee.kernel.contract import Seat

# "setup": before the leaders and the first player are drawn; "dealing": a challenge is to be
# dealt (or the game to end); "turn-start": the first turn of a challenge is to begin;
# "choosing": draw, or use an active card (a blocked player's turn is skipped instead);
# "acting": a card drawn, one action to take; "swapped": an active card was exchanged ([F]),
# one more action to take; "discarding": Take 3's cards to discard; "defence": the attacked
# player answers, then the referee resolves the attack; "turn-over": the referee ends the turn;
# "over": the game has ended.
Step = Literal[
    "setup",
    "dealing",
    "turn-start",
    "choosing",
    "acting",
    "swapped",
    "discarding",
    "defence",
    "turn-over",
    "over",
]
EndReason = Literal["complete-chains", "no-diorama", "rebuilds", "no-progress", "no-move"]


class Rules(msgspec.Struct, frozen=True, kw_only=True):
    """What one rules version of Tribù decides differently from another (RULES.md, "Rules
    versions"): a game recorded under a version replays under it forever."""

    version: str
    # TR-15: a Protezione saves the vases the attack would destroy (version 1: it was taken
    # from the Evento's strength, so Feathers of Strength let a Bison destroy a chain's one vase).
    protection_saves_destroyed_vases: bool
    # TR-13: a player to act with no legal decision ends the challenge (version 1: the game
    # waited for a move that could not be made).
    no_move_ends_the_challenge: bool


RULES_1 = Rules(
    version="1", protection_saves_destroyed_vases=False, no_move_ends_the_challenge=False
)
RULES_2 = Rules(version="2", protection_saves_destroyed_vases=True, no_move_ends_the_challenge=True)


class Chain(msgspec.Struct, frozen=True, kw_only=True):
    """A Tribù card and its Diorama cards (in the order placed), and the card active beside it."""

    character: Character
    dioramas: tuple[Card, ...] = ()
    active: Card | None = None  # face down: seen by its owner only
    fresh: bool = True  # placed in its owner's current turn: TR-5 spares it this turn


class Player(msgspec.Struct, frozen=True, kw_only=True):
    leader: Character
    leader_revealed: bool = False
    hand: tuple[Card, ...] = ()
    chains: tuple[Chain, ...] = ()  # in the order they were started
    blocked: bool = False  # a Block card lies beside this player's chains
    total: int = 0  # magical spheres over the challenges scored so far


class PendingAttack(msgspec.Struct, frozen=True, kw_only=True):
    """A Wolf, a Bison or a Steal waiting for the defender's answer (TR-4, TR-9)."""

    attacker: Seat
    card: Card  # wolf, bison or steal
    seat: Seat  # the defender
    chain: Character  # the defender's chain attacked
    into: Character | None = None  # a Steal: the attacker's chain the stolen card goes to
    answered: bool = False
    protection: Card | None = None  # the Protezione card the defender turned, if any


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    rules: Rules = RULES_2  # the rules version the game is played under
    step: Step = "setup"
    challenge: int = 0
    first_player: Seat = 0  # of the current challenge
    current: Seat = 0  # whose turn it is
    turn: int = 0  # turns begun in the current challenge
    draw_pile: tuple[Card, ...] = ()  # top first
    discard: tuple[Card, ...] = ()  # top first
    discarded: int = 0  # the discard pile's top cards that were discarded (TR-R13: takeable)
    played: tuple[Card, ...] = ()  # Azione cards played this challenge
    players: tuple[Player, ...] = ()
    rebuilds: int = 0  # of the draw pile, this challenge
    attack: PendingAttack | None = None
    discards_due: int = 0  # Take 3: cards drawn, to discard as many
    rebuilding: bool = False  # the draw pile was just rebuilt: a draw from it follows
    returned: Card | None = None  # [F]: the card taken back from active this turn (TR-R14)
    drew_from_pile: bool = False  # a card was drawn from the draw pile this turn
    quiet_turns: int = 0  # turns in a row, before this one, without a draw from the draw pile
    finished: bool = False

    def player(self, seat: Seat) -> Player:
        return self.players[seat]

    def chain(self, seat: Seat, character: Character) -> Chain | None:
        for chain in self.players[seat].chains:
            if chain.character == character:
                return chain
        return None


def initial_state(options: Options, seats: int, rules: Rules = RULES_2) -> State:
    """Before the opening: no leader, no card dealt."""
    return State(seats=seats, rules=rules)


def with_player(state: State, seat: Seat, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = msgspec.structs.replace(players[seat], **changes)
    return msgspec.structs.replace(state, players=tuple(players))


def with_chain(state: State, seat: Seat, character: Character, chain: Chain | None) -> State:
    """`seat`'s chain of `character` replaced by `chain` (None: removed from the table)."""
    chains = state.players[seat].chains
    if not any(c.character == character for c in chains):
        raise ValueError(f"seat {seat} has no chain of {character}")
    replaced = tuple(
        new for old in chains if (new := (chain if old.character == character else old)) is not None
    )
    return with_player(state, seat, chains=replaced)

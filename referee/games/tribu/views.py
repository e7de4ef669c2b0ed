"""What a seat (or a spectator) may see: the view of the state and each event redacted.

Hidden while the game runs: every hand (shown to its owner), every active card (face down:
shown to its owner), the leaders (each to its owner, to everyone once revealed: when its
protection spares a lone Tribù card, or at the scoring of a challenge), the card a swap took
back from active (to its owner, who may not place it this turn: TR-R14), the order of the draw
pile (from everyone). Public: the chains on the table, the discard pile's top and size, the
played Azione cards, every card turned or revealed in play, each challenge's count (hands
and active cards shown for it), and the turns without a draw from the draw pile (TR-R1). Once
the game is over, everything is public.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from referee.games.tribu.chains import (
    is_complete,
    is_lone,
    is_magical,
    is_protected,
    spheres_on_table,
)
from referee.games.tribu.data import Card, Character
from referee.games.tribu.deck import may_draw_from_discard
from referee.games.tribu.events import (
    ActiveSwapped,
    CardActivated,
    CardDrawn,
    ChainEliminated,
    ChallengeDealt,
    DrawPileRebuilt,
    Event,
    LeadersDrawn,
)
from referee.games.tribu.stages import Phase, stage, to_act
from referee.games.tribu.state import Chain, PendingAttack, Player, State
from referee.kernel.contract import Seat


def sees_own(viewer: Seat | None, owner: Seat) -> bool:
    """A hand, an active card, a leader: its owner sees it."""
    return viewer is not None and viewer == owner


class TribuChainView(msgspec.Struct, frozen=True, kw_only=True):
    character: Character
    dioramas: tuple[Card, ...]
    has_active: bool
    active: Card | None  # its owner only (everyone once the game is over)
    lone: bool
    complete: bool
    protected: bool
    magical: bool
    spheres: int
    fresh: bool  # started in its owner's current turn


class TribuPlayerView(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    leader: Character | None  # its owner, and everyone once revealed
    leader_revealed: bool
    hand_size: int
    hand: tuple[Card, ...] | None  # its owner only
    chains: tuple[TribuChainView, ...]
    complete_chains: int
    blocked: bool
    total: int


class TribuAttackView(msgspec.Struct, frozen=True, kw_only=True):
    attacker: Seat
    card: Card  # wolf, bison or steal
    seat: Seat
    chain: Character
    into: Character | None


class TribuView(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="tribu.view"):
    viewer: Seat | None
    phase: Phase  # start-of-turn, after-draw, after-swap, discarding, defence or over
    to_act: tuple[Seat, ...]
    finished: bool
    challenge: int
    first_player: Seat
    current: Seat
    turn: int
    players: tuple[TribuPlayerView, ...]
    draw_pile_size: int
    draw_pile: tuple[Card, ...] | None  # its order: only once the game is over
    discard_size: int
    discard_top: Card | None
    discard_top_takeable: bool  # a discarded Diorama (TR-R13)
    played: tuple[Card, ...]  # Azione cards played this challenge
    rebuilds: int  # of the draw pile, this challenge
    attack: TribuAttackView | None  # waiting for the defender's answer
    discards_due: int  # after Take 3
    returned: Card | None  # after a swap ([F]): the card taken back from active, its owner only
    drew_from_pile: bool  # this turn drew a card from the draw pile (TR-R1)
    quiet_turns: int  # turns in a row before this one without such a draw (TR-R1)


def view(state: State, viewer: Seat | None) -> TribuView:
    everything = state.finished
    attack = state.attack
    return TribuView(
        viewer=viewer,
        phase=stage(state).phase,
        to_act=tuple(sorted(to_act(state))),
        finished=state.finished,
        challenge=state.challenge,
        first_player=state.first_player,
        current=state.current,
        turn=state.turn,
        players=tuple(
            player_view(seat, player, everything or sees_own(viewer, seat))
            for seat, player in enumerate(state.players)
        ),
        draw_pile_size=len(state.draw_pile),
        draw_pile=state.draw_pile if everything else None,
        discard_size=len(state.discard),
        discard_top=state.discard[0] if state.discard else None,
        discard_top_takeable=may_draw_from_discard(state),
        played=state.played,
        rebuilds=state.rebuilds,
        attack=attack_view(attack) if attack is not None and not attack.answered else None,
        discards_due=state.discards_due,
        returned=state.returned if everything or sees_own(viewer, state.current) else None,
        drew_from_pile=state.drew_from_pile,
        quiet_turns=state.quiet_turns,
    )


def attack_view(attack: PendingAttack) -> TribuAttackView:
    return TribuAttackView(
        attacker=attack.attacker,
        card=attack.card,
        seat=attack.seat,
        chain=attack.chain,
        into=attack.into,
    )


def player_view(seat: Seat, player: Player, own: bool) -> TribuPlayerView:
    return TribuPlayerView(
        seat=seat,
        leader=player.leader if own or player.leader_revealed else None,
        leader_revealed=player.leader_revealed,
        hand_size=len(player.hand),
        hand=player.hand if own else None,
        chains=tuple(chain_view(chain, own) for chain in player.chains),
        complete_chains=sum(is_complete(chain) for chain in player.chains),
        blocked=player.blocked,
        total=player.total,
    )


def chain_view(chain: Chain, own: bool) -> TribuChainView:
    return TribuChainView(
        character=chain.character,
        dioramas=chain.dioramas,
        has_active=chain.active is not None,
        active=chain.active if own else None,
        lone=is_lone(chain),
        complete=is_complete(chain),
        protected=is_protected(chain),
        magical=is_magical(chain),
        spheres=spheres_on_table(chain),
        fresh=chain.fresh,
    )


EventT = TypeVar("EventT", bound=Event)


def redact(event: EventT, viewer: Seat | None) -> EventT:
    """The event as `viewer` may see it while the game runs (once over, shown as recorded)."""
    replace = msgspec.structs.replace
    match event:
        case LeadersDrawn():
            leaders = tuple(
                leader if sees_own(viewer, seat) else None
                for seat, leader in enumerate(event.leaders)
            )
            return replace(event, leaders=leaders)
        case ChallengeDealt():
            hands = tuple(
                hand if sees_own(viewer, seat) else None for seat, hand in enumerate(event.hands)
            )
            return replace(event, order=None, hands=hands)
        case DrawPileRebuilt():
            return replace(event, order=None)
        case CardDrawn() if event.source == "draw-pile" and not sees_own(viewer, event.seat):
            return replace(event, card=None)
        case CardActivated() if not sees_own(viewer, event.seat):
            return replace(event, card=None)
        case ActiveSwapped() if not sees_own(viewer, event.seat):
            return replace(event, card=None, returned=None)
        case ChainEliminated() if not sees_own(viewer, event.seat):
            return replace(event, active=None)
    return event

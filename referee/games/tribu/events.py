"""What happened, one Struct per kind of event. A value a viewer may not see is None in the copy
`redact` gives them (views.py): cards drawn from the draw pile, hands, active cards, the order
of a shuffled pile, the leaders not yet revealed."""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.tribu.commands import Source
from referee.games.tribu.data import Card, Character
from referee.games.tribu.state import EndReason
from referee.kernel.contract import Seat


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class LeadersDrawn(_Event, frozen=True, tag="tribu.leaders-drawn"):
    """TR-2: each player's Tribe Leader, face down: a player sees only their own."""

    leaders: tuple[Character | None, ...]


class TribuFirstPlayerDrawn(_Event, frozen=True, tag="tribu.first-player-drawn"):
    """TR-12: the first challenge's first player."""

    seat: Seat


class ChallengeDealt(_Event, frozen=True, tag="tribu.challenge-dealt"):
    """A challenge begins (TR-7): all 100 cards shuffled (`order`, top first, secret), five
    dealt to each player one at a time clockwise from the first player; the rest is the draw
    pile. Each player sees only their own hand."""

    challenge: int
    first_player: Seat
    order: tuple[Card, ...] | None
    hands: tuple[tuple[Card, ...] | None, ...]
    draw_pile_size: int


class TurnStarted(_Event, frozen=True, tag="tribu.turn-started"):
    seat: Seat
    turn: int  # in this challenge


class TurnSkippedByBlock(_Event, frozen=True, tag="tribu.turn-skipped"):
    """A blocked player skips the turn; the Block card goes to the played-cards pile."""

    seat: Seat


class DrawPileRebuilt(_Event, frozen=True, tag="tribu.draw-pile-rebuilt"):
    """The discard pile, all but its top card, shuffled into a new draw pile (TR-11)."""

    rebuild: int  # the number of this rebuild in the challenge
    order: tuple[Card, ...] | None  # top first; secret
    size: int


class CardDrawn(_Event, frozen=True, tag="tribu.card-drawn"):
    """A card into a hand; from the draw pile only its owner sees which."""

    seat: Seat
    source: Source
    card: Card | None


class CardDiscarded(_Event, frozen=True, tag="tribu.card-discarded"):
    seat: Seat
    card: Card


class TribePlaced(_Event, frozen=True, tag="tribu.tribe-placed"):
    """A chain begins."""

    seat: Seat
    card: Character


class DioramaPlaced(_Event, frozen=True, tag="tribu.diorama-placed"):
    """A Diorama card on a chain: from the hand, or from an active card (`active`: the chain it
    lay beside, [G])."""

    seat: Seat
    card: Card
    chain: Character
    active: Character | None = None


class CardActivated(_Event, frozen=True, tag="tribu.card-activated"):
    """A card face down beside a chain; only its owner sees which."""

    seat: Seat
    chain: Character
    card: Card | None


class ActiveSwapped(_Event, frozen=True, tag="tribu.active-swapped"):
    """[F]: `card` from the hand is now active beside `chain`; `returned`, the card that was,
    goes to the hand. Only the owner sees either."""

    seat: Seat
    chain: Character
    card: Card | None
    returned: Card | None


class AttackMade(_Event, frozen=True, tag="tribu.attack-made"):
    """An active Wolf or Bison turned against a chain; the defender answers next."""

    seat: Seat
    active: Character
    card: Card
    target: Seat
    chain: Character


class DrawThreePlayed(_Event, frozen=True, tag="tribu.draw-three-played"):
    seat: Seat


class ThreeDiscarded(_Event, frozen=True, tag="tribu.three-discarded"):
    seat: Seat
    cards: tuple[Card, ...]


class BlockPlayed(_Event, frozen=True, tag="tribu.block-played"):
    seat: Seat
    target: Seat


class StealPlayed(_Event, frozen=True, tag="tribu.steal-played"):
    """A Steal aimed at the last card of `chain`, for the thief's chain `into`; the defender
    answers next."""

    seat: Seat
    target: Seat
    chain: Character
    into: Character


class Defended(_Event, frozen=True, tag="tribu.defended"):
    """The defender turns an active Protezione card; it goes under the discard pile."""

    seat: Seat
    active: Character
    card: Card


class DefencePassed(_Event, frozen=True, tag="tribu.defence-passed"):
    seat: Seat


class AttackResolved(_Event, frozen=True, tag="tribu.attack-resolved"):
    """What the attack did: vases destroyed (last first, under the discard pile, the Evento card
    after them), or the card stolen and placed on the thief's chain, or nothing. A Steal card
    goes to the played-cards pile."""

    seat: Seat  # the attacker
    card: Card  # wolf, bison or steal
    target: Seat
    chain: Character
    destroyed: tuple[Card, ...] = ()
    stolen: Card | None = None
    into: Character | None = None


class ChainEliminated(_Event, frozen=True, tag="tribu.chain-eliminated"):
    """TR-5: a Tribù card left alone since its owner's last turn goes under the discard pile,
    then its active card (face down: only its owner sees which)."""

    seat: Seat
    chain: Character
    active: Card | None
    had_active: bool


class LeaderRevealed(_Event, frozen=True, tag="tribu.leader-revealed"):
    """The leader's protection spares a lone Tribù card of its character (TR-2, TR-5)."""

    seat: Seat
    leader: Character


class PlayerScore(msgspec.Struct, frozen=True, kw_only=True):
    """One player's count at the end of a challenge, with everything it was counted from."""

    seat: Seat
    leader: Character
    hand: tuple[Card, ...]
    actives: tuple[Card, ...]
    table: int  # spheres on the table
    hostile: int  # spheres in hand and active cards, subtracted (0 for those who do not)
    bonus: int  # Protected Magical Chains: 10 each, 20 with the leader's character
    score: int  # table - hostile + bonus, possibly negative
    total: int


class ChallengeScored(_Event, frozen=True, tag="tribu.challenge-scored"):
    """The challenge is over: every hand, active card and leader is shown and counted."""

    challenge: int
    reason: EndReason
    closer: Seat | None  # who completed the chains, when that ended it
    players: tuple[PlayerScore, ...]


class TribuGameEnded(_Event, frozen=True, tag="tribu.game-ended"):
    """Someone reached 100 (or the tenth challenge is over, TR-8): the highest total wins."""

    totals: tuple[int, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    reason: Literal["reached-100", "ten-challenges"]


Event = (
    LeadersDrawn
    | TribuFirstPlayerDrawn
    | ChallengeDealt
    | TurnStarted
    | TurnSkippedByBlock
    | DrawPileRebuilt
    | CardDrawn
    | CardDiscarded
    | TribePlaced
    | DioramaPlaced
    | CardActivated
    | ActiveSwapped
    | AttackMade
    | DrawThreePlayed
    | ThreeDiscarded
    | BlockPlayed
    | StealPlayed
    | Defended
    | DefencePassed
    | AttackResolved
    | ChainEliminated
    | LeaderRevealed
    | ChallengeScored
    | TribuGameEnded
)

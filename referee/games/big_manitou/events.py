"""What happened, one Struct per kind of event. Hidden values are None in a redacted copy."""

from __future__ import annotations

from typing import Literal

import msgspec

from referee.games.big_manitou.data import CardKind, Cylinder, HunterKind, TileKind


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class BagFilled(_Event, frozen=True, tag="big-manitou.bag-filled"):
    """The 60 tiles shuffled into the bag, drawn from the front. Secret until the game ends."""

    order: tuple[TileKind, ...] | None


class HuntBegan(_Event, frozen=True, tag="big-manitou.hunt-began"):
    """The dealer draws the booty for the three hunting grounds."""

    hunt: int
    dealer: int
    first_player: int
    grounds: tuple[tuple[TileKind, ...], ...]
    cards_to_choose: tuple[int, ...]  # per seat


class CardsChosen(_Event, frozen=True, tag="big-manitou.cards-chosen"):
    """A player's cards for this hunt; only the player sees which."""

    seat: int
    cards: tuple[CardKind, ...] | None
    at_random: bool = False


class PileShuffled(_Event, frozen=True, tag="big-manitou.pile-shuffled"):
    """A player's chosen cards shuffled into a face-down pile (top first). Secret from everyone,
    the owner included, until the game ends."""

    seat: int
    order: tuple[CardKind, ...] | None


class CardsDrawn(_Event, frozen=True, tag="big-manitou.cards-drawn"):
    """Cards from the top of a player's pile into their hand; only the player sees which."""

    seat: int
    count: int
    cards: tuple[CardKind, ...] | None


class CardPlayed(_Event, frozen=True, tag="big-manitou.card-played"):
    """A card placed face up in a hunting ground, and the Heroes the Trial of Strength turned
    face down (positions in the ground's row of cards, the new card being the last)."""

    seat: int
    card: CardKind
    ground: int
    turned_down: tuple[int, ...] = ()
    eighth_card: bool = False


class TurnSkipped(_Event, frozen=True, tag="big-manitou.turn-skipped"):
    """The player holds no card they may play, so their turn passes (our ruling BM-R4)."""

    seat: int


class Passed(_Event, frozen=True, tag="big-manitou.passed"):
    """The holder of a cylinder declined its privilege."""

    seat: int
    cylinder: Cylinder


class HunterMoved(_Event, frozen=True, tag="big-manitou.hunter-moved"):
    """The Horse holder moved one of their Hunter cards to another hunting ground."""

    seat: int
    card: HunterKind
    from_ground: int
    to_ground: int


class LeatherThiefStruck(_Event, frozen=True, tag="big-manitou.leather-thief-struck"):
    """The strength every player used (Hunter values, no Tomahawks) and who must pay."""

    strengths: tuple[int, ...]
    victims: tuple[int, ...]


class TileDiscarded(_Event, frozen=True, tag="big-manitou.tile-discarded"):
    """A tile paid to the Leather Thief, removed from the game."""

    seat: int
    tile: TileKind


class CylinderPassed(_Event, frozen=True, tag="big-manitou.cylinder-passed"):
    """A cylinder changes hands (None: back to the side of the table)."""

    cylinder: Cylinder
    seat: int | None


class EvaluationBegan(_Event, frozen=True, tag="big-manitou.evaluation-began"):
    """The grounds are evaluated; each Hunter card of a seat counts this much more (Tomahawks)."""

    tomahawk_bonus: tuple[int, ...]


PickedBy = Literal["hero", "best-hunters", "next-hunters"]


class Pick(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    count: int
    by: PickedBy


class GroundEvaluated(_Event, frozen=True, tag="big-manitou.ground-evaluated"):
    """Who picks booty in a ground, in order. `hunter_totals` is per seat (None: no Hunter)."""

    ground: int
    hero: int | None
    hunter_totals: tuple[int | None, ...]
    picks: tuple[Pick, ...]


class TilesTaken(_Event, frozen=True, tag="big-manitou.tiles-taken"):
    seat: int
    ground: int
    tiles: tuple[TileKind, ...]


class GroundClosed(_Event, frozen=True, tag="big-manitou.ground-closed"):
    """The tiles nobody took leave the game."""

    ground: int
    removed: tuple[TileKind, ...]


class HuntEnded(_Event, frozen=True, tag="big-manitou.hunt-ended"):
    """The played cards are discarded; unplayed cards go back under the Tribe card."""

    hunt: int


class BigManitouGameEnded(_Event, frozen=True, tag="big-manitou.game-ended"):
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


Event = (
    BagFilled
    | HuntBegan
    | CardsChosen
    | PileShuffled
    | CardsDrawn
    | CardPlayed
    | TurnSkipped
    | Passed
    | HunterMoved
    | LeatherThiefStruck
    | TileDiscarded
    | CylinderPassed
    | EvaluationBegan
    | GroundEvaluated
    | TilesTaken
    | GroundClosed
    | HuntEnded
    | BigManitouGameEnded
)

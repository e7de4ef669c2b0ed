"""What a seat (or a spectator) may see: the view of the state and each event redacted.

Hidden until the game ends: the bag's order; a player's chosen cards, pile and hand (the
owner sees their own, but not the order of their own face-down pile). Everything played,
face-down Heroes included, was seen face up by everybody, so it stays visible (BM-R8).
"""

from __future__ import annotations

from typing import TypeVar, assert_never

import msgspec

from referee.games.big_manitou.booty import buffaloes, tepees
from referee.games.big_manitou.data import CARD_SET, CardKind, TileKind
from referee.games.big_manitou.evaluation import strengths
from referee.games.big_manitou.events import (
    BagFilled,
    BigManitouGameEnded,
    CardPlayed,
    CardsChosen,
    CardsDrawn,
    CylinderPassed,
    EvaluationBegan,
    Event,
    GroundClosed,
    GroundEvaluated,
    HuntBegan,
    HuntEnded,
    HunterMoved,
    LeatherThiefStruck,
    Passed,
    Pick,
    PileShuffled,
    TileDiscarded,
    TilesTaken,
    TurnSkipped,
)
from referee.games.big_manitou.scoring import ranking, victory_points
from referee.games.big_manitou.stages import Phase, stage, to_act
from referee.games.big_manitou.state import Placed, Player, State
from referee.kernel.piles import in_canonical_order
from referee.kernel.simultaneous import as_seen_by


class GroundView(msgspec.Struct, frozen=True, kw_only=True):
    tiles: tuple[TileKind, ...]
    cards: tuple[Placed, ...]


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    tiles: tuple[TileKind, ...]
    tepees: int
    buffaloes: int
    points: int  # victory points if the game ended now
    cards_to_choose: int
    has_chosen: bool
    unavailable: tuple[CardKind, ...]  # played in the previous hunt: not choosable this hunt
    strength: int  # Hunter values played this hunt, as the Leather Thief counts them
    hand_size: int
    pile_size: int
    chosen: tuple[CardKind, ...] | None  # hidden from others until the game ends
    hand: tuple[CardKind, ...] | None  # hidden from others until the game ends
    pile: tuple[CardKind, ...] | None  # the owner sees what is in it, in canonical order


class BigManitouView(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="big-manitou.view"
):
    viewer: int | None
    phase: Phase  # the decision awaited: choosing, playing, eighth-card, horse-move, ...
    to_act: tuple[int, ...]
    finished: bool
    hunt: int
    hunts: int
    dealer: int
    first_player: int
    grounds: tuple[GroundView, ...]
    players: tuple[PlayerView, ...]
    totem_holder: int | None
    horse_holder: int | None
    bag_size: int
    bag: tuple[TileKind, ...] | None  # its order: only once the game is over
    removed: tuple[TileKind, ...]
    strengths: tuple[int, ...] | None  # as the Leather Thief counted them this hunt
    thief_victims: tuple[int, ...]
    tomahawk_bonus: tuple[int, ...] | None
    evaluating: int | None
    picks: tuple[Pick, ...]  # the picks still to make in the ground being evaluated
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


def view(state: State, viewer: int | None) -> BigManitouView:
    everything = state.finished
    hoards = [player.tiles for player in state.players]
    points = victory_points(hoards, state.totem_holder, state.horse_holder)
    chosen = state.chosen if everything else as_seen_by(state.chosen, viewer)
    used = strengths(state.grounds, state.seats)
    players = tuple(
        player_view(state, seat, player, points[seat], used[seat], chosen[seat], seat == viewer)
        for seat, player in enumerate(state.players)
    )
    evaluating = state.tomahawk_bonus is not None and state.evaluating < len(state.grounds)
    return BigManitouView(
        viewer=viewer,
        phase=stage(state).phase,
        to_act=tuple(sorted(to_act(state))),
        finished=state.finished,
        hunt=state.hunt,
        hunts=state.hunts,
        dealer=state.dealer,
        first_player=state.first_player,
        grounds=tuple(GroundView(tiles=g.tiles, cards=g.cards) for g in state.grounds),
        players=players,
        totem_holder=state.totem_holder,
        horse_holder=state.horse_holder,
        bag_size=len(state.bag),
        bag=state.bag if everything else None,
        removed=state.removed,
        strengths=state.strengths,
        thief_victims=state.thief_victims,
        tomahawk_bonus=state.tomahawk_bonus,
        evaluating=state.evaluating if evaluating else None,
        picks=state.picks or (),
        scores=points,
        ranking=ranking(points, hoards) if state.finished else (),
    )


def player_view(
    state: State,
    seat: int,
    player: Player,
    points: int,
    strength: int,
    chosen: tuple[CardKind, ...] | None,
    own: bool,
) -> PlayerView:
    everything = state.finished
    pile = player.pile or ()
    return PlayerView(
        seat=seat,
        tiles=player.tiles,
        tepees=tepees(player.tiles),
        buffaloes=buffaloes(player.tiles),
        points=points,
        cards_to_choose=state.cards_to_choose[seat] if state.cards_to_choose else 0,
        has_chosen=state.chosen[seat] is not None,
        unavailable=player.unavailable,
        strength=strength,
        hand_size=len(player.hand),
        pile_size=len(pile),
        chosen=chosen,
        hand=player.hand if own or everything else None,
        pile=pile if everything else in_canonical_order(pile, CARD_SET) if own else None,
    )


RedactedT = TypeVar("RedactedT", bound=Event)


def redact(event: RedactedT, viewer: int | None) -> RedactedT:
    """The event as `viewer` may see it while the game is on (once over, show it unredacted)."""
    match event:
        case BagFilled():
            return msgspec.structs.replace(event, order=None)
        case PileShuffled():
            return msgspec.structs.replace(event, order=None)
        case CardsChosen():
            return event if event.seat == viewer else msgspec.structs.replace(event, cards=None)
        case CardsDrawn():
            return event if event.seat == viewer else msgspec.structs.replace(event, cards=None)
        case (
            HuntBegan()
            | CardPlayed()
            | TurnSkipped()
            | Passed()
            | HunterMoved()
            | LeatherThiefStruck()
            | TileDiscarded()
            | CylinderPassed()
            | EvaluationBegan()
            | GroundEvaluated()
            | TilesTaken()
            | GroundClosed()
            | HuntEnded()
            | BigManitouGameEnded()
        ):
            return event
    assert_never(event)

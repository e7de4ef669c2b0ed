"""`evolve`: each event applied to the state. No randomness and no rule decisions here."""

from __future__ import annotations

from typing import assert_never

import msgspec

from referee.games.big_manitou.data import GROUNDS
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
    PileShuffled,
    TileDiscarded,
    TilesTaken,
    TurnSkipped,
)
from referee.games.big_manitou.state import Ground, Placed, Player, State, with_ground, with_player
from referee.kernel.piles import without
from referee.kernel.simultaneous import no_choices, with_choice

replace = msgspec.structs.replace


def evolve(state: State, event: Event) -> State:
    match event:
        case BagFilled():
            return _bag_filled(state, event)
        case HuntBegan():
            return _hunt_began(state, event)
        case CardsChosen():
            return _cards_chosen(state, event)
        case PileShuffled():
            return _pile_shuffled(state, event)
        case CardsDrawn():
            return _cards_drawn(state, event)
        case CardPlayed():
            return _card_played(state, event)
        case TurnSkipped():
            return _turn_skipped(state, event)
        case Passed():
            return _passed(state, event)
        case HunterMoved():
            return _hunter_moved(state, event)
        case LeatherThiefStruck():
            return _leather_thief_struck(state, event)
        case TileDiscarded():
            return _tile_discarded(state, event)
        case CylinderPassed():
            return _cylinder_passed(state, event)
        case EvaluationBegan():
            return _evaluation_began(state, event)
        case GroundEvaluated():
            return _ground_evaluated(state, event)
        case TilesTaken():
            return _tiles_taken(state, event)
        case GroundClosed():
            return _ground_closed(state, event)
        case HuntEnded():
            return _hunt_ended(state, event)
        case BigManitouGameEnded():
            return _game_ended(state, event)
    assert_never(event)


def _bag_filled(state: State, event: BagFilled) -> State:
    return replace(state, bag=event.order or ())


def _hunt_began(state: State, event: HuntBegan) -> State:
    drawn = sum(len(tiles) for tiles in event.grounds)
    return replace(
        state,
        hunt=event.hunt,
        in_hunt=True,
        dealer=event.dealer,
        bag=state.bag[drawn:],
        cards_to_choose=event.cards_to_choose,
        chosen=no_choices(state.seats),
        grounds=tuple(Ground(tiles=tiles) for tiles in event.grounds),
        turn=0,
        totem_resolved=False,
        horse_resolved=False,
        strengths=None,
        thief_victims=(),
        thief_paid=(),
        tomahawk_bonus=None,
        evaluating=0,
        picks=None,
    )


def _cards_chosen(state: State, event: CardsChosen) -> State:
    return replace(state, chosen=with_choice(state.chosen, event.seat, event.cards or ()))


def _pile_shuffled(state: State, event: PileShuffled) -> State:
    return with_player(state, event.seat, pile=event.order or ())


def _cards_drawn(state: State, event: CardsDrawn) -> State:
    player = state.players[event.seat]
    pile = player.pile or ()
    return with_player(
        state, event.seat, hand=player.hand + pile[: event.count], pile=pile[event.count :]
    )


def _card_played(state: State, event: CardPlayed) -> State:
    hand = without(state.players[event.seat].hand, [event.card])
    state = with_player(state, event.seat, hand=hand)
    cards = (*state.grounds[event.ground].cards, Placed(owner=event.seat, card=event.card))
    cards = tuple(
        replace(placed, face_up=False) if position in event.turned_down else placed
        for position, placed in enumerate(cards)
    )
    state = with_ground(state, event.ground, cards=cards)
    if event.eighth_card:
        return replace(state, totem_resolved=True)
    return replace(state, turn=state.turn + 1)


def _turn_skipped(state: State, event: TurnSkipped) -> State:
    return replace(state, turn=state.turn + 1)


def _passed(state: State, event: Passed) -> State:
    if event.cylinder == "totem":
        return replace(state, totem_resolved=True)
    return replace(state, horse_resolved=True)


def _hunter_moved(state: State, event: HunterMoved) -> State:
    source = state.grounds[event.from_ground].cards
    moved = next(p for p in source if p.owner == event.seat and p.card == event.card)
    state = with_ground(state, event.from_ground, cards=tuple(p for p in source if p is not moved))
    cards = (*state.grounds[event.to_ground].cards, moved)
    return replace(with_ground(state, event.to_ground, cards=cards), horse_resolved=True)


def _leather_thief_struck(state: State, event: LeatherThiefStruck) -> State:
    return replace(state, strengths=event.strengths, thief_victims=event.victims)


def _tile_discarded(state: State, event: TileDiscarded) -> State:
    state = with_player(
        state, event.seat, tiles=without(state.players[event.seat].tiles, [event.tile])
    )
    return replace(
        state, removed=(*state.removed, event.tile), thief_paid=(*state.thief_paid, event.seat)
    )


def _cylinder_passed(state: State, event: CylinderPassed) -> State:
    if event.cylinder == "totem":
        return replace(state, totem_holder=event.seat)
    return replace(state, horse_holder=event.seat)


def _evaluation_began(state: State, event: EvaluationBegan) -> State:
    return replace(state, tomahawk_bonus=event.tomahawk_bonus, evaluating=0, picks=None)


def _ground_evaluated(state: State, event: GroundEvaluated) -> State:
    return replace(state, picks=event.picks)


def _tiles_taken(state: State, event: TilesTaken) -> State:
    ground = state.grounds[event.ground]
    state = with_ground(state, event.ground, tiles=without(ground.tiles, event.tiles))
    state = with_player(state, event.seat, tiles=(*state.players[event.seat].tiles, *event.tiles))
    return replace(state, picks=(state.picks or ())[1:])


def _ground_closed(state: State, event: GroundClosed) -> State:
    state = with_ground(state, event.ground, tiles=())
    return replace(
        state, removed=(*state.removed, *event.removed), evaluating=event.ground + 1, picks=None
    )


def _hunt_ended(state: State, event: HuntEnded) -> State:
    # Cards played in hunts 1 and 3 sit out hunts 2 and 4; after an even hunt all come back.
    rest_next_hunt = event.hunt % 2 == 1
    players = tuple(
        Player(
            tiles=player.tiles,
            unavailable=tuple(
                placed.card
                for ground in state.grounds
                for placed in ground.cards
                if placed.owner == seat and rest_next_hunt
            ),
        )
        for seat, player in enumerate(state.players)
    )
    return replace(
        state,
        in_hunt=False,
        players=players,
        chosen=no_choices(state.seats),
        grounds=(Ground(),) * GROUNDS,
    )


def _game_ended(state: State, event: BigManitouGameEnded) -> State:
    return replace(state, finished=True)

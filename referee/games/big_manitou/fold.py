"""evolve: each event applied to the state. No randomness and no rule decisions here."""

from __future__ import annotations

from functools import singledispatch

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
    return apply(event, state)


@singledispatch
def apply(event: Event, state: State) -> State:
    raise TypeError(f"not an event of this game: {event!r}")


@apply.register
def _(event: BagFilled, state: State) -> State:
    return replace(state, bag=event.order or ())


@apply.register
def _(event: HuntBegan, state: State) -> State:
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


@apply.register
def _(event: CardsChosen, state: State) -> State:
    return replace(state, chosen=with_choice(state.chosen, event.seat, event.cards or ()))


@apply.register
def _(event: PileShuffled, state: State) -> State:
    return with_player(state, event.seat, pile=event.order or ())


@apply.register
def _(event: CardsDrawn, state: State) -> State:
    player = state.players[event.seat]
    pile = player.pile or ()
    return with_player(
        state, event.seat, hand=player.hand + pile[: event.count], pile=pile[event.count :]
    )


@apply.register
def _(event: CardPlayed, state: State) -> State:
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


@apply.register
def _(event: TurnSkipped, state: State) -> State:
    return replace(state, turn=state.turn + 1)


@apply.register
def _(event: Passed, state: State) -> State:
    if event.cylinder == "totem":
        return replace(state, totem_resolved=True)
    return replace(state, horse_resolved=True)


@apply.register
def _(event: HunterMoved, state: State) -> State:
    source = state.grounds[event.from_ground].cards
    moved = next(p for p in source if p.owner == event.seat and p.card == event.card)
    state = with_ground(state, event.from_ground, cards=tuple(p for p in source if p is not moved))
    cards = (*state.grounds[event.to_ground].cards, moved)
    return replace(with_ground(state, event.to_ground, cards=cards), horse_resolved=True)


@apply.register
def _(event: LeatherThiefStruck, state: State) -> State:
    return replace(state, strengths=event.strengths, thief_victims=event.victims)


@apply.register
def _(event: TileDiscarded, state: State) -> State:
    state = with_player(
        state, event.seat, tiles=without(state.players[event.seat].tiles, [event.tile])
    )
    return replace(
        state, removed=(*state.removed, event.tile), thief_paid=(*state.thief_paid, event.seat)
    )


@apply.register
def _(event: CylinderPassed, state: State) -> State:
    if event.cylinder == "totem":
        return replace(state, totem_holder=event.seat)
    return replace(state, horse_holder=event.seat)


@apply.register
def _(event: EvaluationBegan, state: State) -> State:
    return replace(state, tomahawk_bonus=event.tomahawk_bonus, evaluating=0, picks=None)


@apply.register
def _(event: GroundEvaluated, state: State) -> State:
    return replace(state, picks=event.picks)


@apply.register
def _(event: TilesTaken, state: State) -> State:
    ground = state.grounds[event.ground]
    state = with_ground(state, event.ground, tiles=without(ground.tiles, event.tiles))
    state = with_player(state, event.seat, tiles=(*state.players[event.seat].tiles, *event.tiles))
    return replace(state, picks=(state.picks or ())[1:])


@apply.register
def _(event: GroundClosed, state: State) -> State:
    state = with_ground(state, event.ground, tiles=())
    return replace(
        state, removed=(*state.removed, *event.removed), evaluating=event.ground + 1, picks=None
    )


@apply.register
def _(event: HuntEnded, state: State) -> State:
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


@apply.register
def _(event: BigManitouGameEnded, state: State) -> State:
    return replace(state, finished=True)

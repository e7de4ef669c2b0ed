"""`evolve`: each event applied to the state. No randomness and no rule decisions here.

A replayed stream may come from an untrusted bundle, so an event that takes tiles or cards
from somewhere must find them there (ValueError otherwise, as for any event that cannot apply):
the bag holds the 60 tiles and a hunt's grounds are its front, a choice is of the cards the
seat may choose, a pile is exactly the cards chosen, a draw is the top of the pile, a Hunter
moves from where it lies, booty is taken as the pick says and a closed ground loses what is
left in it. A redacted event (a hidden value None) cannot be folded.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import TypeVar, assert_never

import msgspec

from referee.games.big_manitou.data import (
    CARD_SET,
    GROUNDS,
    HAND_SIZE,
    TILE_BAG,
    TILES_PER_GROUND,
    CardKind,
)
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
from referee.games.big_manitou.flow import cards_to_choose
from referee.games.big_manitou.state import (
    Ground,
    Placed,
    Player,
    State,
    with_ground,
    with_player,
)
from referee.kernel.piles import without
from referee.kernel.simultaneous import all_in, no_choices, with_choice
from referee.kernel.wording import counted

replace = msgspec.structs.replace

T = TypeVar("T")

SORTED_BAG = sorted(TILE_BAG)
SET_COUNTS = dict(Counter(CARD_SET))


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


def _revealed(hidden: T | None) -> T:
    if hidden is None:
        raise ValueError("a redacted event cannot be folded")
    return hidden


def _at_table(state: State, seat: int) -> int:
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not at the table")
    return seat


def _bag_filled(state: State, event: BagFilled) -> State:
    order = _revealed(event.order)
    if state.hunt or state.bag:
        raise ValueError("the bag is filled once, at set-up")
    if sorted(order) != SORTED_BAG:
        raise ValueError("the bag holds exactly the 60 tiles of BM-2")
    return replace(state, bag=order)


def _hunt_began(state: State, event: HuntBegan) -> State:
    seats = state.seats
    if state.in_hunt or state.finished:
        raise ValueError("a hunt begins once the last one has ended")
    dealer = _at_table(state, event.dealer)
    if event.first_player != (dealer + 1) % seats:
        raise ValueError("the first player sits left of the dealer")
    if event.cards_to_choose != _to_choose(seats, dealer):
        raise ValueError("those are not the numbers of cards to choose for this dealer")
    # At most BM-1's tiles per ground, not exactly: the tests' positions deal grounds short
    # (tests/unit/big_manitou/support.py) to study one ground alone.
    sizes = TILES_PER_GROUND[seats]
    if len(event.grounds) != GROUNDS or any(
        len(tiles) > size for tiles, size in zip(event.grounds, sizes, strict=True)
    ):
        most = "/".join(map(str, sizes))
        raise ValueError(f"the grounds hold at most {most} tiles with {seats} players")
    drawn = sum(len(tiles) for tiles in event.grounds)
    if tuple(tile for tiles in event.grounds for tile in tiles) != state.bag[:drawn]:
        raise ValueError("the grounds' tiles are not the front of the bag")
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


@functools.cache
def _to_choose(seats: int, dealer: int) -> tuple[int, ...]:
    """How many cards each seat chooses with this dealer (a handful of tables: kept)."""
    return tuple(cards_to_choose(seat, dealer, seats) for seat in range(seats))


def _cards_chosen(state: State, event: CardsChosen) -> State:
    cards = _revealed(event.cards)
    if not state.in_hunt:
        raise ValueError("cards are chosen for a hunt, once it has begun")
    seat = _at_table(state, event.seat)
    wanted = state.cards_to_choose[seat]
    if len(cards) != wanted:
        raise ValueError(f"seat {seat} chooses {counted(wanted, 'card')}, not {len(cards)}")
    if not _choosable(state.players[seat].unavailable, cards):
        raise ValueError(f"seat {seat} may not choose those cards this hunt")
    return replace(state, chosen=with_choice(state.chosen, seat, cards))


def _choosable(unavailable: tuple[CardKind, ...], cards: tuple[CardKind, ...]) -> bool:
    """Whether `cards` are among those available (`state.available`): counted against the set,
    with the cards that sit out this hunt (a dict's counts: a fraction of two Counters' cost)."""
    left = dict(SET_COUNTS)
    for card in unavailable + cards:
        count = left.get(card, 0)
        if not count:
            return False
        left[card] = count - 1
    return True


def _pile_shuffled(state: State, event: PileShuffled) -> State:
    order = _revealed(event.order)
    seat = _at_table(state, event.seat)
    if not all_in(state.chosen):
        raise ValueError("the piles are shuffled once every choice is in")
    if state.players[seat].pile is not None:
        raise ValueError(f"seat {seat}'s pile is shuffled once a hunt")
    if sorted(order) != sorted(state.chosen[seat] or ()):
        raise ValueError(f"seat {seat}'s pile is not exactly the cards chosen")
    return with_player(state, seat, pile=order)


def _cards_drawn(state: State, event: CardsDrawn) -> State:
    # Checked inline (over a quarter of the events): the cards are the top of the seat's pile.
    cards, seat, count = event.cards, event.seat, event.count
    if cards is None:
        raise ValueError("a redacted event cannot be folded")
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not at the table")
    player = state.players[seat]
    pile = player.pile
    if pile is None:
        raise ValueError(f"seat {seat} has no pile to draw from yet")
    if count != len(cards) or not count:
        raise ValueError("a draw's count is the number of its cards, one or more")
    if len(player.hand) + count > HAND_SIZE:
        raise ValueError("a hand holds three cards at most")
    if pile[:count] != cards:
        raise ValueError(f"{', '.join(cards)} is not the top of seat {seat}'s pile")
    return with_player(state, seat, hand=player.hand + cards, pile=pile[count:])


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
    if event.to_ground == event.from_ground or not 0 <= event.to_ground < GROUNDS:
        raise ValueError("a Hunter moves to another hunting ground")
    source = state.grounds[event.from_ground].cards if 0 <= event.from_ground < GROUNDS else ()
    moved = next((p for p in source if p.owner == event.seat and p.card == event.card), None)
    if moved is None:
        raise ValueError(
            f"seat {event.seat} has no {event.card} in hunting ground {event.from_ground}"
        )
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
    picks, evaluating = state.picks, state.evaluating
    if not picks:
        raise ValueError("no pick is waiting in a hunting ground")
    pick = picks[0]
    if event.seat != pick.seat or event.ground != evaluating:
        raise ValueError(f"the pick is seat {pick.seat}'s, in hunting ground {evaluating}")
    if len(event.tiles) != pick.count:
        raise ValueError(f"seat {pick.seat} takes {counted(pick.count, 'tile')}")
    ground = state.grounds[evaluating]
    state = with_ground(state, evaluating, tiles=without(ground.tiles, event.tiles))
    state = with_player(state, pick.seat, tiles=(*state.players[pick.seat].tiles, *event.tiles))
    return replace(state, picks=picks[1:])


def _ground_closed(state: State, event: GroundClosed) -> State:
    if state.picks != ():
        raise ValueError("a hunting ground closes once its picks are made")
    if event.ground != state.evaluating:
        raise ValueError(f"the hunting ground being evaluated is ground {state.evaluating}")
    if event.removed != state.grounds[event.ground].tiles:
        raise ValueError("the tiles removed are not the ones left in the ground")
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

"""What a bot may think (referee/kernel/bots.py): a world its seat cannot tell from the real one,
and a state's worth to a seat by the game's own scoring.

`imagine` keeps everything the view shows and deals what it hides at random: the bag's order
(the 60 tiles less every tile in sight), the other players' choices, hands and piles (each from
their own set, less the cards they may not choose this hunt and the cards they have played in
it), and the order of the seat's own pile (its owner knows only what is in it).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

import msgspec

from referee.games.big_manitou.booty import counts_of, holder_after_gain, take_options
from referee.games.big_manitou.data import (
    CARD_SET,
    GROUNDS,
    PLAYS_PER_HUNT,
    TILE_BAG,
    CardKind,
    TileKind,
)
from referee.games.big_manitou.evaluation import picks
from referee.games.big_manitou.events import Pick
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.scoring import outcome, victory_points
from referee.games.big_manitou.stages import playable, stage
from referee.games.big_manitou.state import Ground, Player, State
from referee.games.big_manitou.views import BigManitouView, PlayerView
from referee.kernel.bots import ended, lead
from referee.kernel.contract import Seat
from referee.kernel.piles import in_canonical_order, without
from referee.kernel.unseen import deal_unseen, deal_until_it_fits

# A deal that leaves a seat named to act without a card it may play (the referee would have
# skipped its turn or the Totem's eighth card) is dealt again; a few tries find a fitting one.
ATTEMPTS = 200

BEFORE_PLAY = frozenset({"next-hunt", "choosing", "dealing"})
TOTEM_STILL_OPEN = frozenset({*BEFORE_PLAY, "playing", "eighth-card"})
HORSE_STILL_OPEN = frozenset({*TOTEM_STILL_OPEN, "horse-move"})
CARD_PLAYING = frozenset({"playing", "eighth-card"})


def imagine(view: BigManitouView, seat: Seat, rng: random.Random) -> State:
    """A state `seat` cannot tell from the real one, everything its view hides dealt at random."""
    return deal_until_it_fits(
        lambda: _dealt(view, seat, rng), lambda world: _fits(world, view), ATTEMPTS
    )


def evaluate(state: State, seat: Seat) -> float:
    """Victory points (BM-3) once the hunt's grounds are evaluated as their cards stand now: the
    seat's lead over the best other player, or the final result."""
    if state.finished:
        return ended(outcome(state).winners, seat)
    booty = Booty(
        hoards=tuple(player.tiles for player in state.players),
        totem_holder=state.totem_holder,
        horse_holder=state.horse_holder,
    )
    if state.in_hunt:
        hunt = Hunt(
            grounds=state.grounds[state.evaluating :],
            bonus=state.tomahawk_bonus or tuple(counts_of("tomahawk", booty.hoards)),
            picks=state.picks,
        )
        booty = after_the_hunt(booty, hunt)
    return lead(booty.points(), seat)


# -- the hunt's booty in prospect ------------------------------------------------------------------


class Booty(msgspec.Struct, frozen=True):
    """The tiles each player holds and who holds each cylinder."""

    hoards: tuple[tuple[TileKind, ...], ...]
    totem_holder: int | None
    horse_holder: int | None

    def points(self) -> tuple[int, ...]:
        return victory_points(self.hoards, self.totem_holder, self.horse_holder)

    def after_taking(self, seat: Seat, tiles: Sequence[TileKind]) -> Booty:
        """The tiles added to the seat's hoard, a cylinder passed to whoever draws level on it."""
        hoards = list(self.hoards)
        hoards[seat] = (*hoards[seat], *tiles)
        totem, horse = self.totem_holder, self.horse_holder
        if "totem" in tiles:
            totem = holder_after_gain(totem, counts_of("totem", hoards), seat)
        if "horse" in tiles:
            horse = holder_after_gain(horse, counts_of("horse", hoards), seat)
        return Booty(hoards=tuple(hoards), totem_holder=totem, horse_holder=horse)

    def best_take(self, seat: Seat, tiles: Sequence[TileKind], count: int) -> tuple[TileKind, ...]:
        """The tiles that leave the picker the most points (the first such choice)."""
        options = take_options(tiles, count)
        return max(options, key=lambda option: self.after_taking(seat, option).points()[seat])


class Hunt(msgspec.Struct, frozen=True):
    """The grounds still to evaluate, the Tomahawk bonus they count, and the picks still to make
    in the first of them when its evaluation has begun."""

    grounds: tuple[Ground, ...]
    bonus: tuple[int, ...]
    picks: tuple[Pick, ...] | None


# The greedy bot scores each command in several imagined worlds that differ only in hidden
# cards: the grounds and the tiles held are the same in all of them, so the booty is worked once.
@functools.lru_cache(maxsize=4096)
def after_the_hunt(booty: Booty, hunt: Hunt) -> Booty:
    """The booty once each ground gives its picks as its cards stand now (BM-6)."""
    for index, ground in enumerate(hunt.grounds):
        pending = picks(ground, hunt.bonus)
        if index == 0 and hunt.picks is not None:
            pending = hunt.picks  # the ground being evaluated: the picks still to make
        tiles = ground.tiles
        for pick in pending:
            taken = booty.best_take(pick.seat, tiles, min(pick.count, len(tiles)))
            booty = booty.after_taking(pick.seat, taken)
            tiles = without(tiles, taken)
    return booty


# -- the imagined world ---------------------------------------------------------------------------


def _dealt(view: BigManitouView, seat: Seat, rng: random.Random) -> State:
    seats = len(view.players)
    in_hunt = view.phase not in ("next-hunt", "over")
    dealt = in_hunt and all(player.has_chosen for player in view.players)
    grounds = tuple(Ground(tiles=g.tiles, cards=g.cards) for g in view.grounds)
    hidden = [
        _hidden_cards(player, grounds, dealt, own=player.seat == seat, rng=rng)
        for player in view.players
    ]
    return State(
        seats=seats,
        options=Options(),  # not in the view; only a new game's set-up reads them
        players=tuple(player for player, _ in hidden),
        bag=_bag(view, rng),
        removed=view.removed,
        totem_holder=view.totem_holder,
        horse_holder=view.horse_holder,
        finished=view.finished,
        hunt=view.hunt,
        in_hunt=in_hunt,
        dealer=view.dealer,
        cards_to_choose=tuple(p.cards_to_choose for p in view.players) if view.hunt else (),
        chosen=tuple(chosen for _, chosen in hidden),
        grounds=grounds,
        turn=_turn(view, grounds),
        totem_resolved=view.phase not in TOTEM_STILL_OPEN,
        horse_resolved=view.phase not in HORSE_STILL_OPEN,
        strengths=view.strengths,
        thief_victims=view.thief_victims,
        thief_paid=_thief_paid(view),
        tomahawk_bonus=view.tomahawk_bonus,
        evaluating=_evaluating(view),
        picks=view.picks or None,
    )


def _hidden_cards(
    player: PlayerView,
    grounds: Sequence[Ground],
    dealt: bool,
    *,
    own: bool,
    rng: random.Random,
) -> tuple[Player, tuple[CardKind, ...] | None]:
    """A player's hand, pile and choice for the hunt: what the view shows, the rest dealt."""
    choosable = without(CARD_SET, player.unavailable)
    public = Player(unavailable=player.unavailable, tiles=player.tiles)
    if not dealt:  # choosing (or between hunts): no pile yet, a choice perhaps made
        return public, _choice(player, choosable, rng)
    if own:  # the owner knows what its pile holds, not in which order
        pile = tuple(rng.sample(player.pile or (), player.pile_size))
        return msgspec.structs.replace(public, hand=player.hand or (), pile=pile), player.chosen
    played = [p.card for g in grounds for p in g.cards if p.owner == player.seat]
    unchosen = len(choosable) - len(played) - player.hand_size - player.pile_size
    hand, pile, _ = deal_unseen(
        choosable, played, (player.hand_size, player.pile_size, unchosen), rng
    )
    chosen = in_canonical_order((*played, *hand, *pile), CARD_SET)
    return msgspec.structs.replace(public, hand=hand, pile=pile), chosen


def _choice(
    player: PlayerView, choosable: tuple[CardKind, ...], rng: random.Random
) -> tuple[CardKind, ...] | None:
    """The choice the view shows; a random one of the right size for a seat that chose unseen."""
    if player.chosen is not None or not player.has_chosen:
        return player.chosen
    count = player.cards_to_choose
    chosen, _ = deal_unseen(choosable, (), (count, len(choosable) - count), rng)
    return in_canonical_order(chosen, CARD_SET)


def _bag(view: BigManitouView, rng: random.Random) -> tuple[TileKind, ...]:
    if view.bag is not None:
        return view.bag
    in_sight = [
        *(tile for ground in view.grounds for tile in ground.tiles),
        *(tile for player in view.players for tile in player.tiles),
        *view.removed,
    ]
    [bag] = deal_unseen(TILE_BAG, in_sight, (view.bag_size,), rng)
    return bag


def _turn(view: BigManitouView, grounds: Sequence[Ground]) -> int:
    """Turns taken in the rounds of play. While they last, the seat to act says how many modulo
    the seats, and no player has played more cards than it had turns; skipped turns (BM-R4) are
    not in the view, so the fewest that fit are taken."""
    seats = len(view.players)
    if view.hunt == 0 or view.phase == "choosing":
        return 0
    if view.phase != "playing":
        return PLAYS_PER_HUNT * seats
    played = [sum(p.owner == seat for g in grounds for p in g.cards) for seat in range(seats)]
    offset = (view.to_act[0] - view.first_player) % seats
    turn = sum(played) + (offset - sum(played)) % seats
    while any(_turns_of(view, turn, seat) < played[seat] for seat in range(seats)):
        turn += seats
    return turn


def _turns_of(view: BigManitouView, turn: int, seat: Seat) -> int:
    seats = len(view.players)
    return turn // seats + ((seat - view.first_player) % seats < turn % seats)


def _thief_paid(view: BigManitouView) -> tuple[Seat, ...]:
    """Victims still owing a tile are the ones to act; the others have paid (or hold nothing)."""
    if view.phase != "leather-thief":
        return ()
    return tuple(victim for victim in view.thief_victims if victim not in view.to_act)


def _evaluating(view: BigManitouView) -> int:
    if view.evaluating is not None:
        return view.evaluating
    return 0 if view.tomahawk_bonus is None else GROUNDS  # not begun, or every ground done


def _fits(world: State, view: BigManitouView) -> bool:
    """Whether the world is at the view's decision, each seat named to act able to act."""
    if stage(world).phase != view.phase:
        return False
    return view.phase not in CARD_PLAYING or all(playable(world, s) for s in view.to_act)

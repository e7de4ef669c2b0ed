"""Each command checked against the rules, and the events it causes (not what follows them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from referee.games.big_manitou.booty import (
    counts_of,
    discard_options,
    holder_after_gain,
    holder_after_loss,
)
from referee.games.big_manitou.commands import (
    ChooseCards,
    Command,
    DiscardTile,
    MoveHunter,
    Pass,
    PlayCard,
    TakeTiles,
)
from referee.games.big_manitou.data import CARD_SET, CYLINDERS, GROUNDS, CardKind, TileKind
from referee.games.big_manitou.events import (
    CardPlayed,
    CardsChosen,
    CardsDrawn,
    CylinderPassed,
    Event,
    HunterMoved,
    Passed,
    TileDiscarded,
    TilesTaken,
)
from referee.games.big_manitou.heroes import is_hero, may_place, turned_down_by
from referee.games.big_manitou.stages import Stage, stage
from referee.games.big_manitou.state import State, available
from referee.kernel.chance import Chance
from referee.kernel.contract import RuleViolation, Seat
from referee.kernel.piles import contains, draw, in_canonical_order, without
from referee.kernel.wording import counted

KIND = "big-manitou"

WAITING_FOR = {
    Stage.CHOOSING: "the choice of cards for the hunt",
    Stage.PLAYING: "a card to be played",
    Stage.EIGHTH_CARD: "the Totem holder's eighth card or a pass",
    Stage.HORSE_MOVE: "the Horse holder's move or a pass",
    Stage.PENALTY: "a tile for the Leather Thief",
    Stage.PICKING: "booty tiles to be taken",
}


def refuse(rule: str, message: str) -> NoReturn:
    raise RuleViolation(f"{KIND}.{rule}", message)


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    """The events of an accepted command; a refusal raises RuleViolation. No command draws: the
    referee's steps that follow (a deal, the evaluation) are `flow.next_step`'s."""
    current = stage(state)
    match current, command:
        case Stage.CHOOSING, ChooseCards():
            return choose(state, seat, command.cards)
        case Stage.PLAYING | Stage.EIGHTH_CARD, PlayCard():
            return play(state, seat, command, eighth=current is Stage.EIGHTH_CARD)
        case Stage.EIGHTH_CARD, Pass():
            return [Passed(seat=seat, cylinder="totem")]
        case Stage.HORSE_MOVE, Pass():
            return [Passed(seat=seat, cylinder="horse")]
        case Stage.HORSE_MOVE, MoveHunter():
            return move_hunter(state, seat, command)
        case Stage.PENALTY, DiscardTile():
            return discard(state, seat, command.tile)
        case Stage.PICKING, TakeTiles():
            return take(state, seat, command.tiles)
    refuse("not-now", f"The game is waiting for {WAITING_FOR.get(current, 'nothing')}.")


def choose(state: State, seat: Seat, cards: Sequence[CardKind]) -> list[Event]:
    wanted = state.cards_to_choose[seat]
    if len(cards) != wanted:
        refuse(
            "card-count",
            f"Choose exactly {counted(wanted, 'card')} for this hunt, not {len(cards)}.",
        )
    if not contains(CARD_SET, cards):
        refuse("not-in-set", "Those cards are not all in your set of cards.")
    if not contains(available(state, seat), cards):
        refuse(
            "card-unavailable",
            "Cards played in the previous hunt may not be chosen again until the next one.",
        )
    return [CardsChosen(seat=seat, cards=in_canonical_order(cards, CARD_SET))]


def check_ground(ground: int) -> None:
    if not 0 <= ground < GROUNDS:
        refuse("no-such-ground", f"There are three hunting grounds, 0 to {GROUNDS - 1}.")


def play(state: State, seat: Seat, command: PlayCard, *, eighth: bool) -> list[Event]:
    player = state.players[seat]
    if command.card not in player.hand:
        refuse("not-in-hand", f"You hold no {command.card} in your hand.")
    check_ground(command.ground)
    ground = state.grounds[command.ground]
    if not may_place(ground, seat, command.card):
        refuse("two-heroes", "You already have two face-up Heroes in that hunting ground.")
    events: list[Event] = [
        CardPlayed(
            seat=seat,
            card=command.card,
            ground=command.ground,
            turned_down=turned_down_by(ground, seat, command.card),
            eighth_card=eighth,
        )
    ]
    drawn, _ = draw(player.pile or (), 1)
    if drawn and not eighth:
        events.append(CardsDrawn(seat=seat, count=len(drawn), cards=drawn))
    return events


def move_hunter(state: State, seat: Seat, command: MoveHunter) -> list[Event]:
    check_ground(command.ground)
    where = [
        index
        for index, ground in enumerate(state.grounds)
        for placed in ground.cards
        if placed.owner == seat and placed.card == command.card
    ]
    if is_hero(command.card) or not where:
        refuse("hunter-not-placed", f"You have no {command.card} in a hunting ground.")
    if where[0] == command.ground:
        refuse("same-ground", "Move the Hunter to a different hunting ground.")
    return [
        HunterMoved(seat=seat, card=command.card, from_ground=where[0], to_ground=command.ground)
    ]


def discard(state: State, seat: Seat, tile: TileKind) -> list[Event]:
    options = discard_options(state.players[seat].tiles)
    if tile not in options:
        refuse(
            "discard-herd-first",
            f"Give the Leather Thief one of: {', '.join(options)}.",
        )
    hoards = [player.tiles for player in state.players]
    hoards[seat] = without(hoards[seat], [tile])
    events: list[Event] = [TileDiscarded(seat=seat, tile=tile)]
    for cylinder in CYLINDERS:
        if tile == cylinder:
            holder = holder_of(state, cylinder)
            new = holder_after_loss(holder, counts_of(cylinder, hoards))
            if new != holder:
                events.append(CylinderPassed(cylinder=cylinder, seat=new))
    return events


def take(state: State, seat: Seat, tiles: Sequence[TileKind]) -> list[Event]:
    assert state.picks  # the PICKING stage has a pick to make
    pick = state.picks[0]
    ground = state.grounds[state.evaluating]
    if len(tiles) != pick.count:
        refuse("tile-count", f"Take exactly {pick.count} tile(s) from this hunting ground.")
    if not contains(ground.tiles, tiles):
        refuse("tile-not-there", "Those tiles are not all in the hunting ground.")
    return taken_events(state, seat, state.evaluating, tuple(tiles))


def taken_events(state: State, seat: Seat, ground: int, tiles: tuple[TileKind, ...]) -> list[Event]:
    """The tiles taken, and a cylinder passed to whoever draws level on Totems or Horses."""
    events: list[Event] = [TilesTaken(seat=seat, ground=ground, tiles=tiles)]
    hoards = [player.tiles for player in state.players]
    hoards[seat] = (*hoards[seat], *tiles)
    for cylinder in CYLINDERS:
        if cylinder in tiles:
            holder = holder_of(state, cylinder)
            new = holder_after_gain(holder, counts_of(cylinder, hoards), seat)
            if new != holder:
                events.append(CylinderPassed(cylinder=cylinder, seat=new))
    return events


def holder_of(state: State, cylinder: str) -> int | None:
    return state.totem_holder if cylinder == "totem" else state.horse_holder

"""Shared test helpers: games opened through the kernel's Table, positions built from events.

A position is a stream of recorded-looking events (a chosen bag order, a hunt, chosen piles)
replayed through `Table.replay`, then adjusted where a test needs an earlier hunt's result
(tiles held, cylinders): so the tests drive the game exactly as the API does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import ChooseCards, Command, PlayCard
from referee.games.big_manitou.data import (
    CARD_SET,
    HAND_SIZE,
    HUNTERS,
    TILE_BAG,
    TILES_PER_GROUND,
    CardKind,
    TileKind,
)
from referee.games.big_manitou.events import (
    BagFilled,
    CardsChosen,
    CardsDrawn,
    Event,
    HuntBegan,
    PileShuffled,
)
from referee.games.big_manitou.flow import cards_to_choose
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.stages import Stage, stage
from referee.games.big_manitou.state import Placed, State, available
from referee.kernel import Seat, Table
from referee.kernel.piles import in_canonical_order, without
from tests.unit import positions

SEED = b"big-manitou-test-seed"
GAME_ID = "big-manitou-test"


def new_table(seats: int, options: Options | None = None, seed: bytes = SEED) -> Table:
    table, _ = Table.open(GAME, options or Options(), seats, game_id=GAME_ID, seed=seed)
    return table


def act(table: Table, seat: Seat, command: Command) -> list[Any]:
    """Play a command as the API does; the events it caused."""
    played = table.play(seat, command, table.chance_for(SEED, GAME_ID))
    return [item.event for item in played]


def table_from(options: Options, seats: int, events: Sequence[msgspec.Struct]) -> Table:
    return positions.table_from(GAME, options, seats, events, SEED)


def hunt_position(
    seats: int,
    piles: Mapping[Seat, Sequence[CardKind]],
    *,
    dealer: Seat | None = None,
    hunt: int = 1,
    grounds: Sequence[Sequence[TileKind]] | None = None,
    options: Options | None = None,
) -> Table:
    """A hunt whose play is about to begin: each seat's pile in the given order (top first).

    Seats not in `piles` get their first cards in canonical order. The dealer defaults to the
    last seat, so seat 0 plays first. `grounds` defaults to the front of the canonical bag.
    """
    dealer = seats - 1 if dealer is None else dealer
    sizes = tuple(cards_to_choose(seat, dealer, seats) for seat in range(seats))
    if grounds is None:
        bag = list(TILE_BAG)
        grounds = []
        for count in TILES_PER_GROUND[seats]:
            grounds.append(tuple(bag[:count]))
            del bag[:count]
    drawn = [tile for ground in grounds for tile in ground]
    bag_order = (*drawn, *without(TILE_BAG, drawn))
    events: list[Event] = [
        BagFilled(order=bag_order),
        HuntBegan(
            hunt=hunt,
            dealer=dealer,
            first_player=(dealer + 1) % seats,
            grounds=tuple(tuple(g) for g in grounds),
            cards_to_choose=sizes,
        ),
    ]
    orders = {seat: tuple(piles.get(seat, ())) for seat in range(seats)}
    for seat in range(seats):
        order = orders[seat] or default_pile(sizes[seat])
        assert len(order) == sizes[seat], f"seat {seat} needs {sizes[seat]} cards"
        orders[seat] = order
        events.append(CardsChosen(seat=seat, cards=in_canonical_order(order, CARD_SET)))
    for seat in range(seats):
        events.append(PileShuffled(seat=seat, order=orders[seat]))
        events.append(CardsDrawn(seat=seat, count=HAND_SIZE, cards=orders[seat][:HAND_SIZE]))
    return table_from(options or Options(), seats, events)


def default_pile(size: int) -> tuple[CardKind, ...]:
    return HUNTERS[:size]


def state_of(table: Table) -> State:
    """The table's state, as this game's State."""
    assert isinstance(table.state, State)
    return table.state


def adjust(table: Table, **changes: Any) -> None:
    """Change the table's state in place of the earlier hunts a test does not play out."""
    table.state = msgspec.structs.replace(table.state, **changes)


def hold_tiles(table: Table, holdings: Mapping[Seat, Sequence[TileKind]]) -> None:
    state = state_of(table)
    players = tuple(
        msgspec.structs.replace(player, tiles=tuple(holdings.get(seat, player.tiles)))
        for seat, player in enumerate(state.players)
    )
    adjust(table, players=players)


def cards_in(table: Table, ground: int) -> list[tuple[Seat, CardKind, bool]]:
    state = state_of(table)
    return [(p.owner, p.card, p.face_up) for p in state.grounds[ground].cards]


def placed(owner: Seat, card: CardKind, face_up: bool = True) -> Placed:
    return Placed(owner=owner, card=card, face_up=face_up)


def random_command(state: State, seat: Seat, rng: random.Random) -> Command:
    """A random legal command; a card choice is sampled rather than listed (thousands)."""
    if stage(state) is Stage.CHOOSING:
        cards = rng.sample(list(available(state, seat)), state.cards_to_choose[seat])
        return ChooseCards(cards=tuple(cards))
    commands = GAME.legal_commands(state, seat)
    return rng.choice(list(commands))


def play_randomly_until(
    table: Table, done: Any, rng: random.Random, limit: int = 2_000
) -> list[Any]:
    """Random legal commands (lowest seat to act first) until `done(state)` holds; the events."""
    events: list[Any] = []
    for _ in range(limit):
        if done(state_of(table)):
            return events
        seat = min(table.to_act())
        events += act(table, seat, random_command(state_of(table), seat, rng))
    raise AssertionError("the condition never came")


def two_player_hunt(first: Sequence[CardKind], second: Sequence[CardKind], **kwargs: Any) -> Table:
    """Seat 0 (first player, 8 cards) and seat 1 (dealer, 7): the given cards on top of their
    piles, then Hunters they did not name, from the highest down."""

    def pile(top: Sequence[CardKind], size: int) -> tuple[CardKind, ...]:
        filler = [h for h in reversed(HUNTERS) if h not in top]
        return (*top, *filler)[:size]

    return hunt_position(2, {0: pile(first, 8), 1: pile(second, 7)}, **kwargs)


def plays(table: Table, *moves: tuple[Seat, CardKind, int]) -> list[Any]:
    """Several cards played, each by its seat, which must be the seat to act."""
    events: list[Any] = []
    for seat, card, ground in moves:
        assert table.to_act() == {seat}, f"{seat} is not to act: {table.to_act()}"
        events += act(table, seat, PlayCard(card=card, ground=ground))
    return events


def play_out(table: Table, moves: Mapping[Seat, Sequence[tuple[CardKind, int]]]) -> list[Any]:
    """The seven rounds of play, each seat playing its (card, ground) moves in turn."""
    queues = {seat: list(seat_moves) for seat, seat_moves in moves.items()}
    events: list[Any] = []
    while stage(state_of(table)) is Stage.PLAYING:
        [seat] = table.to_act()
        card, ground = queues[seat].pop(0)
        events += act(table, seat, PlayCard(card=card, ground=ground))
    return events


def pile_of(moves: Sequence[tuple[CardKind, int]], size: int) -> tuple[CardKind, ...]:
    """A pile that puts the moves' cards in the hand in time, topped up with unused Hunters."""
    cards = [card for card, _ in moves]
    filler = [h for h in HUNTERS if h not in cards]
    return (*cards, *filler)[:size]


def scripted_hunt(
    seats: int,
    moves: Mapping[Seat, Sequence[tuple[CardKind, int]]],
    *,
    grounds: Sequence[Sequence[TileKind]] | None = None,
    hunt: int = 1,
    holdings: Mapping[Seat, Sequence[TileKind]] | None = None,
    totem: Seat | None = None,
    horse: Seat | None = None,
) -> tuple[Table, list[Any]]:
    """A hunt (the last seat deals) whose seven rounds are played as `moves` say; earlier hunts'
    results given as the tiles held and the cylinders. Returns the table and the play's events."""
    dealer = seats - 1
    sizes = [cards_to_choose(seat, dealer, seats) for seat in range(seats)]
    piles = {seat: pile_of(moves[seat], sizes[seat]) for seat in range(seats)}
    table = hunt_position(seats, piles, grounds=grounds, hunt=hunt)
    hold_tiles(table, holdings or {})
    adjust(table, totem_holder=totem, horse_holder=horse)
    return table, play_out(table, moves)


def seven(*moves: tuple[CardKind, int]) -> list[tuple[CardKind, int]]:
    """Moves for one seat padded to seven with low Hunters into ground 2 (not already used)."""
    used = {card for card, _ in moves}
    filler = [(h, 2) for h in HUNTERS if h not in used]
    return [*moves, *filler][:7]

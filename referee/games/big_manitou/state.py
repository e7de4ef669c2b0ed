"""The state of a game: frozen Structs of tuples, replaced, never mutated."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.games.big_manitou.data import CARD_SET, GROUNDS, HUNTS, CardKind, TileKind
from referee.games.big_manitou.events import Pick
from referee.games.big_manitou.options import Options
from referee.kernel.contract import Seat
from referee.kernel.piles import without
from referee.kernel.simultaneous import Choices, no_choices


class Placed(msgspec.Struct, frozen=True, kw_only=True):
    owner: int
    card: CardKind
    face_up: bool = True


class Ground(msgspec.Struct, frozen=True, kw_only=True):
    tiles: tuple[TileKind, ...] = ()
    cards: tuple[Placed, ...] = ()  # in the order they were placed


class Player(msgspec.Struct, frozen=True, kw_only=True):
    unavailable: tuple[CardKind, ...] = ()  # played in the previous hunt, back after this one
    pile: tuple[CardKind, ...] | None = None  # face down, top first; None until shuffled
    hand: tuple[CardKind, ...] = ()
    tiles: tuple[TileKind, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    options: Options
    players: tuple[Player, ...]
    bag: tuple[TileKind, ...] = ()  # drawn from the front
    removed: tuple[TileKind, ...] = ()  # tiles out of the game (the thief's, the left-over)
    totem_holder: int | None = None
    horse_holder: int | None = None
    finished: bool = False
    # The hunt in progress (hunt 0: none yet).
    hunt: int = 0
    in_hunt: bool = False
    dealer: int = 0
    cards_to_choose: tuple[int, ...] = ()
    chosen: Choices[tuple[CardKind, ...]] = ()
    grounds: tuple[Ground, ...] = (Ground(),) * GROUNDS
    turn: int = 0  # turns taken in the seven rounds of play
    totem_resolved: bool = False
    horse_resolved: bool = False
    strengths: tuple[int, ...] | None = None  # set when the Leather Thief strikes
    thief_victims: tuple[int, ...] = ()
    thief_paid: tuple[int, ...] = ()
    tomahawk_bonus: tuple[int, ...] | None = None  # set when the evaluation begins
    evaluating: int = 0  # the ground being evaluated
    picks: tuple[Pick, ...] | None = None  # the picks still to make in that ground

    @property
    def hunts(self) -> int:
        return HUNTS[self.seats]

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % self.seats

    @property
    def current(self) -> int:
        """The seat whose turn it is in the rounds of play."""
        return (self.first_player + self.turn) % self.seats


def initial_state(options: Options, seats: int) -> State:
    return State(
        seats=seats,
        options=options,
        players=(Player(),) * seats,
        chosen=no_choices(seats),
    )


def available(state: State, seat: Seat) -> tuple[CardKind, ...]:
    """The cards `seat` may choose from this hunt, in canonical order."""
    return without(CARD_SET, state.players[seat].unavailable)


def with_player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = msgspec.structs.replace(players[seat], **changes)
    return msgspec.structs.replace(state, players=tuple(players))


def with_ground(state: State, index: int, **changes: Any) -> State:
    grounds = list(state.grounds)
    grounds[index] = msgspec.structs.replace(grounds[index], **changes)
    return msgspec.structs.replace(state, grounds=tuple(grounds))

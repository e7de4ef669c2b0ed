"""Every command the rules would accept from a seat now.

While the seats choose their cards a seat has thousands of choices (13,156 ways to choose nine
of seventeen cards): `Choices` computes them on demand, so that a page of them, their number or
one by index costs what it reads.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.games.big_manitou.booty import discard_options, take_options
from referee.games.big_manitou.commands import (
    ChooseCards,
    Command,
    DiscardTile,
    MoveHunter,
    Pass,
    PlayCard,
    TakeTiles,
)
from referee.games.big_manitou.data import GROUNDS, CardKind
from referee.games.big_manitou.heroes import is_hunter
from referee.games.big_manitou.stages import Stage, playable, stage, to_act
from referee.games.big_manitou.state import State, available
from referee.kernel.contract import Seat
from referee.kernel.lazy import LazySequence
from referee.kernel.piles import DistinctSelections, distinct_selections


def legal_commands(state: State, seat: Seat) -> Sequence[Command]:
    if seat not in to_act(state):
        return []
    current = stage(state)
    if current is Stage.CHOOSING:
        return choices(state, seat)
    if current is Stage.PLAYING:
        return plays(state, seat)
    if current is Stage.EIGHTH_CARD:
        return [Pass(), *plays(state, seat)]
    if current is Stage.HORSE_MOVE:
        return [Pass(), *hunter_moves(state, seat)]
    if current is Stage.PENALTY:
        return [DiscardTile(tile=tile) for tile in discard_options(state.players[seat].tiles)]
    if current is Stage.PICKING and state.picks:
        tiles = state.grounds[state.evaluating].tiles
        return [TakeTiles(tiles=option) for option in take_options(tiles, state.picks[0].count)]
    return []


def choices(state: State, seat: Seat) -> Choices:
    """Every different set of cards (thousands: two Chiefs are one choice, not two)."""
    return Choices(distinct_selections(available(state, seat), state.cards_to_choose[seat]))


class Choices(LazySequence[Command]):
    """A ChooseCards for each of the selections, made when asked for."""

    __slots__ = ("_selections",)

    def __init__(self, selections: DistinctSelections[CardKind]) -> None:
        self._selections = selections

    def __len__(self) -> int:
        return len(self._selections)

    def _item(self, index: int) -> Command:
        return ChooseCards(cards=self._selections[index])

    def __iter__(self) -> Iterator[Command]:
        return (ChooseCards(cards=cards) for cards in self._selections)

    def __contains__(self, command: object) -> bool:
        return isinstance(command, ChooseCards) and command.cards in self._selections


def plays(state: State, seat: Seat) -> list[Command]:
    hand = state.players[seat].hand
    return [PlayCard(card=hand[index], ground=ground) for index, ground in playable(state, seat)]


def hunter_moves(state: State, seat: Seat) -> list[Command]:
    return [
        MoveHunter(card=placed.card, ground=target)
        for index, ground in enumerate(state.grounds)
        for placed in ground.cards
        if placed.owner == seat and is_hunter(placed.card)
        for target in range(GROUNDS)
        if target != index
    ]

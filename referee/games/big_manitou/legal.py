"""Every command the rules would accept from a seat now."""

from __future__ import annotations

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
from referee.games.big_manitou.data import GROUNDS
from referee.games.big_manitou.heroes import is_hunter
from referee.games.big_manitou.stages import Stage, playable, stage, to_act
from referee.games.big_manitou.state import State, available
from referee.kernel.contract import Seat
from referee.kernel.piles import distinct_selections


def legal_commands(state: State, seat: Seat) -> list[Command]:
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


def choices(state: State, seat: Seat) -> list[Command]:
    """Every different set of cards (thousands: two Chiefs are one choice, not two)."""
    count = state.cards_to_choose[seat]
    return [
        ChooseCards(cards=cards) for cards in distinct_selections(available(state, seat), count)
    ]


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

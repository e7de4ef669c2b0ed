"""No seat is ever left without a move (TR-13 and the kernel's contract, `Game.to_act`), from
positions built for the rules' corners: the piles run dry, the discard pile's top may not be
taken, only an active card is left to use, an attack with nothing to answer it, a blocked
player, the last challenge. From each, random legal play goes on to the end of the game with the
contract checked at every step (tests/unit/corners.py)."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from referee.games.tribu.commands import Attack, DrawThree
from referee.games.tribu.events import ChallengeScored, TribuGameEnded
from referee.games.tribu.stages import Stage, stage
from referee.kernel import Table
from tests.unit.corners import check_who_may_act, play_on_several

from .support import (
    GAME_ID,
    SEED,
    act,
    chain,
    legal,
    position,
    settle,
    stalled_position,
    state_of,
)

DRY = {"draw_pile": [], "rest_to": "played"}  # the draw pile empty, the rest out of the way


def plays_on(make: Callable[[], Table], games: int = 2) -> None:
    check_who_may_act(make())
    assert all(commands >= 0 for commands in play_on_several(make, SEED, GAME_ID, games))


def under(table: Table, discarded: int = 0) -> Table:
    """The discard pile's cards below the top `discarded` were put under it (TR-R13)."""
    table.state = msgspec.structs.replace(state_of(table), discarded=discarded)
    return table


def put_under(table: Table, discarded: int = 0) -> Table:
    """`under`, then the referee's own steps due in the position, as they would have followed
    the command that made it."""
    settle(under(table, discarded), dealing=True)
    return table


def test_the_stalled_seat_ends_the_challenge_and_play_goes_on() -> None:
    for seats in (2, 3, 4):
        plays_on(lambda seats=seats: stalled_position(seats)[0])  # type: ignore[misc]


def test_a_dry_draw_pile_and_one_discarded_diorama_leave_the_discard_pile() -> None:
    make = lambda: position(discard=["horse-blue"], **DRY)  # type: ignore[arg-type]  # noqa: E731
    assert [c.source for c in legal(make(), 0)] == ["discard-pile"]  # type: ignore[union-attr]
    plays_on(make)


def test_a_dry_draw_pile_is_rebuilt_from_two_cards() -> None:
    plays_on(lambda: put_under(position(discard=["wolf", "statue-blue"], **DRY)))  # type: ignore[arg-type]


def test_nothing_to_draw_and_nothing_usable_ends_the_challenge_at_once() -> None:
    """Every pile dry, a lone card under the discard pile, an active Protezione (no use at the
    start of a turn), and an Evento with no chain to attack: no decision, TR-13."""
    chains = {
        0: [chain("shaman", active="feathers-of-courage")],  # lone: it cannot be attacked
        1: [chain("warrior", active="wolf")],
    }
    table = under(position(chains=chains, discard=["statue-blue"], current=1, **DRY))  # type: ignore[arg-type]
    assert stage(state_of(table)) is Stage.NO_MOVE and table.to_act() == frozenset()
    scored = settle(table, dealing=True)[0]
    assert isinstance(scored, ChallengeScored) and scored.reason == "no-move"
    plays_on(
        lambda: put_under(position(chains=chains, discard=["statue-blue"], current=1, **DRY))  # type: ignore[arg-type]
    )


def test_only_an_active_card_is_left_to_use() -> None:
    """Nothing to draw, but an active Diorama fits a chain ([G]), or an active Wolf has a chain
    to attack: the turn begins with that decision and no other."""
    fits = {0: [chain("shaman", "statue-red", active="horse-red")]}
    table = put_under(position(chains=fits, discard=["statue-blue"], **DRY))  # type: ignore[arg-type]
    assert stage(state_of(table)) is Stage.START_OF_TURN
    assert len(legal(table, 0)) == 1
    wolf = {0: [chain("shaman", active="wolf")], 1: [chain("warrior", "horse-red")]}
    table = put_under(position(chains=wolf, discard=["statue-blue"], **DRY))  # type: ignore[arg-type]
    assert legal(table, 0) == [Attack(active="shaman", seat=1, chain="warrior")]
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    check_who_may_act(table)  # the defender may always pass
    plays_on(lambda: put_under(position(chains=wolf, discard=["statue-blue"], **DRY)))  # type: ignore[arg-type]


def test_take_three_with_nothing_to_take() -> None:
    """TR-10: Take 3 with no card available draws none and discards none."""
    make = lambda: put_under(  # noqa: E731
        position(
            hands={0: ["draw-three", "wolf", "bison", "steal", "block"]},
            discard=["horse-blue"],
            **DRY,
        ),  # type: ignore[arg-type]
        discarded=1,
    )
    table = make()
    act(table, 0, legal(table, 0)[0])  # the discarded Horse: the only card to take
    act(table, 0, DrawThree())
    check_who_may_act(table)
    plays_on(make)


def test_a_blocked_player_with_nothing_to_do_is_skipped_then_the_next_has_no_move() -> None:
    table = under(position(seats=3, blocked=[1], discard=["statue-blue"], **DRY))  # type: ignore[arg-type]
    assert stage(state_of(table)) is Stage.NO_MOVE  # seat 0: nothing to draw, no active card
    plays_on(lambda: put_under(position(seats=3, blocked=[1], discard=["statue-blue"], **DRY)))  # type: ignore[arg-type]


def test_no_move_in_the_tenth_challenge_ends_the_game() -> None:
    table = position(challenge=10, discard=["statue-blue"], **DRY)  # type: ignore[arg-type]
    table.state = msgspec.structs.replace(state_of(table), discarded=0)
    ended = settle(table, dealing=True)
    assert isinstance(ended[0], ChallengeScored) and ended[0].reason == "no-move"
    assert isinstance(ended[-1], TribuGameEnded) and ended[-1].reason == "ten-challenges"
    assert table.outcome().finished and table.to_act() == frozenset()

"""`evolve` folds only what could have happened: a stream from an untrusted bundle that carries
an impossible event is refused (ValueError), never folded into a state no game can reach."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.games.tribu import GAME
from referee.games.tribu.events import (
    AttackMade,
    CardDiscarded,
    CardDrawn,
    ChainEliminated,
    ChallengeScored,
    DrawPileRebuilt,
    DrawThreePlayed,
    LeaderRevealed,
    ThreeDiscarded,
    TurnStarted,
)
from referee.games.tribu.options import Options
from referee.kernel import Played, Table

from .support import chain, position, state_of

HAND = ["draw-three", "wolf", "bison", "block", "steal"]


def fold(table: Table, *events: Any) -> Table:
    """The table's state with `events` folded, as a replay of a bundle would."""
    state = table.state
    for event in events:
        state = GAME.evolve(state, event)  # type: ignore[arg-type]
    table.state = state
    return table


def test_take_three_draws_three_from_the_draw_pile_and_no_more() -> None:
    table = position(hands={0: HAND}, draw_top=["drum-red", "flag-blue", "canoe-red", "totem"])
    table = fold(table, CardDrawn(seat=0, source="draw-pile", card="drum-red"))
    table = fold(table, DrawThreePlayed(seat=0))
    drawn = [CardDrawn(seat=0, source="draw-pile", card=c) for c in ("flag-blue", "canoe-red")]
    with pytest.raises(ValueError):  # discarding before the third card is drawn
        fold(table, *drawn, ThreeDiscarded(seat=0, cards=("wolf", "bison")))
    table = position(
        hands={0: HAND}, draw_top=["drum-red", "flag-blue", "canoe-red", "totem", "bow-red"]
    )
    table = fold(
        table, CardDrawn(seat=0, source="draw-pile", card="drum-red"), DrawThreePlayed(seat=0)
    )
    three = [
        CardDrawn(seat=0, source="draw-pile", card=c) for c in ("flag-blue", "canoe-red", "totem")
    ]
    with pytest.raises(ValueError):  # a fourth card
        fold(table, *three, CardDrawn(seat=0, source="draw-pile", card="bow-red"))


def test_take_three_never_takes_from_the_discard_pile() -> None:
    table = position(hands={0: HAND}, discard=["horse-red"])
    table = fold(table, CardDrawn(seat=0, source="draw-pile", card=state_of(table).draw_pile[0]))
    table = fold(table, DrawThreePlayed(seat=0))
    with pytest.raises(ValueError):
        fold(table, CardDrawn(seat=0, source="discard-pile", card="horse-red"))


def test_a_rebuild_needs_a_discard_pile_and_is_followed_by_a_draw() -> None:
    empty = position(hands={0: HAND}, draw_pile=[], discard=["drum-red"], rest_to="played")
    with pytest.raises(ValueError):  # nothing to rebuild with: a counted rebuild of nothing
        fold(empty, DrawPileRebuilt(rebuild=1, order=(), size=0))
    table = position(hands={0: HAND}, draw_pile=[], discard=["drum-red", "wolf", "bison"])
    order = tuple(state_of(table).discard[1:])
    with pytest.raises(ValueError):  # a size that is not the order's
        fold(table, DrawPileRebuilt(rebuild=1, order=order, size=77))
    rebuilt = DrawPileRebuilt(rebuild=1, order=order, size=len(order))
    with pytest.raises(ValueError):  # a rebuild, then no draw
        fold(
            table,
            rebuilt,
            AttackMade(seat=0, active="shaman", card="wolf", target=1, chain="hunter"),
        )
    fold(table, rebuilt, CardDrawn(seat=0, source="draw-pile", card=order[0]))


def test_the_referees_steps_are_exactly_what_the_rules_make() -> None:
    lone = {0: [chain("warrior")]}
    ended = position(hands={0: HAND}, chains=lone, leaders=["shaman", "hunter"])
    ended = fold(ended, CardDrawn(seat=0, source="draw-pile", card=state_of(ended).draw_pile[0]))
    ended = fold(ended, CardDiscarded(seat=0, card="wolf"))
    for skipped in (
        TurnStarted(seat=1, turn=3),  # the lone warrior is not eliminated first
        LeaderRevealed(seat=0, leader="warrior"),  # not the leader
        ChallengeScored(challenge=1, reason="no-diorama", closer=None, players=()),
    ):
        with pytest.raises(ValueError):
            fold(ended, skipped)
    fold(ended, ChainEliminated(seat=0, chain="warrior", active=None, had_active=False))


def test_a_deal_with_a_forged_draw_pile_size_is_refused() -> None:
    _, played = Table.open(GAME, Options(), 2, game_id="forged", seed=b"forged-seed-0123")
    dealt = next(
        i for i, item in enumerate(played) if type(item.event).__name__ == "ChallengeDealt"
    )
    forged = msgspec.structs.replace(played[dealt].event, draw_pile_size=-7)
    with pytest.raises(ValueError):
        Table.replay(GAME, [*played[:dealt], Played(forged, played[dealt].chance_cursor)])
    assert Table.replay(GAME, played).state is not None

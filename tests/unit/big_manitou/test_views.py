"""What each seat and a spectator see: hidden cards, the bag, face-down Heroes, the end."""

from __future__ import annotations

import random
from typing import get_args

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.data import TILE_BAG
from referee.games.big_manitou.events import BagFilled
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.stages import Phase, Stage
from referee.kernel import Table

from .support import (
    GAME_ID,
    SEED,
    new_table,
    play_randomly_until,
    plays,
    random_command,
    scripted_hunt,
    seven,
    state_of,
    two_player_hunt,
)


def test_nobody_sees_the_bag_until_the_game_is_over() -> None:
    _, played = Table.open(GAME, Options(), 3, game_id=GAME_ID, seed=SEED)
    bag = played[1].event
    assert isinstance(bag, BagFilled) and sorted(bag.order or ()) == sorted(TILE_BAG)
    state = state_of(Table.replay(GAME, played))
    for viewer in (0, 1, 2, None):
        assert GAME.redact(bag, viewer) == BagFilled(order=None)
        view = GAME.view(state, viewer)
        assert view.bag is None and view.bag_size == 60 - 11


def test_a_spectator_sees_how_many_cards_but_not_which() -> None:
    table = two_player_hunt(["chief"], ["squaw"])
    view = GAME.view(state_of(table), None)
    assert view.viewer is None and view.to_act == (0,)
    assert [(p.hand, p.pile, p.chosen) for p in view.players] == [(None, None, None)] * 2
    assert [(p.hand_size, p.pile_size) for p in view.players] == [(3, 5), (3, 4)]
    assert all(p.has_chosen and p.cards_to_choose in (7, 8) for p in view.players)


def test_a_face_down_hero_shows_face_down_and_stays_known() -> None:
    # BM-R8: every player saw it played face up; the public log names it.
    table = two_player_hunt(["chief"], ["squaw"])
    plays(table, (0, "chief", 0), (1, "squaw", 0))
    for viewer in (0, 1, None):
        cards = GAME.view(state_of(table), viewer).grounds[0].cards
        assert [(c.owner, c.card, c.face_up) for c in cards] == [
            (0, "chief", False),
            (1, "squaw", True),
        ]


def test_the_view_shows_the_picks_to_make() -> None:
    table, _ = scripted_hunt(
        2,
        {0: seven(("hunter-10", 0)), 1: seven(("chief", 0))},
        grounds=[("totem", "horse", "tepee-3", "buffalo-2"), (), ()],
    )
    view = GAME.view(state_of(table), 0)
    assert (view.phase, view.to_act, view.evaluating) == ("picking", (1,), 0)
    assert [(p.seat, p.count, p.by) for p in view.picks] == [(1, 1, "hero"), (0, 2, "best-hunters")]
    assert view.strengths == (10 + 1 + 2 + 3 + 4 + 5 + 6, 1 + 2 + 3 + 4 + 5 + 6)
    assert view.thief_victims == (0,)


def test_everything_is_public_once_the_game_is_over() -> None:
    table = new_table(2, Options(random_cards=True))
    play_randomly_until(table, lambda s: s.finished, random.Random(3))
    state = state_of(table)
    view = GAME.view(state, None)
    assert view.finished and view.phase == "over" and view.to_act == ()
    assert view.bag == state.bag and len(state.bag) == 60 - 4 * 10
    assert view.scores == GAME.outcome(state).scores


def test_every_stage_has_its_phase_name() -> None:
    assert [stage.phase for stage in Stage] == list(get_args(Phase))


@pytest.mark.parametrize("seats", [2, 5])
def test_the_state_after_every_single_event_has_a_view(seats: int) -> None:
    # The API shows the view "as it was after event seq", between the events of one command.
    table, played = Table.open(GAME, Options(), seats, game_id=GAME_ID, seed=SEED)
    rng = random.Random(seats)
    while not table.outcome().finished:
        seat = min(table.to_act())
        played += table.play(
            seat, random_command(state_of(table), seat, rng), table.chance_for(SEED, GAME_ID)
        )
    state = GAME.initial_state(Options(), seats)
    phases = set()
    for item in played[1:]:
        state = GAME.evolve(state, item.event)  # type: ignore[arg-type]
        for viewer in (*range(seats), None):
            phases.add(GAME.view(state, viewer).phase)
    assert {"dealing", "ground-evaluation", "hunt-ending", "over"} <= phases

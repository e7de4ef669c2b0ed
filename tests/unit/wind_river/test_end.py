"""Section 6 and WR-6, WR-10: the game ends at the end of the turn that leaves no teepee on the
board; the most teepees in the open plains wins, then the most resources left (WR-R6)."""

from __future__ import annotations

from referee.games.wind_river import GAME
from referee.games.wind_river.commands import EarnResources, MoveBuffalo, MoveTeepee
from referee.games.wind_river.events import TeepeesSupplied, TurnBegan, WindRiverGameEnded
from referee.games.wind_river.scoring import ranking
from referee.games.wind_river.stages import Stage, stage
from referee.kernel import Outcome

from .support import act, at, at_turn_of, position, state_of


def test_the_game_ends_when_the_last_teepee_enters_the_open_plains() -> None:
    state = position(
        teepees={at(3, 8): {0: 1}},
        buffalo={at(3, 8): 1, at(6, 1): 2},
        plains=(2, 3, 0, 1),
        resources=(4, 2, 5, 0),
    )
    table = at_turn_of(0, state)
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    events = act(table, 0, MoveTeepee(from_=at(3, 8), to="open-plains"))
    assert events[-1] == WindRiverGameEnded(
        plains=(3, 3, 0, 1), resources=(4, 2, 5, 0), ranking=((0,), (1,), (3,), (2,))
    )
    assert GAME.outcome(state_of(table)) == Outcome(
        finished=True, winners=(0,), ranking=((0,), (1,), (3,), (2,)), scores=(3, 3, 0, 1)
    )
    assert table.to_act() == frozenset() and stage(state_of(table)) is Stage.OVER


def test_a_turn_that_empties_the_board_in_the_supply_still_has_its_extra_activity() -> None:
    # WR-10: the last teepee goes back for want of a resource; the turn is completed first.
    state = position(teepees={at(3, 5): {0: 1}}, buffalo={at(6, 1): 2}, resources=(0, 1, 1, 1))
    table = at_turn_of(0, state)
    events = act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    assert TeepeesSupplied(seat=0, unfed=1, paid=0, sent_back=(at(3, 5),)) in events
    assert state_of(table).board_empty and not state_of(table).finished
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY and table.to_act() == {0}
    events = act(table, 0, EarnResources())
    assert isinstance(events[-1], WindRiverGameEnded)
    assert GAME.outcome(state_of(table)).ranking == ((1, 2, 3), (0,))  # all 0 in the plains


def test_a_player_without_teepees_on_the_board_still_takes_turns() -> None:
    state = position(
        teepees={at(3, 4): {0: 1}, at(4, 4): {2: 1}}, buffalo={at(3, 4): 2, at(4, 4): 2}
    )
    table = at_turn_of(0, state)
    act(table, 0, MoveBuffalo(from_=at(3, 4), to=at(3, 5)))
    events = act(table, 0, EarnResources())
    assert TurnBegan(seat=1, turn=3, buffalo_moves=0) in events
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY and table.to_act() == {1}


def test_ties_on_the_plains_go_to_the_most_resources_then_are_shared() -> None:
    assert ranking((2, 2, 1, 2), (3, 5, 9, 3)) == ((1,), (0, 3), (2,))
    assert ranking((0, 0, 0), (0, 0, 0)) == ((0, 1, 2),)


def test_the_outcome_is_open_while_the_game_runs() -> None:
    table = at_turn_of(0, position(teepees={at(3, 4): {0: 1}}))
    assert GAME.outcome(state_of(table)) == Outcome(finished=False)

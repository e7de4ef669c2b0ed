"""Sections 1-3: the material, the buffalo's starting spaces, the random start player, and the
two placement rounds (WR-1, WR-2, WR-8)."""

from __future__ import annotations

import pytest

from referee.games.wind_river import GAME
from referee.games.wind_river.board import SPACES
from referee.games.wind_river.commands import EarnResources, MoveBuffalo, PlaceTeepee
from referee.games.wind_river.events import StartPlayerDrawn, TeepeePlaced, TurnBegan
from referee.games.wind_river.options import Options
from referee.kernel import Chance, RuleViolation, Table

from .support import GAME_ID, SEED, act, at, legal, new_table, state_of


@pytest.mark.parametrize("seats", [3, 4])
def test_each_player_takes_seven_teepees_and_one_resource(seats: int) -> None:
    state = state_of(new_table(seats))
    assert state.stock == (7,) * seats and state.resources == (1,) * seats
    assert state.plains == (0,) * seats and not any(map(any, state.teepees))


def test_four_players_start_with_two_buffalo_on_each_of_the_first_three_hexes() -> None:
    state = state_of(new_table(4))
    for space in SPACES:
        assert state.buffalo_at(space) == (2 if space.column <= 3 else 0)
    assert state.buffalo_on_board == 36 and state.buffalo_out_of_play == 0


def test_three_players_leave_the_lighter_lane_and_its_six_buffalo_out() -> None:
    state = state_of(new_table(3))
    assert all(state.buffalo_at(space) == 0 for space in SPACES if space.lane == 1)
    assert state.buffalo_on_board == 30 and state.buffalo_out_of_play == 6


def test_wind_river_is_for_three_or_four_players() -> None:
    assert GAME.seat_counts == (3, 4)
    for seats in (2, 5):
        with pytest.raises(RuleViolation) as refused:
            Table.open(GAME, Options(), seats, game_id=GAME_ID, seed=SEED)
        assert refused.value.rule_id == "wind-river.seat-count"


@pytest.mark.parametrize("seats", [3, 4])
def test_the_start_player_is_the_first_draw_of_the_games_chance(seats: int) -> None:
    for game_id in ("a", "b", "c", "d", "e", "f"):
        table, played = Table.open(GAME, Options(), seats, game_id=game_id, seed=SEED)
        expected = Chance.for_game(SEED, game_id).uniform(seats)
        assert played[1].event == StartPlayerDrawn(seat=expected)
        assert table.to_act() == {expected} and len(played) == 2


def test_start_players_vary_with_the_seed() -> None:
    drawn = {
        state_of(new_table(4, seed=bytes([n]) * 16, game_id=f"g{n}")).start_player
        for n in range(40)
    }
    assert drawn == {0, 1, 2, 3}


def test_placement_goes_clockwise_from_the_start_player_twice_in_the_same_order() -> None:
    table = new_table(4)
    start = state_of(table).start_player
    order = [(start + k) % 4 for k in range(4)] * 2
    for number, seat in enumerate(order):
        assert table.to_act() == {seat}
        assert state_of(table).placement_round == number // 4 + 1
        events = act(table, seat, PlaceTeepee(at=SPACES[number * 3]))
        assert events[0] == TeepeePlaced(seat=seat, at=SPACES[number * 3], round=number // 4 + 1)
    # After the second round the start player's turn begins, owing two buffalo moves (WR-3).
    assert events[-1] == TurnBegan(seat=start, turn=1, buffalo_moves=2)
    assert table.to_act() == {start}
    assert all(isinstance(command, MoveBuffalo) for command in legal(table))
    assert state_of(table).stock == (5,) * 4


def test_a_teepee_goes_on_a_vacant_space_buffalo_do_not_block_it() -> None:
    table = new_table(4)
    seat = state_of(table).start_player
    act(table, seat, PlaceTeepee(at=at(3, 2)))  # two buffalo there: still vacant (WR-8)
    following = (seat + 1) % 4
    with pytest.raises(RuleViolation) as refused:
        act(table, following, PlaceTeepee(at=at(3, 2)))
    assert refused.value.rule_id == "wind-river.space-not-vacant"
    assert at(3, 2) not in [command.at for command in legal(table)]  # type: ignore[attr-defined]
    assert len(legal(table)) == 47


def test_the_second_teepee_goes_on_a_different_vacant_space() -> None:
    table = new_table(3)
    start = state_of(table).start_player
    for k in range(3):
        act(table, (start + k) % 3, PlaceTeepee(at=at(2 + k, 5)))
    with pytest.raises(RuleViolation) as refused:
        act(table, start, PlaceTeepee(at=at(2, 5)))  # their own first space: not vacant either
    assert refused.value.rule_id == "wind-river.space-not-vacant"


def test_with_three_players_no_teepee_goes_on_the_lighter_lane() -> None:
    table = new_table(3)
    seat = state_of(table).start_player
    with pytest.raises(RuleViolation) as refused:
        act(table, seat, PlaceTeepee(at=at(1, 5)))
    assert refused.value.rule_id == "wind-river.lane-not-in-play"
    assert len(legal(table)) == 40


def test_nothing_but_placements_during_the_set_up() -> None:
    table = new_table(4)
    seat = state_of(table).start_player
    with pytest.raises(RuleViolation) as refused:
        act(table, seat, EarnResources())
    assert refused.value.rule_id == "wind-river.not-now"

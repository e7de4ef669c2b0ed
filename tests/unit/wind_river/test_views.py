"""Wind River hides nothing: every seat and every spectator sees the same table, and every
event as it was recorded."""

from __future__ import annotations

import msgspec

from referee.games.wind_river import GAME
from referee.games.wind_river.commands import MoveBuffalo, PlaceTeepee
from referee.games.wind_river.views import WindRiverView

from .support import act, at, at_turn_of, new_table, position, state_of


def views_of(table: object) -> list[WindRiverView]:
    state = state_of(table)  # type: ignore[arg-type]
    return [GAME.view(state, viewer) for viewer in [*range(state.seats), None]]


def test_every_seat_and_spectator_sees_the_same_table() -> None:
    table = new_table(3)
    seat = state_of(table).start_player
    events = act(table, seat, PlaceTeepee(at=at(4, 4)))
    seen = views_of(table)
    assert len({msgspec.json.encode(msgspec.structs.replace(v, viewer=None)) for v in seen}) == 1
    assert [v.viewer for v in seen] == [0, 1, 2, None]
    for viewer in (0, 1, 2, None):
        assert [GAME.redact(event, viewer) for event in events] == events


def test_the_view_shows_the_board_in_play_the_stocks_the_plains_and_whose_turn_it_is() -> None:
    view = views_of(new_table(3))[0]
    assert view.phase == "placing" and view.placement_round == 1 and view.turn == 0
    assert view.lanes == (2, 3, 4, 5, 6) and len(view.spaces) == 40
    assert (view.spaces[0].lane, view.spaces[0].column, view.spaces[0].buffalo) == (2, 1, 2)
    assert (view.buffalo_on_board, view.buffalo_in_plains, view.buffalo_out_of_play) == (30, 0, 6)
    assert [p.teepees_in_stock for p in view.players] == [7, 7, 7]
    assert view.to_act == (view.current,) == (view.start_player,)


def test_the_supply_shows_the_unfed_teepees_and_how_many_must_go_back() -> None:
    teepees = {at(2, 6): {0: 2}, at(5, 6): {0: 1}}
    table = at_turn_of(0, position(teepees=teepees, buffalo={at(6, 1): 3}, resources=(1, 0, 0, 0)))
    for target in (at(6, 2), at(5, 1)):
        act(table, 0, MoveBuffalo(from_=at(6, 1), to=target))
    view = views_of(table)[3]
    assert view.phase == "moving-buffalo" and view.buffalo_moves_due == 1
    assert [s.moved_buffalo for s in view.spaces if s.moved_buffalo] == [1, 1]
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))
    view = views_of(table)[3]
    assert view.phase == "supplying" and view.to_act == (0,)
    assert view.unfed == (at(2, 6), at(2, 6), at(5, 6)) and view.must_send_back == 2
    assert view.players[0].resources == 1 and view.players[0].teepees_on_board == 3

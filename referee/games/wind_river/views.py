"""What a seat (or a spectator) may see: everything. Wind River has no hidden information once
the start player is drawn, and the referee draws it in the opening events, before anyone looks:
the view is the whole board, the stocks, the open plains and whose turn it is, the same for
every seat and for spectators, and `redact` leaves every event as it is."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from referee.games.wind_river.board import Space, index
from referee.games.wind_river.events import Event
from referee.games.wind_river.scoring import ranking
from referee.games.wind_river.stages import Phase, Stage, stage, to_act
from referee.games.wind_river.state import State, board_of
from referee.games.wind_river.supply import affordable, unfed
from referee.kernel.contract import Seat


class WindRiverSpaceView(msgspec.Struct, frozen=True, kw_only=True):
    lane: int
    column: int
    buffalo: int
    teepees: tuple[int, ...]  # per seat
    moved_buffalo: int  # buffalo here that moved in this turn's step 5.1 (they may not again)


class WindRiverPlayerView(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    resources: int
    teepees_on_board: int
    teepees_in_stock: int
    teepees_in_plains: int


class WindRiverView(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wind-river.view"
):
    viewer: Seat | None
    phase: Phase  # placing, moving-buffalo, supplying, extra-activity or over
    to_act: tuple[Seat, ...]
    finished: bool
    start_player: Seat
    current: Seat  # who places a teepee, or whose turn it is
    turn: int  # turns begun since the set-up (0 while placing)
    placement_round: int | None  # 1 or 2 while placing
    lanes: tuple[int, ...]  # the lanes in play: 2 to 6 with three players
    spaces: tuple[WindRiverSpaceView, ...]  # the spaces in play, lane by lane, west to east
    players: tuple[WindRiverPlayerView, ...]
    buffalo_on_board: int
    buffalo_in_plains: int  # moved off the board into the open plains
    buffalo_out_of_play: int  # the lighter lane's, with three players
    buffalo_moves_due: int  # step 5.1: moves still owed (0 once no buffalo can move)
    buffalo_moves_made: int
    unfed: tuple[Space, ...]  # while supplying: the current player's unfed teepees, one each
    must_send_back: int  # while supplying: how many of them the stock cannot pay for
    ranking: tuple[tuple[Seat, ...], ...]  # once finished


def view(state: State, viewer: Seat | None) -> WindRiverView:
    current = stage(state)
    hungry = unfed(state, state.current) if current is Stage.SUPPLYING else ()
    return WindRiverView(
        viewer=viewer,
        phase=current.phase,
        to_act=tuple(sorted(to_act(state))),
        finished=state.finished,
        start_player=state.start_player,
        current=state.current,
        turn=state.turn,
        placement_round=state.placement_round if current is Stage.PLACING else None,
        lanes=board_of(state).lanes,
        spaces=space_views(state),
        players=tuple(player_view(state, seat) for seat in range(state.seats)),
        buffalo_on_board=state.buffalo_on_board,
        buffalo_in_plains=state.buffalo_gone,
        buffalo_out_of_play=state.buffalo_out_of_play,
        buffalo_moves_due=state.moves_due if current is Stage.MOVING_BUFFALO else 0,
        buffalo_moves_made=state.moves_made,
        unfed=hungry,
        must_send_back=len(hungry) - affordable(state, state.current, len(hungry)),
        ranking=ranking(state.plains, state.resources) if state.finished else (),
    )


def space_views(state: State) -> tuple[WindRiverSpaceView, ...]:
    return tuple(
        WindRiverSpaceView(
            lane=space.lane,
            column=space.column,
            buffalo=state.buffalo_at(space),
            teepees=state.teepees_at(space),
            moved_buffalo=state.moved[index(space)] if state.step == "buffalo" else 0,
        )
        for space in board_of(state).spaces
    )


def player_view(state: State, seat: Seat) -> WindRiverPlayerView:
    return WindRiverPlayerView(
        seat=seat,
        resources=state.resources[seat],
        teepees_on_board=state.on_board(seat),
        teepees_in_stock=state.stock[seat],
        teepees_in_plains=state.plains[seat],
    )


EventT = TypeVar("EventT", bound=Event)


def redact(event: EventT, viewer: Seat | None) -> EventT:
    """Nothing in Wind River is secret: every event is shown as it was recorded."""
    return event

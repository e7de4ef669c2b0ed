"""What a caller may see: wire bodies built from tables and stored events.

Everything a seat receives goes through the game's `view` and `redact`, except once the game is
over, when everything is public (the seed is revealed by then as well).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

import msgspec

from api.schemas import (
    CommandResult,
    CreatedGame,
    EventRecord,
    GameDetail,
    GameStatus,
    GameSummary,
    KindInfo,
    SeatClock,
    SeatGone,
    SeatGranted,
    Seating,
    SeatToken,
    StateAt,
)
from api.service import NewGameResult, PlayResult, Recorded, SitResult
from eventstore import StreamInfo
from referee.kernel import Seat, Table
from referee.kernel.lifecycle import KERNEL_EVENTS
from referee.kernel.registry import AnyGame


def status_of(table: Table) -> GameStatus:
    if table.outcome().finished:
        return "cancelled" if table.seating is not None and table.seating.cancelled else "finished"
    return "waiting" if table.waiting() else "active"


def seating_of(table: Table) -> Seating:
    return "creator" if table.seating is None else "open"


def names_of(table: Table) -> list[str | None] | None:
    names = table.names()
    return None if names is None else list(names)


def open_seats_of(names: Sequence[str | None] | None, status: str) -> list[int]:
    if names is None or status != "waiting":
        return []
    return [seat for seat, name in enumerate(names) if name is None]


def kind_info(game: AnyGame, versions: Iterable[AnyGame] = ()) -> KindInfo:
    """The kind as new games play it (`game`, its newest version), and every version it has."""
    return KindInfo(
        kind=game.kind,
        title=game.title,
        rules_version=game.version,
        rules_versions=[older.version for older in versions] or [game.version],
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        seat_counts=list(game.seat_counts),
        default_options=msgspec.to_builtins(game.options_type()),
        options_schema=msgspec.json.schema(game.options_type),
    )


def created_game(result: NewGameResult) -> CreatedGame:
    table = result.table
    return CreatedGame(
        game_id=result.game_id,
        kind=table.game.kind,
        rules_version=table.created.rules_version,
        seats=table.seats,
        version=table.version,
        commitment=table.created.commitment,
        seed_chosen_by_creator=table.created.seed_chosen_by_creator,
        to_act=sorted(table.to_act()),
        seat_tokens=[SeatToken(seat=seat, token=token) for seat, token in result.seat_tokens],
        status=status_of(table),
        seating=seating_of(table),
        names=names_of(table),
        invitation_code=result.invitation_code,
        receipt=result.receipt,
    )


def seat_granted(game_id: str, result: SitResult) -> SeatGranted:
    table = result.table
    names = table.names() or ()
    return SeatGranted(
        game_id=game_id,
        seat=result.seat,
        token=result.token,
        name=names[result.seat] or "",
        status=status_of(table),
        version=table.version,
        names=list(names),
        to_act=sorted(table.to_act()),
        replayed=result.replayed,
        receipt=result.receipt,
    )


def summary(info: StreamInfo) -> GameSummary:
    return GameSummary(
        game_id=info.game_id,
        kind=info.kind,
        rules_version=info.rules_version,
        seats=info.seats,
        status=cast(GameStatus, info.status),
        version=info.version,
        seed_chosen_by_creator=info.seed_chosen_by_creator,
        created_at=info.created_at,
        updated_at=info.updated_at,
        seating=cast(Seating, info.seating),
        names=info.names,
        open_seats=open_seats_of(info.names, info.status),
    )


def game_detail(info: StreamInfo, table: Table, seat: Seat | None) -> GameDetail:
    """The game now; `info` gives what the store keeps beside the events (times)."""
    status, names = status_of(table), names_of(table)
    waiting = table.seating is not None and table.waiting()
    return GameDetail(
        game_id=info.game_id,
        kind=table.game.kind,
        rules_version=table.created.rules_version,
        seats=table.seats,
        status=status,
        version=table.version,
        seed_chosen_by_creator=table.created.seed_chosen_by_creator,
        created_at=info.created_at,
        updated_at=info.updated_at,
        seating=seating_of(table),
        names=names,
        open_seats=open_seats_of(names, status),
        commitment=table.created.commitment,
        to_act=sorted(table.to_act()),
        outcome=table.outcome(),
        seat=seat,
        view=table.game.view(table.state, seat),
        time_control=None if table.clocks is None else table.clocks.control,
        clocks=seat_clocks(table),
        left=seats_gone(table),
        bots=list(table.bots),
        expires_at=table.seating.expires_at if waiting and table.seating else None,
    )


def seat_clocks(table: Table) -> list[SeatClock] | None:
    """Every seat's clock as of the table's last step; None for an untimed game."""
    clocks = table.clocks
    if clocks is None:
        return None
    to_act = table.to_act()
    return [
        SeatClock(
            seat=seat,
            running=seat in to_act,
            remaining_seconds=None if clocks.remaining is None else clocks.remaining[seat],
            deadline=clocks.deadline(seat) if seat in to_act else None,
        )
        for seat in range(table.seats)
    ]


def seats_gone(table: Table) -> list[SeatGone]:
    return [SeatGone(seat=seat, how=how) for seat, how in table.departures]


def visible_event(
    game: AnyGame, event: msgspec.Struct, seat: Seat | None, public: bool
) -> msgspec.Struct:
    if public or isinstance(event, KERNEL_EVENTS):
        return event
    return game.redact(event, seat)


def event_records(
    game: AnyGame, recorded: Iterable[Recorded], seat: Seat | None, *, public: bool
) -> list[EventRecord]:
    return [
        EventRecord(
            seq=item.stored.seq,
            recorded_at=item.stored.recorded_at,
            seat=item.stored.seat,
            event=visible_event(game, item.event, seat, public),
        )
        for item in recorded
    ]


def command_result(result: PlayResult, seat: Seat) -> CommandResult:
    table = result.table
    finished = table.outcome().finished
    return CommandResult(
        version=table.version,
        replayed=result.replayed,
        events=event_records(table.game, result.events, seat, public=finished),
        status=status_of(table),
        to_act=sorted(table.to_act()),
        outcome=table.outcome(),
        view=table.game.view(table.state, seat),
        clocks=seat_clocks(table),
        left=seats_gone(table),
        receipt=result.receipt,
    )


def state_at(
    table: Table, *, version: int, seat: Seat | None, public: bool, open_table: bool
) -> StateAt:
    """The game as it was after event `table.version`, as `seat` saw it; `public` (the game is
    over now) adds every seat's view of that moment, so that a dispute can be read move by move
    with every hidden card, through the game's own `view` and nothing else. `open_table`: the
    game is one (its table says so only from the event that opened it)."""
    # An open table was created waiting: the events that set it up (a time control, bots, the
    # table opened) follow game.created in the one append that created it.
    unopened = open_table and table.seating is None
    return StateAt(
        seq=table.version,
        version=version,
        status="waiting" if unopened else status_of(table),
        to_act=[] if unopened else sorted(table.to_act()),
        outcome=table.outcome(),
        seat=seat,
        view=table.game.view(table.state, seat),
        clocks=seat_clocks(table),
        left=seats_gone(table),
        names=[None] * table.seats if unopened else names_of(table),
        seat_views=[table.game.view(table.state, other) for other in range(table.seats)]
        if public
        else None,
    )

"""Resignations, timeouts, abandonment and time controls, on the kernel's Table (the toy game of
test_table: seats take turns guessing a number drawn at set-up)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from referee.kernel import Chance, GameOver, Played, RuleViolation, Table
from referee.kernel.lifecycle import (
    Abandon,
    Abandoned,
    BotSeat,
    ClaimTimeout,
    ClockRead,
    Resign,
    Resigned,
    StandIn,
    TimeControl,
    TimedOut,
)
from tests.unit.kernel.test_table import GAME, SEED, Guess, Options

T0 = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
GAME_ID = "g-leave"


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def open_table(seats: int = 2, time_control: TimeControl | None = None) -> Table:
    table, _ = Table.open(
        GAME, Options(), seats, game_id=GAME_ID, seed=SEED, time_control=time_control, at=T0
    )
    return table


def secret_of(table: Table) -> int:
    return int(table.state.secret)  # type: ignore[attr-defined]


def wrong_guess(table: Table) -> Guess:
    return Guess((secret_of(table) + 1) % 10)


def play(table: Table, seat: int | None, command: msgspec.Struct, when: float = 0) -> list:
    return [
        played.event
        for played in table.play(seat, command, table.chance_for(SEED, GAME_ID), at=at(when))
    ]


def refused(table: Table, seat: int | None, command: msgspec.Struct, when: float = 0) -> str:
    before = (table.state, table.version, table.departures, table.clocks)
    with pytest.raises(RuleViolation) as refusal:
        play(table, seat, command, when)
    assert (table.state, table.version, table.departures, table.clocks) == before
    return refusal.value.rule_id


def test_a_resignation_ends_a_two_player_game() -> None:
    table = open_table()
    assert play(table, 1, Resign()) == [Resigned(seat=1)]  # not its turn: still allowed
    outcome = table.outcome()
    assert outcome.finished and outcome.ending == "resignation"
    assert outcome.winners == (0,) and outcome.ranking == ((0,), (1,))
    assert table.to_act() == frozenset()
    with pytest.raises(GameOver):
        play(table, 0, Guess(1))


def test_in_a_larger_game_the_referee_plays_for_the_seat_that_left() -> None:
    table = open_table(seats=3)
    assert table.to_act() == {0}
    play(table, 1, Resign())
    assert not table.outcome().finished
    events = play(table, 0, wrong_guess(table))
    # Seat 1 is next: the referee makes its move, the first legal one (a guess of 0).
    assert events[1:3] == [StandIn(seat=1), GAME.decide(table.state, 1, Guess(0), NO_CHANCE)[0]]
    assert table.to_act() <= {0, 2}
    assert refused(table, 1, Guess(3)) == "kernel.seat-left"
    assert refused(table, 1, Resign()) == "kernel.seat-left"


NO_CHANCE = Chance(b"unused")


def test_a_seat_that_left_never_wins_and_ranks_last() -> None:
    table = open_table(seats=3)
    play(table, 2, Resign())
    play(table, 1, Resign())
    outcome = table.outcome()
    assert outcome.finished and outcome.winners == (0,)
    assert outcome.ranking == ((0,), (1,), (2,))  # the last to leave held on longest


def test_teams_leave_together() -> None:
    from referee.games import REGISTRY

    game = REGISTRY["manitou-island"]
    table, _ = Table.open(game, game.options_type(), 4, game_id=GAME_ID, seed=SEED)
    table.play(0, Resign(), table.chance_for(SEED, GAME_ID))
    outcome = table.outcome()
    assert outcome.finished and outcome.ending == "resignation"
    assert outcome.winners == (1, 3) and outcome.ranking == ((1, 3), (0, 2))


def test_a_per_move_limit_is_claimed_only_once_run_out() -> None:
    table = open_table(time_control=TimeControl(per_move_seconds=30))
    assert table.to_act() == {0}
    assert refused(table, 1, ClaimTimeout(seat=0), when=29.999) == "kernel.time-remains"
    assert refused(table, 0, ClaimTimeout(seat=0), when=40) == "kernel.own-timeout"
    assert refused(table, 0, ClaimTimeout(seat=1), when=40) == "kernel.not-on-the-clock"
    assert refused(table, 0, wrong_guess(table), when=30) == "kernel.out-of-time"
    events = play(table, 1, ClaimTimeout(seat=0), when=30)
    assert events == [ClockRead(at=at(30)), TimedOut(seat=0)]
    outcome = table.outcome()
    assert outcome.ending == "timeout" and outcome.winners == (1,)


def test_each_move_restarts_the_per_move_limit() -> None:
    table = open_table(time_control=TimeControl(per_move_seconds=30))
    play(table, 0, wrong_guess(table), when=20)
    assert table.clocks is not None and table.clocks.deadline(1) == at(50)
    play(table, 1, wrong_guess(table), when=45)
    assert table.clocks.deadline(0) == at(75)


def test_a_total_clock_is_charged_while_a_seat_is_to_act_and_gets_its_increment() -> None:
    table = open_table(time_control=TimeControl(total_seconds=60, increment_seconds=5))
    play(table, 0, wrong_guess(table), when=10)  # seat 0 thought 10 s, gets 5
    play(table, 1, wrong_guess(table), when=30)  # seat 1 thought 20 s, gets 5
    assert table.clocks is not None and table.clocks.remaining == (55.0, 45.0)
    assert table.clocks.deadline(0) == at(30 + 55)
    assert refused(table, 1, ClaimTimeout(seat=0), when=84) == "kernel.time-remains"
    play(table, 1, ClaimTimeout(seat=0), when=85)
    assert table.outcome().ending == "timeout"


def test_claims_need_a_time_control() -> None:
    table = open_table()
    assert refused(table, 1, ClaimTimeout(seat=0)) == "kernel.no-time-control"


def test_a_timed_step_needs_its_time() -> None:
    table = open_table(time_control=TimeControl(per_move_seconds=30))
    with pytest.raises(ValueError, match="needs its time"):
        table.play(0, Guess(1), table.chance_for(SEED, GAME_ID))


def test_only_the_referee_abandons_a_game_and_nobody_wins_it() -> None:
    table = open_table()
    assert refused(table, 0, Abandon(idle_seconds=10)) == "kernel.referee-only"
    assert refused(table, None, Guess(1)) == "kernel.referee-has-no-moves"
    assert refused(table, None, Resign()) == "kernel.referee-cannot-resign"
    assert play(table, None, Abandon(idle_seconds=99.5)) == [Abandoned(idle_seconds=99.5)]
    outcome = table.outcome()
    assert outcome.finished and outcome.ending == "abandoned" and outcome.winners == ()


def test_table_settings_are_checked() -> None:
    with pytest.raises(RuleViolation) as empty:
        open_table(time_control=TimeControl())
    assert empty.value.rule_id == "kernel.time-control"
    for bots in ([BotSeat(seat=2)], [BotSeat(seat=0), BotSeat(seat=0)]):
        with pytest.raises(RuleViolation) as seats:
            Table.open(GAME, Options(), 2, game_id=GAME_ID, seed=SEED, bots=bots)
        assert seats.value.rule_id == "kernel.bot-seats"


def test_a_replay_of_the_events_equals_the_live_table() -> None:
    table, played = Table.open(
        GAME,
        Options(),
        3,
        game_id=GAME_ID,
        seed=SEED,
        time_control=TimeControl(per_move_seconds=30, total_seconds=100, increment_seconds=2),
        bots=[BotSeat(seat=2, strategy="random")],
        at=T0,
    )
    for seat, command, when in [(0, wrong_guess(table), 3), (1, Resign(), 4)]:
        played += table.play(seat, command, table.chance_for(SEED, GAME_ID), at=at(when))
    played += table.play(2, wrong_guess(table), table.chance_for(SEED, GAME_ID), at=at(9))
    replayed = Table.replay(GAME, played)
    assert replayed == table


@pytest.mark.parametrize(
    "forged",
    [
        [ClockRead(at=T0)],  # no time control
        [Resigned(seat=5)],
        [Resigned(seat=1), Resigned(seat=1)],
        [StandIn(seat=0)],  # seat 0 has not left
    ],
)
def test_a_stream_with_impossible_kernel_events_does_not_fold(forged: list) -> None:
    table, played = Table.open(GAME, Options(), 3, game_id=GAME_ID, seed=SEED)
    with pytest.raises(ValueError):
        Table.replay(GAME, [*played, *(Played(event, table.chance_cursor) for event in forged)])

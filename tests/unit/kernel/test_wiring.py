"""The kernel's `advance` loop (referee/kernel/flow.py) and `WiredGame` (wiring.py), on a toy
game: a counter that players raise by one, and that the referee rounds up to the next ten."""

from __future__ import annotations

import dataclasses

import msgspec
import pytest

from referee.kernel import Chance, NoChance, Outcome, Table
from referee.kernel.flow import MAX_AUTOMATIC_EVENTS, advance, then_advance
from referee.kernel.wiring import WiredGame


class Count(msgspec.Struct, frozen=True):
    value: int = 0


class Raise(msgspec.Struct, frozen=True, tag_field="type", tag="toy.raise"):
    pass


class Raised(msgspec.Struct, frozen=True, tag_field="type", tag="toy.raised"):
    by: int


class Options(msgspec.Struct, frozen=True):
    pass


def evolve(state: Count, event: Raised) -> Count:
    return Count(state.value + event.by)


def round_up(state: Count, chance: Chance) -> list[Raised]:
    """The referee's step: from an odd count, one more (a step that stops by itself)."""
    return [Raised(by=1)] if state.value % 2 else []


def toy(next_step=round_up) -> WiredGame:  # type: ignore[no-untyped-def,type-arg]
    return WiredGame(
        kind="toy",
        title="Toy",
        version="1",
        seat_counts=(1, 2),
        options_type=Options,
        command_type=Raise,
        event_type=Raised,
        view_type=Count,
        validate_options=lambda options, seats: None,
        initial_state=lambda options, seats: Count(),
        opening=lambda options, seats, chance: [Raised(by=3)],
        command_events=lambda state, seat, command, chance: [Raised(by=1)],
        evolve=evolve,
        to_act=lambda state: frozenset({0}),
        legal_commands=lambda state, seat: [Raise()],
        view=lambda state, seat: state,
        redact=lambda event, seat: event,
        outcome=lambda state: Outcome(finished=state.value >= 10),
        imagine=lambda view, seat, rng: view,  # nothing is hidden: the view is the state
        evaluate=lambda state, seat: float(state.value),
        next_step=next_step,
    )


def test_advance_folds_each_step_and_stops_when_a_player_must_choose() -> None:
    assert advance(Count(3), NoChance(), evolve, round_up) == [Raised(by=1)]
    assert advance(Count(4), NoChance(), evolve, round_up) == []
    assert then_advance(Count(2), [Raised(by=1)], NoChance(), evolve, round_up) == [
        Raised(by=1),
        Raised(by=1),
    ]


def test_a_step_that_never_stops_is_a_bug_not_a_long_turn() -> None:
    with pytest.raises(RuntimeError):
        advance(Count(), NoChance(), evolve, lambda state, chance: [Raised(by=2)])
    assert MAX_AUTOMATIC_EVENTS >= 10_000


def test_a_wired_game_chains_the_referees_steps_after_the_opening_and_each_command() -> None:
    game = toy()
    assert (game.min_seats, game.max_seats) == (1, 2)
    table, played = Table.open(game, Options(), 1, game_id="toy", seed=b"toy")
    assert [item.event for item in played[1:]] == [Raised(by=3), Raised(by=1)]  # 3, then to 4
    events = table.play(0, Raise(), table.chance_for(b"toy", "toy"))
    assert [item.event for item in events] == [Raised(by=1), Raised(by=1)]  # 5, then to 6
    assert table.state == Count(6)


def test_without_steps_of_its_own_a_wired_game_records_only_the_commands_events() -> None:
    _, played = Table.open(toy(next_step=None), Options(), 1, game_id="toy", seed=b"toy")
    assert [item.event for item in played[1:]] == [Raised(by=3)]


def test_seat_counts_must_be_listed_ascending() -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(toy(), seat_counts=(2, 1))
    with pytest.raises(ValueError):
        dataclasses.replace(toy(), seat_counts=())

"""The Table runs any game of the contract: shown here with a toy game defined in the test."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import msgspec
import pytest

from referee.kernel import (
    Chance,
    GameCreated,
    GameOver,
    NotYourTurn,
    Outcome,
    Played,
    RuleViolation,
    SeedRevealed,
    Table,
    commitment,
)

SEED = b"toy-seed"


class Options(msgspec.Struct, frozen=True):
    top: int = 10


class Guess(msgspec.Struct, frozen=True, tag_field="type", tag="toy.guess"):
    number: int


class Drawn(msgspec.Struct, frozen=True, tag_field="type", tag="toy.drawn"):
    secret: int | None


class Guessed(msgspec.Struct, frozen=True, tag_field="type", tag="toy.guessed"):
    seat: int
    number: int


class State(msgspec.Struct, frozen=True):
    seats: int
    secret: int = -1
    turn: int = 0
    winner: int | None = None


class Toy:
    """Seats take turns guessing a number drawn at set-up; the first right guess wins."""

    kind = "toy"
    title = "Toy"
    version = "1"
    min_seats = 2
    max_seats = 3
    seat_counts = (2, 3)
    options_type = Options
    command_type = Guess
    event_type = Drawn | Guessed
    view_type = State

    def validate_options(self, options: Options, seats: int) -> None:
        if options.top < 2:
            raise RuleViolation("toy.top", "The top must be at least 2.")

    def initial_state(self, options: Options, seats: int) -> State:
        return State(seats=seats)

    def setup(self, options: Options, seats: int, chance: Chance) -> list[msgspec.Struct]:
        return [Drawn(secret=chance.uniform(options.top))]

    def decide(self, state: State, seat: int, command: Guess, chance: Chance) -> list[Guessed]:
        if command.number < 0:
            raise RuleViolation("toy.negative", "Guess a number from 0.")
        return [Guessed(seat=seat, number=command.number)]

    def evolve(self, state: State, event: msgspec.Struct) -> State:
        if isinstance(event, Drawn):
            return msgspec.structs.replace(state, secret=event.secret)
        assert isinstance(event, Guessed)
        won = event.number == state.secret
        return msgspec.structs.replace(
            state,
            turn=(state.turn + 1) % state.seats,
            winner=event.seat if won else None,
        )

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset({state.turn})

    def legal_commands(self, state: State, seat: int) -> Sequence[Guess]:
        return [Guess(number) for number in range(10)]

    def view(self, state: State, seat: int | None) -> State:
        return state

    def redact(self, event: msgspec.Struct, seat: int | None) -> msgspec.Struct:
        return event

    def outcome(self, state: State) -> Outcome:
        if state.winner is None:
            return Outcome(finished=False)
        return Outcome(finished=True, winners=(state.winner,))

    def sides(self, seats: int) -> tuple[frozenset[int], ...]:
        return tuple(frozenset((seat,)) for seat in range(seats))


GAME = Toy()


def open_table(seats: int = 2) -> tuple[Table, list]:
    return Table.open(GAME, Options(), seats, game_id="g-1", seed=SEED)


def test_open_records_creation_then_setup() -> None:
    table, played = open_table()
    created = played[0].event
    assert isinstance(created, GameCreated)
    assert created.commitment == commitment(SEED)
    assert created.kind == "toy" and created.rules_version == "1" and created.seats == 2
    expected_secret = Chance.for_game(SEED, "g-1").uniform(10)
    assert played[1].event == Drawn(secret=expected_secret)
    assert table.version == len(played) == 2 and table.chance_cursor == played[1].chance_cursor >= 1


def test_seat_count_and_options_are_checked() -> None:
    with pytest.raises(RuleViolation) as seats:
        Table.open(GAME, Options(), 4, game_id="g", seed=SEED)
    assert seats.value.rule_id == "toy.seat-count"
    with pytest.raises(RuleViolation) as options:
        Table.open(GAME, Options(top=1), 2, game_id="g", seed=SEED)
    assert options.value.rule_id == "toy.top"


def test_not_your_turn_changes_nothing() -> None:
    table, _ = open_table()
    before = (table.state, table.version)
    with pytest.raises(NotYourTurn):
        table.play(1, Guess(3), table.chance_for(SEED, "g-1"))
    assert (table.state, table.version) == before


def test_refusal_changes_nothing() -> None:
    table, _ = open_table()
    before = (table.state, table.version)
    with pytest.raises(RuleViolation):
        table.play(0, Guess(-1), table.chance_for(SEED, "g-1"))
    assert (table.state, table.version) == before


def test_a_copy_is_an_independent_table_of_the_same_fields() -> None:
    """What the cache hands out and keeps (api/cache.py): playing on a copy leaves the table as
    it was, and a copy holds every field the table has, a subclass's too."""

    class Kept(Table):
        pass

    table, _ = open_table()
    twin = copy.copy(table)
    assert twin == table and twin is not table and type(twin) is Table
    assert twin.__dict__ == table.__dict__
    before = (table.state, table.version, table.chance_cursor)
    wrong = (table.state.secret + 1) % 10  # type: ignore[attr-defined]
    twin.play(0, Guess(wrong), twin.chance_for(SEED, "g-1"))
    assert twin.version > table.version
    assert (table.state, table.version, table.chance_cursor) == before
    kept = Kept(**table.__dict__)
    assert type(copy.copy(kept)) is Kept and copy.copy(kept) == kept


def test_replay_equals_live_and_game_over_refuses() -> None:
    table, played = open_table()
    secret = table.state.secret  # type: ignore[attr-defined]
    wrong = (secret + 1) % 10
    played += table.play(0, Guess(wrong), table.chance_for(SEED, "g-1"))
    played += table.play(1, Guess(secret), table.chance_for(SEED, "g-1"))
    assert table.outcome().winners == (1,)
    assert table.to_act() == frozenset()
    played.append(table.reveal_seed(SEED))
    assert isinstance(played[-1].event, SeedRevealed) and table.seed_revealed
    replayed = Table.replay(GAME, played)
    assert replayed.state == table.state
    assert (replayed.version, replayed.chance_cursor) == (table.version, table.chance_cursor)
    with pytest.raises(GameOver):
        table.play(0, Guess(1), table.chance_for(SEED, "g-1"))


def test_reveal_refuses_a_wrong_seed() -> None:
    table, _ = open_table()
    with pytest.raises(ValueError):
        table.reveal_seed(b"another seed")


def test_replay_checks_the_recorded_opening_like_a_new_one() -> None:
    _, played = open_table()
    created = played[0].event
    assert isinstance(created, GameCreated)
    for forged in (
        msgspec.structs.replace(created, seats=10_000_000),
        msgspec.structs.replace(created, options=msgspec.Raw(b'{"top":1}')),
    ):
        with pytest.raises(RuleViolation):
            Table.replay(GAME, [Played(forged, 0), *played[1:]])


def test_play_refuses_a_chance_that_is_not_at_the_cursor() -> None:
    table, _ = open_table()
    with pytest.raises(ValueError):
        table.play(0, Guess(1), Chance.for_game(SEED, "g-1", cursor=table.chance_cursor + 1))

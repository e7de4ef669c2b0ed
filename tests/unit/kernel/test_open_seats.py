"""Open tables in the kernel: the rule for names, sitting and leaving while the table waits, the
deal once the last seat is taken (keyed by every seat's entropy), cancellation, and the fold.

A property runs every kind and seat count: players sit and leave at random, the table fills,
play goes on at random to the end; replaying the events equals the live table throughout, and
nothing is dealt (nor anybody to act) while the table waits.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import REGISTRY
from referee.kernel import Chance, Played, RuleViolation, Table
from referee.kernel.bots import play
from referee.kernel.chance import open_table_key
from referee.kernel.lifecycle import (
    BotSeat,
    CancelTable,
    LeaveSeat,
    Resign,
    SeatTaken,
    Sit,
    TableCancelled,
    TimeControl,
)
from referee.kernel.open_seats import normal_name
from referee.kernel.table import OpenTable

COYOTE = REGISTRY["coyote"]
SEED = bytes(range(32))
GAME_ID = "open-table"
T0 = datetime(2026, 11, 26, tzinfo=UTC)
EXPIRES = T0 + timedelta(hours=1)
CASES = [(game.kind, seats) for game in REGISTRY for seats in game.seat_counts]


def new_table(
    seats: int = 3, *, creator: SeatTaken | None = None, **fields: object
) -> tuple[Table, list]:
    return Table.open(
        COYOTE,
        COYOTE.options_type(),
        seats,
        game_id=GAME_ID,
        seed=SEED,
        open_table=OpenTable("public", EXPIRES, creator),
        at=T0,
        **fields,  # type: ignore[arg-type]
    )


def sit(table: Table, seat: int, name: str, entropy: str = "", at: datetime = T0) -> list:
    return table.play(seat, Sit(name=name, entropy=entropy), table.chance_for(SEED, GAME_ID), at=at)


# -- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("", "kernel.name-length"),
        ("x" * 41, "kernel.name-length"),
        ("e\u0301" * 41, "kernel.name-length"),  # 41 characters once composed
        ("tab\there", "kernel.name-control"),
        ("nul\x00", "kernel.name-control"),
        ("evil\u202egnp.exe", "kernel.name-bidi"),
        ("\u2066isolate", "kernel.name-bidi"),
        ("   ", "kernel.name-blank"),
    ],
)
def test_a_name_breaking_a_rule_is_refused_with_that_rule(name: str, rule: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        normal_name(name)
    assert refused.value.rule_id == rule


def test_names_are_counted_and_recorded_in_nfc() -> None:
    decomposed = "e\u0301" * 40  # 80 code points, 40 characters in NFC
    assert normal_name(decomposed) == "\u00e9" * 40
    assert normal_name("x" * 40) == "x" * 40


def test_a_name_is_unique_at_the_table_whatever_its_case_or_form() -> None:
    table, _ = new_table(creator=SeatTaken(seat=0, name="Ren\u00e9e"))
    for taken in ("ren\u00e9e", "Rene\u0301e", "RENÉE"):
        with pytest.raises(RuleViolation) as refused:
            sit(table, 1, taken)
        assert refused.value.rule_id == "kernel.name-taken"
    assert table.names() == ("Ren\u00e9e", None, None)


# -- waiting, sitting, leaving -------------------------------------------------------------------


def test_a_waiting_table_deals_nothing_and_nobody_acts() -> None:
    table, played = new_table(creator=SeatTaken(seat=1, name="Ann"))
    assert [type(item.event).__name__ for item in played] == [
        "GameCreated",
        "TableOpened",
        "SeatTaken",
    ]
    assert table.waiting() and table.to_act() == frozenset() and table.chance_cursor == 0
    assert table.state == COYOTE.initial_state(COYOTE.options_type(), 3)
    dealt = _dealt()
    first = min(dealt.to_act())
    for command in (Resign(), COYOTE.legal_commands(dealt.state, first)[0]):
        with pytest.raises(RuleViolation) as refused:
            table.play(1, command, table.chance_for(SEED, GAME_ID), at=T0)
        assert refused.value.rule_id == "kernel.table-waiting"


def _dealt() -> Table:
    table, _ = new_table()
    for seat, name in enumerate(("A", "B", "C")):
        sit(table, seat, name)
    return table


def test_the_last_sitting_deals_from_the_key_of_every_seats_entropy() -> None:
    table, _ = new_table(creator=SeatTaken(seat=0, name="Ann", entropy="a"))
    sit(table, 2, "Cy", "c")
    events = sit(table, 1, "Bob", "b")
    assert type(events[0].event) is SeatTaken and not table.waiting()
    key = open_table_key(SEED, GAME_ID, "", ["a", "b", "c"])
    expected = list(COYOTE.setup(COYOTE.options_type(), 3, Chance(key)))
    assert [item.event for item in events[1:]] == expected
    assert {item.chance_cursor for item in events} == {table.chance_cursor}
    assert table.chance_cursor > 0 and len(table.to_act()) == 1


def test_one_seats_entropy_changes_the_deal() -> None:
    decks = set()
    for entropy in ("", "x", "y"):
        table, _ = new_table()
        sit(table, 0, "A")
        sit(table, 1, "B", entropy)
        events = sit(table, 2, "C")
        decks.add(events[1].event.order)
    assert len(decks) == 3


def test_a_seat_left_opens_again_and_the_new_sitters_entropy_counts() -> None:
    table, _ = new_table()
    sit(table, 0, "A")
    sit(table, 1, "B", "first")
    first_sitting = table.sitting(1)
    table.play(1, LeaveSeat(), table.chance_for(SEED, GAME_ID), at=T0)
    assert table.names() == ("A", None, None) and table.sitting(1) is None
    sit(table, 1, "B", "second")
    assert table.sitting(1) not in (None, first_sitting)
    sit(table, 2, "C")
    assert table.seating is not None and table.seating.entropies() == ("", "second", "")


def test_leaving_is_refused_once_dealt_and_for_an_open_seat() -> None:
    table, _ = new_table()
    sit(table, 0, "A")
    with pytest.raises(RuleViolation) as refused:
        table.play(1, LeaveSeat(), table.chance_for(SEED, GAME_ID), at=T0)
    assert refused.value.rule_id == "kernel.seat-open"
    dealt = _dealt()
    with pytest.raises(RuleViolation) as refused:
        dealt.play(0, LeaveSeat(), dealt.chance_for(SEED, GAME_ID), at=T0)
    assert refused.value.rule_id == "kernel.table-not-waiting"


def test_bots_take_their_seats_at_creation_and_the_creator_cannot_take_theirs() -> None:
    table, _ = new_table(bots=[BotSeat(seat=2)], creator=SeatTaken(seat=0, name="Ann"))
    assert table.names() == ("Ann", None, "Bot 3 (greedy)")
    with pytest.raises(RuleViolation) as refused:
        new_table(bots=[BotSeat(seat=0)], creator=SeatTaken(seat=0, name="Ann"))
    assert refused.value.rule_id == "kernel.seat-taken"


def test_a_full_table_at_creation_is_dealt_at_once() -> None:
    table, played = new_table(
        seats=3, bots=[BotSeat(seat=1), BotSeat(seat=2)], creator=SeatTaken(seat=0, name="Ann")
    )
    assert not table.waiting() and table.to_act()
    assert [type(item.event).__name__ for item in played][:4] == [
        "GameCreated",
        "BotsSeated",
        "TableOpened",
        "SeatTaken",
    ]


def test_a_chosen_seed_is_refused_for_an_open_table() -> None:
    with pytest.raises(RuleViolation) as refused:
        new_table(seed_chosen_by_creator=True)
    assert refused.value.rule_id == "kernel.open-table-seed"


def test_the_referee_cancels_an_unfilled_table_only_once_it_expired() -> None:
    table, _ = new_table()
    sit(table, 0, "A")
    chance = table.chance_for(SEED, GAME_ID)
    with pytest.raises(RuleViolation) as refused:
        table.play(None, CancelTable(), chance, at=EXPIRES - timedelta(seconds=1))
    assert refused.value.rule_id == "kernel.table-not-expired"
    with pytest.raises(RuleViolation) as refused:
        table.play(0, CancelTable(), chance, at=EXPIRES)
    assert refused.value.rule_id == "kernel.referee-only"
    events = table.play(None, CancelTable(), chance, at=EXPIRES)
    assert [item.event for item in events] == [TableCancelled(open_seats=(1, 2))]
    outcome = table.outcome()
    assert outcome.finished and outcome.ending == "cancelled" and not outcome.winners
    assert [type(item.event).__name__ for item in table.close(SEED)] == ["SeedRevealed"]


def test_the_referee_takes_no_seat_and_a_recorded_name_is_in_nfc() -> None:
    table, played = new_table()
    with pytest.raises(RuleViolation) as refused:
        table.play(None, Sit(name="Ref"), table.chance_for(SEED, GAME_ID), at=T0)
    assert refused.value.rule_id == "kernel.referee-has-no-seat"
    forged = Played(SeatTaken(seat=0, name="Rene\u0301e"), 0)  # decomposed: not as recorded
    with pytest.raises(RuleViolation) as refused:
        Table.replay(COYOTE, [*played, forged])
    assert refused.value.rule_id == "kernel.name-not-normal"


def test_a_creator_seated_table_has_no_seat_to_take() -> None:
    table, _ = Table.open(COYOTE, COYOTE.options_type(), 3, game_id=GAME_ID, seed=SEED)
    with pytest.raises(RuleViolation) as refused:
        sit(table, 0, "A")
    assert refused.value.rule_id == "kernel.not-an-open-table"
    assert table.names() is None and table.sitting(0) == 0


def test_a_forged_stream_is_refused_by_the_fold() -> None:
    table, played = new_table()
    forged = [*played, played[-1]]  # a second table-opened
    with pytest.raises(ValueError, match="only follows"):
        Table.replay(COYOTE, forged)
    taken = [*played, *sit(table, 0, "A")]
    with pytest.raises(RuleViolation):  # the same seat taken twice
        Table.replay(COYOTE, [*taken, taken[-1]])


# -- the property --------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "seats"), CASES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_sittings_fill_and_play_to_the_end(kind: str, seats: int, seed: int) -> None:
    game = REGISTRY[kind]
    rng = random.Random(seed)
    secret = seed.to_bytes(32, "big")
    timed = rng.random() < 0.5
    table, played = Table.open(
        game,
        game.options_type(),
        seats,
        game_id=GAME_ID,
        seed=secret,
        time_control=TimeControl(per_move_seconds=60.0) if timed else None,
        open_table=OpenTable("private", EXPIRES, None),
        at=T0,
    )
    now = T0
    names = iter(f"P{number}" for number in range(1000))
    while table.waiting():
        assert table.to_act() == frozenset()
        assert table.state == game.initial_state(game.options_type(), seats)
        seating = table.seating
        assert seating is not None
        taken = [seat for seat in range(seats) if seating.sitters[seat] is not None]
        now += timedelta(seconds=1)
        chance = table.chance_for(secret, GAME_ID)
        if taken and rng.random() < 0.3:
            played += table.play(rng.choice(taken), LeaveSeat(), chance, at=now)
        else:
            seat = rng.choice(seating.open_seats())
            sitting = Sit(name=next(names), entropy=str(rng.random()))
            played += table.play(seat, sitting, chance, at=now)
        assert_replays(game, played, table)
    for _ in range(30_000):
        if table.outcome().finished:
            break
        seat = rng.choice(sorted(table.to_act()))
        now += timedelta(seconds=1)
        command = play(game, "random", table.state, seat, rng)
        played += table.play(seat, command, table.chance_for(secret, GAME_ID), at=now)
    assert table.outcome().finished
    played += table.close(secret)
    assert_replays(game, played, table)


def assert_replays(game: object, played: list, table: Table) -> None:
    replayed = Table.replay(table.game, played)
    assert replayed.state == table.state
    assert replayed.seating == table.seating
    assert (replayed.version, replayed.chance_cursor) == (table.version, table.chance_cursor)

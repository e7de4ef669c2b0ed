"""`legal_commands` lists exactly what `decide` accepts; the lazy `legal_command_space` gives the
same commands and behaves as a sequence (the random players of the other tests draw from it)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Cancel, Challenge, Command, EyeOfTheLynx
from referee.games.coyote.data import BID_POWERS, MAX_BID
from referee.games.coyote.legal import legal_command_space
from referee.games.coyote.options import Options
from referee.games.coyote.state import State
from referee.kernel import Chance, RuleViolation, Seat, Table

from .support import position, random_command, state


def accepted(state: State, seat: Seat, command: Command) -> bool:
    try:
        GAME.decide(state, seat, command, Chance(b"any key"))
    except RuleViolation:
        return False
    return True


def declarations(seats: int) -> list[tuple[object, object]]:
    targets = [None, -1, *range(seats), seats]
    return [(None, target) for target in targets] + [
        (power, target) for power in BID_POWERS for target in targets
    ]


def candidates(state: State, numbers: list[int]) -> Iterator[Command]:
    yield from (Challenge(), EyeOfTheLynx(), Cancel())
    for number in numbers:
        for power, target in declarations(state.seats):
            yield Bid(number=number, power=power, target=target)  # type: ignore[arg-type]


def interesting_numbers(state: State) -> list[int]:
    around = [state.current_bid or 0, state.cancelled_bid or 0, state.bid_before]
    near = {n + d for n in around for d in (-1, 0, 1, 2)}
    return sorted(near | {-1, 0, 1, 2, 500, MAX_BID - 1, MAX_BID, MAX_BID + 1})


def positions(shaman: bool, games: int) -> Iterator[tuple[State, Seat]]:
    rng = random.Random(11)
    for game in range(games):
        seed = b"legal-%d" % game
        table, _ = Table.open(GAME, Options(shaman=shaman), 3 + game % 4, game_id="l", seed=seed)
        while not table.outcome().finished:
            (seat,) = table.to_act()
            yield state(table), seat
            command = random_command(legal_command_space(state(table), seat), rng)
            table.play(seat, command, table.chance_for(seed, "l"))


@pytest.mark.parametrize("shaman", [False, True])
def test_legal_commands_are_exactly_the_accepted_ones(shaman: bool) -> None:
    rng = random.Random(3)
    for now, seat in positions(shaman, games=12):
        legal = legal_command_space(now, seat)
        listed = GAME.legal_commands(now, seat)
        assert list(legal) == list(listed) and len(legal) == len(listed) > 0
        for command in candidates(now, interesting_numbers(now)):
            assert accepted(now, seat, command) == (command in legal), command
        for command in listed[:3] + rng.sample(listed, min(20, len(listed))):
            assert accepted(now, seat, command), command
        others = [s for s in range(now.seats) if s != seat]
        assert all(len(GAME.legal_commands(now, other)) == 0 for other in others)


def exhaustive(table: Table) -> None:
    now = state(table)
    (seat,) = table.to_act()
    every = [
        command for command in candidates(now, list(range(-1, MAX_BID + 2)))
        if accepted(now, seat, command)
    ]  # fmt: skip
    assert list(GAME.legal_commands(now, seat)) == every


def test_exhaustively_at_the_opening_with_the_shaman() -> None:
    exhaustive(position(["5", "3", "2", "1"], shaman=True))


def test_exhaustively_during_a_rebid_and_after_it() -> None:
    table = position(["5", "3", "2", "1"], shaman=True)
    table.play(0, Bid(number=500), table.chance_for(b"x", "x"))
    exhaustive(table)
    table.play(1, Bid(number=990, power="u-turn"), table.chance_for(b"x", "x"))
    exhaustive(table)
    table.play(0, Cancel(), table.chance_for(b"x", "x"))
    exhaustive(table)
    table.play(1, Bid(number=997), table.chance_for(b"x", "x"))
    exhaustive(table)


def test_the_sequence_protocol() -> None:
    now = state(position(["5", "3", "2"], shaman=True))
    legal = legal_command_space(now, 0)
    listed = list(legal)
    assert len(listed) == len(legal) == MAX_BID * (1 + 2 + 3 + 2)
    assert [legal[i] for i in range(len(legal))] == listed
    assert legal[-1] == listed[-1] and legal[5:40:7] == listed[5:40:7]
    with pytest.raises(IndexError):
        legal[len(legal)]
    assert Bid(number=0) not in legal and Challenge() not in legal and "bid" not in legal

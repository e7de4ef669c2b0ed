"""Random legal games for 3 and 4 players, played to the end through the kernel's Table.

Each game terminates; teepees (board + stock + open plains = 7 each) and buffalo (board +
plains + out of play = 36, never more than five on a space) are conserved; resources stay
within 0 to 10; every accepted command was listed as legal, and a command that was legal
earlier but is not now is refused and changes nothing; everyone sees the same views and
events; every event survives the codec; a replay of the events equals the live table; and the
score is recomputed from the events alone.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.wind_river import GAME
from referee.games.wind_river.board import SPACES, Space, board_for
from referee.games.wind_river.commands import Command, MoveTeepee, PlaceTeepee
from referee.games.wind_river.events import TeepeeMoved
from referee.games.wind_river.options import Options
from referee.games.wind_river.state import State
from referee.kernel import Codec, Played, RuleViolation, Table

MAX_COMMANDS = 20_000  # a guard: random games take a few hundred; a stalling player ~2,500
CODEC = Codec(GAME)


def pick(commands: list[Command], rng: random.Random, eastward: bool) -> Command:
    """A kind of command first, then one of that kind, so that rare activities get played too;
    an eastward player mostly moves its teepees east, so that games reach the open plains."""
    east = [c for c in commands if heads_east(c)]
    if eastward and east and rng.random() < 0.8:
        return rng.choice(east)
    by_kind: dict[type, list[Command]] = defaultdict(list)
    for command in commands:
        by_kind[type(command)].append(command)
    kind = rng.choice(sorted(by_kind, key=lambda cls: cls.__name__))
    return rng.choice(by_kind[kind])


def heads_east(command: Command) -> bool:
    """A teepee placed far east, or moved east."""
    if isinstance(command, PlaceTeepee):
        return command.at.column >= 6
    if isinstance(command, MoveTeepee):
        return not isinstance(command.to, Space) or command.to.column > command.from_.column
    return False


def check_invariants(state: State) -> None:
    board = board_for(state.seats)
    for seat in range(state.seats):
        on_board = sum(counts[seat] for counts in state.teepees)
        assert on_board + state.stock[seat] + state.plains[seat] == 7
        assert 0 <= state.resources[seat] <= 10
    out = 6 if state.seats == 3 else 0
    assert sum(state.buffalo) + state.buffalo_gone + out == 36
    for space in SPACES:
        herd, camp = state.buffalo_at(space), state.teepees_at(space)
        assert 0 <= herd <= 5 and 0 <= state.moved[SPACES.index(space)] <= herd
        assert min(camp) >= 0
        if space not in board:
            assert herd == 0 and not any(camp)


def check_seen_alike(state: State, events: list[Any]) -> None:
    views = [GAME.view(state, viewer) for viewer in [*range(state.seats), None]]
    assert len({(v.phase, v.spaces, v.players, v.unfed, v.to_act) for v in views}) == 1
    for event in events:
        assert CODEC.decode_event(CODEC.encode(event)) == event
        assert all(GAME.redact(event, viewer) == event for viewer in [*range(state.seats), None])


def check_refused_unchanged(table: Table, earlier: list[Command], rng: random.Random) -> None:
    state = table.state
    (seat,) = table.to_act()
    legal = GAME.legal_commands(state, seat)
    for command in rng.sample(earlier, min(3, len(earlier))):
        if command in legal:
            continue
        try:
            GAME.decide(state, seat, command, table.chance_for(b"unused", "unused"))
        except RuleViolation as refusal:
            assert refusal.rule_id.startswith("wind-river.")
        else:
            raise AssertionError(f"{command} was accepted but not listed as legal")
        assert table.state == state


def play(seats: int, seed: int, eastward: bool = False) -> tuple[Table, list[Played]]:
    rng = random.Random(seed)
    game_id, secret = f"random-{seed}", seed.to_bytes(8, "big") * 2
    table, played = Table.open(GAME, Options(), seats, game_id=game_id, seed=secret)
    earlier: list[Command] = []
    for _ in range(MAX_COMMANDS):
        if table.outcome().finished:
            return table, played
        (seat,) = table.to_act()
        commands = list(GAME.legal_commands(table.state, seat))
        assert len(commands) >= 2, "a single possibility is the referee's to make"
        check_refused_unchanged(table, earlier, rng)
        command = pick(commands, rng, eastward)
        earlier.append(command)
        new = table.play(seat, command, table.chance_for(secret, game_id))
        played += new
        check_invariants(table.state)
        check_seen_alike(table.state, [item.event for item in new])
    raise AssertionError(f"not finished after {MAX_COMMANDS} commands")


@settings(max_examples=60)
@given(seats=st.sampled_from([3, 4]), seed=st.integers(0, 2**32), eastward=st.booleans())
def test_random_games_end_conserve_and_replay(seats: int, seed: int, eastward: bool) -> None:
    table, played = play(seats, seed, eastward)
    state = table.state
    assert isinstance(state, State) and state.finished and state.board_empty
    assert Table.replay(GAME, played).state == state
    into_plains = [0] * seats
    for item in played:
        if isinstance(item.event, TeepeeMoved) and item.event.to == "open-plains":
            into_plains[item.event.seat] += 1
    assert tuple(into_plains) == state.plains == table.outcome().scores
    best = max(zip(state.plains, state.resources, strict=True))
    winners = [s for s in range(seats) if (state.plains[s], state.resources[s]) == best]
    assert list(table.outcome().winners) == winners

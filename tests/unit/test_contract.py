"""Every game of the registry held to the kernel's contract, with no code of its own here: a game
is held to it the moment it is registered.

For every kind at every seat count it allows, random legal games are played to the end through
the kernel's Table, and at every step:
- the seats in `to_act` have legal commands and every other seat has none; an unfinished game
  always waits for somebody;
- listed commands (a sample when the list is long) are accepted by `decide`, which leaves the
  state as it was;
- commands that were legal earlier but are not listed now are refused with a rule id of the
  kind ("<kind>.<rule>") and a sentence, and change nothing;
- every event survives the codec, and every view encodes;
and at the end the replay of the events equals the live table and the outcome is consistent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import REGISTRY
from referee.kernel import Codec, GameOver, RuleViolation, Table
from referee.kernel.registry import AnyGame
from tests.unit.corners import check_who_may_act

MAX_COMMANDS = 30_000  # a guard against a game that never ends, far above any seen
LISTED_SAMPLE = 4  # listed commands decided at each step besides the one played
REFUSED_SAMPLE = 3  # earlier commands tried again at each step

CASES = [(game.kind, seats) for game in REGISTRY for seats in game.seat_counts]


def sample(commands: Sequence[Any], count: int, rng: random.Random) -> list[Any]:
    """Up to `count` commands drawn by index: a lazy legal space is never built whole."""
    if len(commands) <= count:
        return list(commands)
    return [commands[rng.randrange(len(commands))] for _ in range(count)]


class Contract:
    """One game played at random, checked at every step."""

    def __init__(self, game: AnyGame, seats: int, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.secret = seed.to_bytes(16, "big")
        self.game_id = f"contract-{game.kind}-{seats}-{seed}"
        self.codec = Codec(game)
        self.table, self.played = Table.open(
            game, game.options_type(), seats, game_id=self.game_id, seed=self.secret
        )
        self.earlier: list[tuple[int, Any]] = []

    def chance(self) -> Any:
        return self.table.chance_for(self.secret, self.game_id)

    def check_listed_are_accepted(self, seat: int, listed: Sequence[Any]) -> None:
        state = self.table.state
        before = msgspec.json.encode(state)
        for command in sample(listed, LISTED_SAMPLE, self.rng):
            events = self.game.decide(state, seat, command, self.chance())
            assert events, f"{command} was accepted but caused nothing"
        assert msgspec.json.encode(self.table.state) == before, "decide changed the state"

    def check_refusals_change_nothing(self, seat: int, listed: Sequence[Any]) -> None:
        tried = [command for owner, command in self.earlier if owner == seat]
        for command in sample(tried, REFUSED_SAMPLE, self.rng):
            if command in listed:
                continue
            state, version = self.table.state, self.table.version
            with pytest.raises(RuleViolation) as refused:
                self.table.play(seat, command, self.chance())
            assert refused.value.rule_id.startswith(f"{self.game.kind}."), refused.value.rule_id
            assert refused.value.message
            assert self.table.state == state and self.table.version == version

    def step(self) -> None:
        check_who_may_act(self.table)
        seat = self.rng.choice(sorted(self.table.to_act()))
        listed = self.game.legal_commands(self.table.state, seat)
        self.check_listed_are_accepted(seat, listed)
        self.check_refusals_change_nothing(seat, listed)
        command = listed[self.rng.randrange(len(listed))]
        self.earlier.append((seat, command))
        new = self.table.play(seat, command, self.chance())
        for item in new:
            assert self.codec.decode_event(self.codec.encode(item.event)) == item.event
        for viewer in [*range(self.table.seats), None]:
            msgspec.json.encode(self.game.view(self.table.state, viewer))
        self.played += new

    def play_to_the_end(self) -> None:
        for _ in range(MAX_COMMANDS):
            if self.table.outcome().finished:
                return
            self.step()
        pytest.fail(f"{self.game.kind} not finished after {MAX_COMMANDS} commands")


@pytest.mark.parametrize(("kind", "seats"), CASES, ids=[f"{k}-{s}" for k, s in CASES])
@settings(max_examples=2)
@given(seed=st.integers(0, 2**64))
def test_random_legal_games_hold_the_contract(kind: str, seats: int, seed: int) -> None:
    contract = Contract(REGISTRY[kind], seats, seed)
    contract.play_to_the_end()
    table = contract.table
    assert table.to_act() == frozenset()
    assert all(len(table.game.legal_commands(table.state, s)) == 0 for s in range(seats))
    with pytest.raises(GameOver):
        command = contract.earlier[-1][1]
        table.play(contract.earlier[-1][0], command, contract.chance())
    assert Table.replay(table.game, contract.played).state == table.state
    outcome = table.outcome()
    ranked = [seat for place in outcome.ranking for seat in place]
    assert sorted(ranked) == list(range(seats)) or not ranked
    assert set(outcome.winners) <= set(outcome.ranking[0] if outcome.ranking else ())
    assert outcome.scores is None or len(outcome.scores) == seats


def test_every_kind_is_covered_at_every_seat_count() -> None:
    assert {kind for kind, _ in CASES} == set(REGISTRY.kinds())
    assert len(CASES) == sum(len(game.seat_counts) for game in REGISTRY) >= 12


def test_a_replay_of_any_prefix_equals_the_live_state_at_that_point() -> None:
    """Replay is a fold: the events up to a point rebuild the state the live game had there."""
    for game in REGISTRY:
        contract = Contract(game, game.seat_counts[0], 7)
        snapshots = {contract.table.version: msgspec.json.encode(contract.table.state)}
        for _ in range(40):
            if contract.table.outcome().finished:
                break
            contract.step()
            snapshots[contract.table.version] = msgspec.json.encode(contract.table.state)
        assert len(snapshots) > 10
        for version, encoded in snapshots.items():
            replayed = Table.replay(game, contract.played[:version])
            assert replayed.version == version
            assert msgspec.json.encode(replayed.state) == encoded

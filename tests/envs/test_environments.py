"""Every kind as a PettingZoo environment (referee/envs), in process.

PettingZoo's own checks (`api_test`, `seed_test`) for every kind at every seat count; random
play to the end, each observation inside its space and every step's mask the seat's legal
commands; the game exported and played again by the kernel's Table to the same events; the
fixed action space written in each RULES.md; a refused action changing nothing; and a trivial
policy learning something.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from referee.envs import make
from referee.envs.actions import Choice, IllegalAction, OutsideActionSpace
from referee.envs.docs import main as docs_main
from referee.envs.env import RefereeEnv, action_space_of, ranking_reward
from referee.envs.local import LocalGame, Record
from referee.envs.policies import Uniform, play_episode, train
from referee.games import REGISTRY
from referee.kernel.chance import Chance
from referee.kernel.contract import RuleViolation
from referee.kernel.table import Table

SEATINGS = [(game.kind, seats) for game in REGISTRY for seats in game.seat_counts]
# PettingZoo's checks warn of what suits pixel games (an observation that is no NumPy array,
# a space that is no Box); ours are structured on purpose (referee/envs/observations.py).
ADVISORY = "ignore::UserWarning"


def local(env: RefereeEnv) -> LocalGame:
    backend = env.backend
    assert isinstance(backend, LocalGame)
    return backend


@pytest.mark.filterwarnings(ADVISORY)
@pytest.mark.parametrize(("kind", "seats"), SEATINGS)
def test_pettingzoo_api_and_seed_tests_pass(kind: str, seats: int) -> None:
    api_test(make(kind, seats), num_cycles=60)
    seed_test(lambda: make(kind, seats), num_cycles=60)


def play_to_the_end(env: RefereeEnv, seed: int, check: bool = True) -> dict[str, float]:
    """Random legal tokens to the end; at every step, the observation in its space and the
    selected seat's mask exactly the first tokens of its legal commands."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter(max_iter=200_000):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = float(reward)
            env.step(None)
            continue
        if check:
            assert env.observation_space(agent).contains(observation), agent
            assert info["rules_version"] == env.metadata["rules_version"]
            assert info["kind"] == env.metadata["kind"]
            if not observation["taken"]:  # a new decision: its first tokens
                seat = int(agent.removeprefix("player_"))
                legal = local(env).legal(seat)
                firsts = {env.actions.tokens(command)[0] for command in legal}
                assert set(np.flatnonzero(observation["action_mask"])) == firsts
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not env.agents, "the game did not end"
    return rewards


# One game a kind and seat count a run (fifteen in all, each replayed by the referee): the
# api_test above and the leak test play many more, without the replay.
@settings(max_examples=1, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
@pytest.mark.parametrize(("kind", "seats"), SEATINGS)
def test_random_play_ends_and_the_referee_replays_it(kind: str, seats: int, seed: int) -> None:
    env = make(kind, seats)
    rewards = play_to_the_end(env, seed)
    game = local(env)
    outcome = game.outcome()
    assert outcome.finished
    assert len(rewards) == seats
    assert abs(sum(rewards.values())) < 1e-9  # the ranking reward is zero-sum
    for agent, reward in rewards.items():
        seat = int(agent.removeprefix("player_"))
        assert reward == ranking_reward(outcome.ranking, seat, seats)
    # The record, through JSON as a client would keep it, played again by the referee's Table.
    record = msgspec.json.decode(msgspec.json.encode(game.record()), type=Record)
    replayed = replay_record(record)
    assert replayed.events == game.events
    assert replayed.state == game.table.state


class Replayed(msgspec.Struct):
    events: list[msgspec.Struct]
    state: msgspec.Struct


def replay_record(record: Record) -> Replayed:
    rules = REGISTRY.rules(record.kind, record.rules_version)
    options = msgspec.json.decode(record.options, type=rules.options_type)
    seed = bytes.fromhex(record.seed_hex)
    table, played = Table.open(
        rules,
        options,
        record.seats,
        game_id=record.game_id,
        seed=seed,
        seed_chosen_by_creator=record.seed_chosen_by_creator,
    )
    chance: Chance = table.chance_for(seed, record.game_id)
    decode = msgspec.json.Decoder(rules.command_type)
    for item in record.commands:
        played += table.play(item.seat, decode.decode(item.command), chance)
        played += table.close(seed)
    folded = Table.replay(rules, played)  # the fold of the events equals the live table
    assert folded.state == table.state
    return Replayed([item.event for item in played], table.state)


@pytest.mark.parametrize("kind", [game.kind for game in REGISTRY])
def test_every_legal_command_is_one_path_of_tokens(kind: str) -> None:
    """Along a random game, each legal command's tokens lead to it and to no other."""
    env = make(kind)
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        seat = int(env.agent_selection.removeprefix("player_"))
        legal = list(local(env).legal(seat))
        for command in rng.sample(legal, min(len(legal), 50)):
            choice = Choice(env.actions, legal)
            tokens = env.actions.tokens(command)
            assert [choice.take(token) for token in tokens][-1] == command
        env.step(env.actions.tokens(rng.choice(legal))[0])
        while env.observe(env.agent_selection)["taken"]:  # finish the command at random
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(list(np.flatnonzero(mask)))))


def test_an_index_means_one_value_always() -> None:
    coyote = action_space_of(REGISTRY["coyote"])
    assert coyote.meaning(0) == "command = coyote.bid"
    assert coyote.meaning(4) == "coyote.bid.number = 1"
    bid = msgspec.convert({"type": "coyote.bid", "number": 7}, REGISTRY["coyote"].command_type)
    assert coyote.tokens(bid) == (0, 10, 1007, 1014)  # no power, no target: "null" each
    with pytest.raises(OutsideActionSpace, match=r"coyote\.bid\.target = 6"):
        far = msgspec.structs.replace(bid, power="take-a-card", target=6)
        coyote.tokens(far)


def test_each_rules_md_holds_its_kinds_action_table() -> None:
    assert docs_main(["--check"]) == 0, "python -m referee.envs.docs"


def test_an_action_the_mask_refuses_is_refused_and_changes_nothing() -> None:
    env = make("coyote", 3)
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)
    refused = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="leads to no legal command"):
        env.step(refused)
    with pytest.raises(IllegalAction, match="outside the space"):
        env.step(env.actions.size)
    after = env.observe(agent)
    assert env.agent_selection == agent and local(env).commands == []
    assert np.array_equal(after["action_mask"], before["action_mask"])
    assert after["taken"] == before["taken"]


def test_a_command_of_several_tokens_is_asked_of_one_agent() -> None:
    env = make("coyote", 3)
    env.reset(seed=11)
    agent = env.agent_selection
    env.step(0)  # coyote.bid: a number, a power and a target follow
    observation = env.observe(agent)
    assert env.agent_selection == agent and observation["taken"] == (0,)
    numbers = np.flatnonzero(observation["action_mask"])
    assert {env.actions.meaning(int(index)).split(" = ")[0] for index in numbers} == {
        "coyote.bid.number"
    }
    env.step(int(numbers[0]))
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))  # power: null
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[-1]))  # target: null
    assert env.agent_selection != agent
    assert local(env).commands[0][1] == msgspec.convert(
        {"type": "coyote.bid", "number": 1}, REGISTRY["coyote"].command_type
    )


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    first, again, other = make("tribu", 3), make("tribu", 3), make("tribu", 3)
    first.reset(seed=1)
    again.reset(seed=1)
    other.reset(seed=2)
    assert local(first).events == local(again).events
    assert local(first).events != local(other).events


def test_a_seat_count_or_options_the_kind_refuses_are_refused_as_the_api_refuses_them() -> None:
    with pytest.raises(RuleViolation, match="Coyote is played by 3, 4, 5, 6 players, not 9"):
        make("coyote", 9)
    with pytest.raises(msgspec.ValidationError, match="feathers"):
        make("coyote", 3, options={"feathers": "many"})
    with pytest.raises(ValueError, match="coyote has no option colour"):
        make("coyote", 3, options={"colour": "red"})


def test_the_rules_version_is_in_the_metadata() -> None:
    for game in REGISTRY:
        env = make(game.kind)
        assert env.metadata["rules_version"] == game.version
        assert env.metadata["kind"] == game.kind


def test_a_trivial_policy_learns_to_beat_random_seats() -> None:
    """Deterministic: the same seeds train the same weights and play the same games."""
    env = make("coyote", 3)
    policy = train(env, episodes=200, seed=1)

    def mean_reward(learner: Any) -> float:
        total = 0.0
        for game in range(100):
            players: dict[str, Any] = {
                agent: Uniform(game * 10 + i) for i, agent in enumerate(env.possible_agents)
            }
            players["player_0"] = learner
            total += play_episode(env, players, seed=50_000 + game)["player_0"]
        return total / 100

    trained, uniform = mean_reward(policy), mean_reward(Uniform(7))
    assert trained > uniform + 0.3, (trained, uniform)


def test_a_score_reward_is_the_games_own_score() -> None:
    env = make("wind-river", 3, reward="score")
    rewards = play_to_the_end(env, 4, check=False)
    scores = local(env).outcome().scores
    assert scores is not None
    assert [rewards[f"player_{seat}"] for seat in range(3)] == list(map(float, scores))
    with pytest.raises(ValueError, match="coyote keeps no score"):
        make("coyote", 3, reward="score")
    with pytest.raises(ValueError, match='reward is "ranking" or "score", not \'win\''):
        make("tribu", 3, reward="win")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "said"),
    [(0.7, "0.7"), (True, "True"), ("0", "'0'"), (np.array([0]), "array")],
)
def test_an_action_is_one_int_and_nothing_taken_for_one(action: Any, said: str) -> None:
    env = make("coyote", 3)
    env.reset(seed=1)
    with pytest.raises(TypeError, match=f"an action is one int .*{said}"):
        env.step(action)
    assert env.observe(env.agent_selection)["taken"] == ()
    env.step(np.int32(0))  # numpy integers, 0-d arrays too, are ints
    env.step(np.array(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])))
    assert len(env.observe(env.agent_selection)["taken"]) == 2


def test_seats_are_an_int_a_numpy_one_too() -> None:
    env = make("tribu", np.int64(3))
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    for seats in (3.0, "3"):
        with pytest.raises(TypeError, match="seats is one int"):
            make("tribu", seats)  # type: ignore[arg-type]


def test_resets_after_a_seeded_one_go_on_from_its_seed() -> None:
    """As gymnasium's environments: reset(seed=s) then reset(), reset()... is one sequence."""
    first, second = make("coyote", 3), make("coyote", 3)
    deals = []
    for env in (first, second):
        env.reset(seed=7)
        games = [local(env).events]
        for _ in range(2):
            env.reset()
            games.append(local(env).events)
        deals.append(games)
    assert deals[0] == deals[1]
    assert deals[0][1] != deals[0][2] != deals[0][0]
    with pytest.raises(TypeError, match="seed is one int"):
        first.reset(seed=7.0)  # type: ignore[arg-type]


def test_reset_options_are_checked() -> None:
    env = make("coyote", 3)
    with pytest.raises(ValueError, match="seed_hex is 16 to 64 bytes in hex"):
        env.reset(options={"seed_hex": "abcd"})
    with pytest.warns(UserWarning, match="reset options ignored: \\['speed'\\]"):
        env.reset(seed=1, options={"speed": 2})


def test_max_commands_truncates_and_is_at_least_one() -> None:
    with pytest.raises(ValueError, match="max_commands is at least 1"):
        make("coyote", 3, max_commands=0)
    env = make("tribu", 2, max_commands=3)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.commands_played == 3


def test_an_environment_not_reset_says_so() -> None:
    env = make("coyote", 3)
    with pytest.raises(RuntimeError, match="reset the environment first"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset the environment first"):
        env.observe("player_0")


def test_a_policy_refuses_a_kind_it_was_not_trained_on() -> None:
    policy = train(make("coyote", 3), episodes=2, seed=1)
    env = make("wind-river", 3)
    env.reset(seed=1)
    observation, _, _, _, info = env.last()
    with pytest.raises(ValueError, match="trained on coyote, not wind-river"):
        policy(observation, info)

"""The hidden-card differential over the environments' observations: a seat's observation, mask
and info tell nothing its view does not.

At random moments of random games of every kind and seat count, the seat to act and a seat not
to act each get their observation twice: from the real game, and from another game its kind's
`imagine` deals from that seat's own view (every card the seat cannot see dealt again at
random). The two games differ in hidden cards only; every output of the environment for that
seat (the view's point in its space, the action mask, the tokens taken, the info, and every
legal command's path of tokens, from which each mask of the decision is read) must be equal.
A control: the same comparison for a seat that *can* see the redealt cards differs somewhere
over the run, or the test would prove nothing (Wind River hides nothing: there, nothing is
redealt).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from referee.envs import make
from referee.envs.actions import Choice
from referee.envs.env import RefereeEnv
from referee.envs.local import LocalGame
from referee.games import REGISTRY
from tests.envs.test_environments import SEATINGS

PERFECT_INFORMATION = {"wind-river"}  # nothing to hide: every seat's view is the whole state


def outputs(env: RefereeEnv, agent: str) -> dict[str, Any]:
    """All the environment gives `agent`, worked out afresh from the game's state as it does
    after a command: the view's point, the mask of a new decision, the info."""
    env._forget_views()
    paths: list[tuple[int, ...]] = []
    if agent == env.agent_selection:
        seat = int(agent.removeprefix("player_"))
        legal = env.backend.legal(seat)
        env._choice = Choice(env.actions, legal)
        # Every mask of the decision, token after token, is read off these paths.
        paths = sorted(env.actions.tokens(command) for command in legal)
    env._inform()
    return {"observation": env.observe(agent), "info": dict(env.infos[agent]), "paths": paths}


def same(first: Any, second: Any) -> bool:
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(same(first[k], second[k]) for k in first)
    if isinstance(first, tuple | list):
        return len(first) == len(second) and all(map(same, first, second))
    return bool(np.array_equal(first, second))


@pytest.mark.parametrize(("kind", "seats"), SEATINGS)
def test_an_observation_tells_nothing_of_the_hidden_cards(kind: str, seats: int) -> None:
    rules = REGISTRY[kind]
    imagine = rules.imagine
    rng = random.Random(f"{kind}-{seats}")
    env = make(kind, seats)
    env.reset(seed=rng.randrange(2**32))
    backend = env.backend
    assert isinstance(backend, LocalGame)
    compared = differed = redealt = 0
    for _ in range(400):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        if rng.random() < 0.3 and not env.observe(env.agent_selection)["taken"]:
            for agent in {env.agent_selection, rng.choice(env.possible_agents)}:
                seat = int(agent.removeprefix("player_"))
                real = backend.table.state
                before = outputs(env, agent)
                dreamt = imagine(rules.view(real, seat), seat, rng)
                backend.table.state = dreamt
                redealt += dreamt != real
                try:
                    assert same(before, outputs(env, agent)), (kind, seats, agent)
                    watcher = f"player_{(seat + 1) % seats}"
                    differed += not same(outputs(env, watcher), with_state(env, real, watcher))
                finally:
                    backend.table.state = real
                    outputs(env, env.agent_selection)  # the real game's mask and views again
                compared += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert compared > 5
    if kind in PERFECT_INFORMATION:
        assert redealt == 0, "a game with nothing hidden redealt something"
    else:
        assert differed > 0, "the control never saw a redealt card: the test proves nothing"


def with_state(env: RefereeEnv, state: Any, agent: str) -> dict[str, Any]:
    backend = env.backend
    assert isinstance(backend, LocalGame)
    kept = backend.table.state
    backend.table.state = state
    try:
        return outputs(env, agent)
    finally:
        backend.table.state = kept
        outputs(env, env.agent_selection)

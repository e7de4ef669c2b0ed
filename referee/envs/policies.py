"""Policies for the environments: a uniform random one, and the simplest that learns.

A policy is any callable `(observation, info) -> action` (referee/envs/env.py says what they
hold); `referee bot --policy module:name` plays one on a live game. `Preferences` is a trivial
learner for the README's guide: one weight per action of the kind's space, a softmax over the
tokens the mask allows, trained by REINFORCE with a running baseline against random seats. It
ignores the view, and still learns what pays in a kind (in Coyote: calling "Coyote!" on a wild
bid, bidding low); anything serious starts from the observation instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from referee.envs.env import RefereeEnv

Policy = Callable[[dict[str, Any], dict[str, Any]], int]


class Uniform:
    """A legal token at random."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        return int(self._rng.choice(np.flatnonzero(observation["action_mask"])))


class _Saved(msgspec.Struct, frozen=True):
    kind: str
    weights: list[float]


class Preferences:
    """A weight per action; plays the best legal token (or samples, while learning)."""

    def __init__(self, kind: str, size: int, weights: np.ndarray | None = None) -> None:
        self.kind = kind
        self.weights = np.zeros(size) if weights is None else weights

    def __call__(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        if info.get("kind", self.kind) != self.kind or len(observation["action_mask"]) != len(
            self.weights
        ):
            raise ValueError(f"this policy was trained on {self.kind}, not {info.get('kind')}")
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[np.argmax(self.weights[legal])])

    def probabilities(self, legal: np.ndarray) -> np.ndarray:
        logits = self.weights[legal] - self.weights[legal].max()
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum())

    def sample(self, observation: dict[str, Any], rng: np.random.Generator) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(rng.choice(legal, p=self.probabilities(legal)))

    def save(self, path: Path | str) -> None:
        saved = _Saved(self.kind, [float(weight) for weight in self.weights])
        Path(path).write_bytes(msgspec.json.encode(saved))

    @classmethod
    def load(cls, path: Path | str) -> Preferences:
        saved = msgspec.json.decode(Path(path).read_bytes(), type=_Saved)
        return cls(saved.kind, len(saved.weights), np.asarray(saved.weights))


def play_episode(
    env: RefereeEnv,
    policies: dict[str, Policy],
    *,
    seed: int | None = None,
) -> dict[str, float]:
    """One game, each agent played by its policy: every agent's final reward."""
    env.reset(seed=seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent] = float(reward)
            env.step(None)
        else:
            env.step(policies[agent](observation, info))
    return rewards


def train(
    env: RefereeEnv,
    *,
    episodes: int,
    seed: int = 0,
    learner: str = "player_0",
    rate: float = 0.1,
) -> Preferences:
    """REINFORCE for `learner`, every other seat random; the same seed learns the same."""
    rng = np.random.default_rng(seed)
    policy = Preferences(env.backend.rules.kind, env.actions.size)
    others = Uniform(seed)
    baseline = 0.0
    for episode in range(episodes):
        env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[np.ndarray, int]] = []
        final = 0.0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                final = float(reward) if agent == learner else final
                env.step(None)
                continue
            if agent == learner:
                action = policy.sample(observation, rng)
                steps.append((np.flatnonzero(observation["action_mask"]), action))
            else:
                action = others(observation, info)
            env.step(action)
        advantage = final - baseline
        baseline += 0.05 * (final - baseline)
        for legal, action in steps:
            gradient = -policy.probabilities(legal)
            gradient[np.searchsorted(legal, action)] += 1.0
            policy.weights[legal] += rate * advantage * gradient
    return policy

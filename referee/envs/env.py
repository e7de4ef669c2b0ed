"""A kind of game as a PettingZoo AEC environment, on the rules the referee enforces.

The environment plays through a *backend*: `LocalGame` (referee/envs/local.py) holds every seat
of a game in this process, on the kernel's `Table`; `api.envseat` drives one seat of a live game
over HTTP. Either way the environment only spells: the seats to act, their views and their legal
commands come from the backend, which has them from the kernel.

- Agents are `player_<seat>`. The agent selected is the lowest seat to act: a simultaneous
  choice (Big Manitou) or an answer out of turn (Tribù's defence) is asked of each seat in
  seat order, each seeing only its own view.
- An action is one token of the kind's action space (referee/envs/actions.py); a command of
  several tokens is asked of the same agent token by token, and played when it is complete.
- The observation is `{"view": the seat's view, "action_mask": the tokens that lead to a legal
  command (all zero for an agent not selected), "taken": the tokens of the command so far}`;
  the info holds `view_json`, the view as the API shows it, the `kind` and `rules_version`.
- The reward is 0 until the game is over; then, from the kind's ranking,
  `(seats placed below - seats placed above) / (seats - 1)`: 1 alone first, -1 alone last, 0
  for a place shared by everyone (each kind's `actions.py` says how it ranks). `reward="score"`
  gives the game's final score instead, for the kinds that keep one (their `actions.py` says
  what it is; `make` refuses it for the others).
"""

from __future__ import annotations

import functools
import importlib
import operator
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import gymnasium.spaces as spaces
import msgspec
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from referee.envs.actions import ActionSpace, Choice
from referee.envs.bounds import ActionBounds
from referee.envs.observations import view_space
from referee.kernel.contract import Game, Outcome, Seat

Reward = Literal["ranking", "score"]
AnyGame = Game[Any, Any, Any, Any]


class Backend(Protocol):
    """Where the game is played: in process, or a seat of a live game."""

    @property
    def rules(self) -> AnyGame: ...
    @property
    def seats(self) -> int: ...
    @property
    def played_seats(self) -> tuple[Seat, ...]:
        """The seats the environment plays (all of them in process, one over HTTP)."""
        ...

    def start(self, seed: int | None, options: dict[str, Any] | None) -> None: ...
    def to_act(self) -> frozenset[Seat]: ...
    def view(self, seat: Seat) -> msgspec.Struct: ...
    def legal(self, seat: Seat) -> Sequence[msgspec.Struct]: ...
    def play(self, seat: Seat, command: msgspec.Struct) -> None: ...
    def outcome(self) -> Outcome: ...
    def close(self) -> None: ...


@functools.cache
def bounds_of(kind: str) -> ActionBounds:
    """The kind's `actions.py`: its package is the kind's name with underscores."""
    module = importlib.import_module(f"referee.games.{kind.replace('-', '_')}.actions")
    bounds: ActionBounds = module.ACTIONS
    return bounds


_SPACES: dict[tuple[str, str], ActionSpace] = {}


def action_space_of(rules: AnyGame) -> ActionSpace:
    """One per kind and rules version, made once: a command's tokens are cached in it."""
    key = (rules.kind, rules.version)
    if key not in _SPACES:
        _SPACES[key] = ActionSpace(rules.command_type, bounds_of(rules.kind))
    return _SPACES[key]


class RefereeEnv(AECEnv[str, dict[str, Any], int]):
    """One game of a kind, seat by seat (see the module's docstring)."""

    def __init__(
        self,
        backend: Backend,
        *,
        reward: Reward = "ranking",
        render_mode: str | None = None,
        max_commands: int | None = None,
    ) -> None:
        super().__init__()
        rules = backend.rules
        bounds = bounds_of(rules.kind)
        if reward not in ("ranking", "score"):
            raise ValueError(f'reward is "ranking" or "score", not {reward!r}')
        if reward == "score" and bounds.score is None:
            raise ValueError(f'{rules.kind} keeps no score: its reward is "ranking"')
        if max_commands is not None and index_of(max_commands, "max_commands") < 1:
            raise ValueError(f"max_commands is at least 1 (None: no limit), not {max_commands}")
        self.backend = backend
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.max_commands = max_commands
        self.actions = action_space_of(rules)
        self.metadata = {
            "name": f"referee_{rules.kind.replace('-', '_')}_v0",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "kind": rules.kind,
            "rules_version": rules.version,
            "seats": backend.seats,
            "actions": self.actions.size,
        }
        self.possible_agents = [f"player_{seat}" for seat in backend.played_seats]
        self._seat = dict(zip(self.possible_agents, backend.played_seats, strict=True))
        view, self._encode_view = view_space(rules.view_type)
        self._view_json = msgspec.json.Encoder()
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "view": view,
                    "action_mask": spaces.MultiBinary(self.actions.size),
                    "taken": spaces.Sequence(spaces.Discrete(self.actions.size)),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self._choice: Choice | None = None
        # A seat's view changes with commands only: read once per seat and command, for the
        # observation's point and the info's JSON both (`_forget_views` after each command).
        self._views: dict[str, msgspec.Struct] = {}
        self._points: dict[str, Any] = {}
        self._seeds: np.random.Generator | None = None  # after a seeded reset: the next deals
        self.commands_played = 0

    # -- the PettingZoo interface ---------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the same deal for the same `seed`. Without one, the next of the seeds
        drawn from the last seed given (as gymnasium's environments do), or a deal at random if
        none was ever given. `options` may hold `seed_hex` and `game_id`, to play the very game
        the referee deals under that seed and id (see `LocalGame`)."""
        if seed is not None:
            seed = index_of(seed, "seed")
            self._seeds = np.random.default_rng(seed)
        elif self._seeds is not None:
            seed = int(self._seeds.integers(2**63))
        self.backend.start(seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.commands_played = 0
        self._skip_agent_selection = None
        self._next()

    def observe(self, agent: str) -> dict[str, Any]:
        self._check_reset()
        choice = self._choice if agent == self.agent_selection else None
        view = self._points.get(agent)
        if view is None:
            view = self._points[agent] = self._encode_view(self._view(agent))
        return {
            "view": view,
            "action_mask": (
                choice.mask() if choice is not None else np.zeros(self.actions.size, np.int8)
            ),
            "taken": tuple(choice.taken) if choice is not None else (),
        }

    def step(self, action: int | None) -> None:
        self._check_reset()
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left: reset for another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or self._choice is None:
            raise ValueError(f"{agent} is to act: its action is an index of the action space")
        token = index_of(action, "an action")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        command = self._choice.take(token)
        if command is not None:
            self.backend.play(self._seat[agent], command)
            self.commands_played += 1
            self._next()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The selected seat's view, as JSON (`render_mode="ansi"`)."""
        if self.render_mode != "ansi" or not self.agents:
            return None
        return str(self.infos[self.agent_selection].get("view_json", ""))

    def close(self) -> None:
        self.backend.close()

    def _view(self, agent: str) -> msgspec.Struct:
        view = self._views.get(agent)
        if view is None:
            view = self._views[agent] = self.backend.view(self._seat[agent])
        return view

    def _forget_views(self) -> None:
        self._views.clear()
        self._points.clear()

    def _check_reset(self) -> None:
        if not hasattr(self, "agent_selection"):
            raise RuntimeError("reset the environment first")

    # -- moving on ------------------------------------------------------------------------------

    def _next(self) -> None:
        """After a command: the next agent and its choice, or the rewards of the end."""
        outcome = self.backend.outcome()
        self._choice = None
        self._forget_views()
        if outcome.finished:
            self._end(outcome)
        elif self.max_commands is not None and self.commands_played >= self.max_commands:
            self.truncations = {agent: True for agent in self.agents}
        else:
            ours = self.backend.to_act() & set(self.backend.played_seats)
            if not ours:  # the contract: a game not over has a seat to act
                raise RuntimeError("the game is not over and none of its seats here is to act")
            seat = min(ours)
            self.agent_selection = f"player_{seat}"
            self._choice = Choice(self.actions, self.backend.legal(seat))
        self._inform()

    def _end(self, outcome: Outcome) -> None:
        for agent in self.agents:
            self.rewards[agent] = self._reward(outcome, self._seat[agent])
            self.terminations[agent] = True
        self.infos = {agent: {} for agent in self.agents}

    def _reward(self, outcome: Outcome, seat: Seat) -> float:
        if self.reward_kind == "score" and outcome.scores is not None:
            return float(outcome.scores[seat])
        return ranking_reward(outcome.ranking, seat, self.backend.seats)

    def _inform(self) -> None:
        rules = self.backend.rules
        for agent in self.agents:
            self.infos[agent] = {
                "view_json": self._view_json.encode(self._view(agent)).decode(),
                "kind": rules.kind,
                "rules_version": rules.version,
            }
        if self.agents and self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]


def index_of(value: object, what: str) -> int:
    """An int, from an int or a numpy integer (a 0-d array too): never a float, a bool or a
    string quietly taken for one."""
    if not isinstance(value, bool | np.bool_):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise TypeError(f"{what} is one int (a numpy integer will do), not {value!r}")


def ranking_reward(ranking: Sequence[Sequence[Seat]], seat: Seat, seats: int) -> float:
    """(seats placed below - seats placed above) / (seats - 1), from a ranking best first."""
    above = 0
    for group in ranking:
        if seat in group:
            below = seats - above - len(group)
            return (below - above) / (seats - 1)
        above += len(group)
    return -1.0  # a seat the ranking leaves out is placed below everyone

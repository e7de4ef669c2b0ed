"""Every kind of game as a PettingZoo environment, on the rules the referee enforces.

    from referee.envs import make
    env = make("coyote", seats=4)           # an AEC environment, every seat in this process
    env.reset(seed=7)

`make` takes the kind's options as the API does (a dict, `GET /v1/kinds` lists them). The
environment (referee/envs/env.py), its action space (actions.py) and its observations
(observations.py) say what they hold; `api.envseat` plays one seat of a live game with the
same class. Needs the `envs` extra (pettingzoo, gymnasium, numpy): the service itself never
imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.envs.env import RefereeEnv, Reward


def make(
    kind: str,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    *,
    reward: Reward = "ranking",
    render_mode: str | None = None,
    max_commands: int | None = None,
) -> RefereeEnv:
    """A kind as an AEC environment: `seats` players (default: the fewest it allows), its
    options as the API takes them (default: the kind's defaults)."""
    import msgspec

    from referee.envs.env import RefereeEnv, index_of
    from referee.envs.local import LocalGame
    from referee.games import REGISTRY

    rules = REGISTRY[kind]
    seats = rules.min_seats if seats is None else index_of(seats, "seats")
    known = {field.encode_name for field in msgspec.structs.fields(rules.options_type)}
    if unknown := sorted(set(options or {}) - known):  # a misspelt option must not pass silently
        raise ValueError(f"{kind} has no option {', '.join(unknown)}: its options are {known}")
    chosen = msgspec.convert(options or {}, rules.options_type)
    backend = LocalGame(rules, seats, chosen)
    return RefereeEnv(backend, reward=reward, render_mode=render_mode, max_commands=max_commands)


__all__ = ["make"]

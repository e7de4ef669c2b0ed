"""Random play in the referee.envs environments, in process: steps and commands per second.

    .venv/bin/python -m tests.bench.envs_bench                 # every kind, 10 s each
    .venv/bin/python -m tests.bench.envs_bench --seconds 3 --kind coyote

A *step* is one `env.step` (one token of the action space); a *command* is a whole move, which
may take several steps (a Coyote bid is four). The agent samples a legal token from the mask
(numpy), as PettingZoo's own tests do; the time includes the environment's observation of every
step (the view's point in its space, the mask) and the info's JSON view. Printed as a table,
then one JSON line. The server's figure to compare with is `make bench`'s moves per second
(tests/bench/RESULTS.md): a move there is a legal-commands read and a command over HTTP.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from referee.envs import make
from referee.games import REGISTRY


def measure(kind: str, seats: int, seconds: float) -> dict[str, float]:
    env = make(kind, seats)
    rng = np.random.default_rng(0)
    steps = commands = games = 0
    started = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - started < seconds:
        env.reset(seed=games)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        commands += env.commands_played
        games += 1
    wall = time.perf_counter() - started
    return {
        "steps_per_second": round(steps / wall),
        "commands_per_second": round(commands / wall),
        "games_per_second": round(games / wall, 2),
        "commands_per_game": round(commands / games, 1),
        "cpu_share": round((time.process_time() - cpu) / wall, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per kind (default 10)")
    parser.add_argument("--kind", action="append", help="only these kinds (default: every one)")
    args = parser.parse_args()
    results = {}
    for game in REGISTRY:
        if args.kind and game.kind not in args.kind:
            continue
        seats = game.seat_counts[len(game.seat_counts) // 2]
        results[f"{game.kind} x{seats}"] = measure(game.kind, seats, args.seconds)
        row = results[f"{game.kind} x{seats}"]
        print(
            f"{game.kind:>15} x{seats}: {row['steps_per_second']:>6} steps/s "
            f"{row['commands_per_second']:>6} commands/s {row['games_per_second']:>7} games/s "
            f"({row['commands_per_game']} commands a game, CPU {row['cpu_share']})"
        )
    load = os.getloadavg()[0]
    print(json.dumps({"load": round(load, 2), "seconds": args.seconds, "kinds": results}))


if __name__ == "__main__":
    main()

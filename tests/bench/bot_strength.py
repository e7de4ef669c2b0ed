"""How strong the greedy bot is, and how long it thinks: one greedy seat against random ones.

    .venv/bin/python -m tests.bench.bot_strength [--games 100] [--kind coyote] [--seats N]
        [--max-seconds 600]

In process, through the kernel's `Table`: per kind, `--games` games at the smallest table the
game allows (or `--seats`), one seat greedy (each game the next seat) and the others random,
played to the end. Prints, per kind, the greedy seat's win rate with its 95% Wilson interval
against the 1/seats a random seat would win, and the p50/p99/max time of one bot's choice
(`referee.kernel.bots.play`: view, legal commands, thought) per strategy. `--max-seconds` stops
a kind's games early (the figures then cover the games played). Not a test: the times depend
on the machine and its load. See tests/bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence

from referee.games import REGISTRY
from referee.kernel import Table
from referee.kernel.bots import Strategy, play
from referee.kernel.registry import AnyGame

MAX_COMMANDS = 30_000
Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate of `wins` in `games`."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def play_one(
    game: AnyGame, seats: int, number: int, think: dict[Strategy, list[float]]
) -> tuple[bool, int]:
    """One game, the greedy seat `number % seats`: whether it won, and the commands played."""
    rng = random.Random(f"strength-{game.kind}-{seats}-{number}")
    secret = number.to_bytes(16, "big")
    game_id = f"strength-{game.kind}-{seats}-{number}"
    table, _ = Table.open(game, game.options_type(), seats, game_id=game_id, seed=secret)
    greedy_seat = number % seats
    strategies: list[Strategy] = ["random"] * seats
    strategies[greedy_seat] = "greedy"
    for played in range(MAX_COMMANDS):
        to_act = sorted(table.to_act())
        if not to_act:
            return greedy_seat in table.outcome().winners, played
        seat = to_act[rng.randrange(len(to_act))]
        started = time.perf_counter()
        command = play(game, strategies[seat], table.state, seat, rng)
        think[strategies[seat]].append(time.perf_counter() - started)
        table.play(seat, command, table.chance_for(secret, game_id))
    raise AssertionError(f"{game.kind} did not end in {MAX_COMMANDS} commands")


def bench_kind(game: AnyGame, seats: int, games: int, max_seconds: float) -> dict[str, object]:
    think: dict[Strategy, list[float]] = {"random": [], "greedy": []}
    wins = played = commands = 0
    started = time.perf_counter()
    while played < games and time.perf_counter() - started < max_seconds:
        won, length = play_one(game, seats, played, think)
        wins += won
        commands += length
        played += 1
    low, high = wilson(wins, played)
    report: dict[str, object] = {
        "kind": game.kind,
        "seats": seats,
        "games": played,
        "greedy_wins": wins,
        "win_rate": round(wins / played, 3) if played else None,
        "ci95": [round(low, 3), round(high, 3)],
        "baseline": round(1 / seats, 3),
        "clearly_better": low > 1 / seats,
        "commands_per_game": round(commands / played, 1) if played else None,
        "seconds": round(time.perf_counter() - started, 1),
    }
    for strategy, times in think.items():
        report[f"{strategy}_think_ms"] = {
            "moves": len(times),
            "p50": round(1000 * percentile(times, 0.50), 2),
            "p99": round(1000 * percentile(times, 0.99), 2),
            "max": round(1000 * max(times, default=0.0), 2),
        }
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--kind", action="append", choices=[game.kind for game in REGISTRY])
    parser.add_argument("--seats", type=int, help="seats per game (default: the fewest allowed)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="per kind")
    args = parser.parse_args(argv)
    kinds = args.kind or [game.kind for game in REGISTRY]
    for kind in kinds:
        game = REGISTRY[kind]
        seats = args.seats if args.seats in game.seat_counts else game.min_seats
        print(json.dumps(bench_kind(game, seats, args.games, args.max_seconds)), flush=True)


if __name__ == "__main__":
    main()

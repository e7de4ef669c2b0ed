"""The server's bots cannot be used to burn it (issue 24): one anonymous request for a game with a
bot on every seat used to make the server play a whole game at once, 2 to 20 s of its CPU in
its API's event loop.

- Creating a game with bot seats spends one of the client's tokens (a bucket per client
  address and process, REFEREE_BOT_GAMES_PER_MINUTE and _BURST); past it 429 with
  Retry-After, and nothing is created. Games without bots are not counted.
- The bots of a process move one at a time and rest after each move (REFEREE_BOT_CPU_SHARE),
  so that games of bots still end, at the pace of their share (tests/unit/test_bot_pacer.py
  proves the pacing on its own clock; tests/bench/bot_load.py measures the players' commands
  while bot games run).
"""

from __future__ import annotations

import signal
import time

import httpx

from api.config import Settings
from tests.reliability.conftest import Serve

BOTS = [{"seat": seat, "strategy": "random"} for seat in range(3)]
GAME_PATIENCE = 300.0  # seconds for a paced game of random bots to end; never a measured time


def create(server_url: str, bots: list[dict[str, object]] | None = None) -> httpx.Response:
    body: dict[str, object] = {"kind": "coyote", "seats": 3}
    if bots:
        body["bots"] = bots
    return httpx.post(f"{server_url}/v1/games", json=body)


def newest_game(server_url: str) -> str:
    listed = httpx.get(f"{server_url}/v1/games", params={"limit": 1}).json()
    return str(listed["games"][0]["game_id"])


def test_the_defaults_limit_games_of_bots_and_pace_the_bots() -> None:
    defaults = Settings()
    assert defaults.bot_games_per_minute > 0 and defaults.bot_games_burst >= 1
    assert 0 < defaults.bot_cpu_share < 1


def test_games_with_bot_seats_are_limited_per_client(serve: Serve) -> None:
    server = serve(bot_games_per_minute=1, bot_games_burst=2)
    created = [create(server.url, BOTS) for _ in range(2)]
    assert [response.status_code for response in created] == [201, 201]
    before = newest_game(server.url)
    refused = create(server.url, [{"seat": 0, "strategy": "greedy"}])
    assert refused.status_code == 429, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["type"] == "urn:referee:problem:rate-limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "bot" in refused.json()["detail"]
    assert newest_game(server.url) == before == created[-1].json()["game_id"]  # none created
    assert create(server.url).status_code == 201  # a game of players is not counted


def test_a_game_of_paced_bots_still_ends(serve: Serve) -> None:
    server = serve(sweep_interval_seconds=1, bot_cpu_share=0.25)
    game = create(server.url, BOTS).json()["game_id"]
    deadline = time.monotonic() + GAME_PATIENCE
    while time.monotonic() < deadline:
        detail = httpx.get(f"{server.url}/v1/games/{game}").json()
        if detail["status"] == "finished":
            break
        time.sleep(0.5)
    assert detail["status"] == "finished", detail
    assert httpx.get(f"{server.url}/v1/games/{game}/audit").json()["verdict"] == "passed"


STOP_DEADLINE = 30.0  # seconds for a stop while bots play; a deadline, not a measurement


def test_a_server_busy_with_games_of_bots_stops_on_sigterm(serve: Serve) -> None:
    """A server playing greedy bots (Wind River's cost the most) stops cleanly on SIGTERM: the
    bots' visits are cancelled between moves (they did not stop within 15 s before)."""
    server = serve(sweep_interval_seconds=1, shutdown_grace_seconds=2, workers=2)
    bots = [{"seat": seat, "strategy": "greedy"} for seat in range(4)]
    for _ in range(4):
        body = {"kind": "wind-river", "seats": 4, "bots": bots}
        assert httpx.post(f"{server.url}/v1/games", json=body).status_code == 201
    time.sleep(2)  # the bots are at work
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=STOP_DEADLINE) == 0

"""The referee.envs environment on a live `referee serve` (api/envseat.py, `referee bot --policy`).

A policy trained in process plays one seat of a real game over HTTP against the server's own
bots, unchanged; `referee bot --policy` does the same from the command line and keeps the
seat's receipts; and a game played in the environment under a game's seed and id, sent to the
referee command by command, is the same game there: the same events, one by one.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import msgspec
import numpy as np
import pytest

from api.botclient import BotError
from api.envseat import seat_env
from referee.envs import make
from referee.envs.local import LocalGame
from referee.envs.policies import Preferences, Uniform, train
from referee.games import REGISTRY
from tests.servers import Server

REFEREE = Path(sys.executable).parent / "referee"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Coyote policy for seat 0 of three, trained in process, saved as a client would."""
    policy = train(make("coyote", 3), episodes=100, seed=2)
    path = tmp_path_factory.mktemp("policy") / "coyote.json"
    policy.save(path)
    return path


def create(url: str, kind: str, seats: int, **body: Any) -> dict[str, Any]:
    created = httpx.post(
        f"{url}/v1/games", json={"kind": kind, "seats": seats, "options": {}, **body}, timeout=30
    )
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    answer["tokens"] = {item["seat"]: item["token"] for item in answer["seat_tokens"]}
    return answer


def audit_passes(url: str, game_id: str) -> dict[str, Any]:
    report = httpx.get(f"{url}/v1/games/{game_id}/audit", timeout=120).json()
    assert report["verdict"] == "passed", report
    outcome: dict[str, Any] = report["outcome"]
    return outcome


def test_a_trained_policy_plays_a_seat_against_the_servers_bots(
    servers: list[Server], trained: Path, tmp_path: Path
) -> None:
    url = servers[0].url
    bots = [{"seat": seat, "strategy": "random"} for seat in (1, 2)]
    game = create(url, "coyote", 3, bots=bots)
    policy = Preferences.load(trained)
    env = seat_env(url, game["game_id"], game["tokens"][0])
    assert env.possible_agents == ["player_0"]
    assert env.metadata["rules_version"] == REGISTRY["coyote"].version
    env.reset()
    steps = 0
    final = None
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final = reward
            env.step(None)
            continue
        assert agent == "player_0"
        assert env.observation_space(agent).contains(observation)
        assert json.loads(info["view_json"])["viewer"] == 0
        env.step(policy(observation, info))
        steps += 1
    backend = env.backend
    summary = backend.summary()  # type: ignore[attr-defined]
    kept = backend.keep_receipts(tmp_path)  # type: ignore[attr-defined]
    env.close()
    outcome = audit_passes(url, game["game_id"])
    assert summary.outcome.finished and steps > 0
    assert (final == 1.0) == (0 in outcome["winners"])
    receipts = json.loads(kept.read_bytes())["receipts"]
    assert len(receipts) == summary.commands_sent + 1  # one a command, and the head's


def test_referee_bot_plays_a_policy_from_a_file(
    servers: list[Server], trained: Path, tmp_path: Path
) -> None:
    url = servers[0].url
    game = create(url, "coyote", 3, bots=[{"seat": 0}, {"seat": 2, "strategy": "random"}])
    policy = "referee.envs.policies:Preferences.load"
    run = subprocess.run(
        [
            *(str(REFEREE), "bot", "--url", url, "--game", game["game_id"]),
            *("--policy", policy, "--policy-file", str(trained), "--receipts", str(tmp_path)),
        ],
        env={"REFEREE_BOT_TOKEN": game["tokens"][1], "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    line = run.stdout.strip()
    assert line.startswith(f"coyote game {game['game_id']}: seat 1 "), line
    assert f"receipts kept in {tmp_path}" in line
    outcome = audit_passes(url, game["game_id"])
    assert ("seat 1 won" in line) == (1 in outcome["winners"])


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--policy", "referee.envs.policies:Uniform", "--strategy", "greedy"], "not both"),
        (["--policy-file", "x.json"], "only with --policy"),
    ],
)
def test_referee_bot_refuses_a_policy_with_what_does_not_go_with_it(
    arguments: list[str], said: str
) -> None:
    run = subprocess.run(
        [str(REFEREE), "bot", "--game", "g", "--token", "t", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and said in run.stderr, run.stderr


def test_referee_bot_says_a_policy_it_cannot_find(servers: list[Server]) -> None:
    game = create(servers[0].url, "coyote", 3)
    run = subprocess.run(
        [
            *(str(REFEREE), "bot", "--url", servers[0].url, "--game", game["game_id"]),
            *("--token", game["tokens"][0], "--policy", "referee.envs.policies:Nobody"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "--policy referee.envs.policies:Nobody" in run.stderr, run.stderr


@pytest.mark.parametrize(
    ("kind", "seats"), [("coyote", 4), ("big-manitou", 3), ("manitou-island", 2)]
)
def test_a_game_played_in_the_environment_is_the_same_game_on_the_referee(
    servers: list[Server], kind: str, seats: int
) -> None:
    """The seed and the id of a game the referee holds, the game played in the environment
    (random seats), its commands sent over HTTP: every event the same."""
    url = servers[0].url
    seed = secrets.token_hex(32)
    game = create(url, kind, seats, seed=seed)
    env = make(kind, seats)
    env.reset(options={"seed_hex": seed, "game_id": game["game_id"]})
    backend = env.backend
    assert isinstance(backend, LocalGame)
    rng = np.random.default_rng(1)
    players = {agent: Uniform(int(rng.integers(2**31))) for agent in env.possible_agents}
    for agent in env.agent_iter(max_iter=500_000):
        observation, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else players[agent](observation, info))
    version = 0
    for item in backend.record().commands:
        sent = httpx.post(
            f"{url}/v1/games/{game['game_id']}/commands",
            json={"command": msgspec.json.decode(item.command)},
            headers={"Authorization": f"Bearer {game['tokens'][item.seat]}"},
            timeout=30,
        )
        assert sent.status_code == 200, sent.text
        version = sent.json()["version"]
    assert version == len(backend.events)
    recorded = every_event(url, game["game_id"])
    ours = [msgspec.json.decode(msgspec.json.encode(event)) for event in backend.events]
    assert recorded == ours


def every_event(url: str, game_id: str) -> list[Any]:
    events: list[Any] = []
    while True:
        page = httpx.get(
            f"{url}/v1/games/{game_id}/events", params={"after": len(events)}, timeout=30
        ).json()
        events += [record["event"] for record in page["events"]]
        if len(events) >= page["version"]:
            return events


@pytest.mark.parametrize(("kind", "seats"), [("big-manitou", 3), ("manitou-island", 2)])
def test_a_seat_is_played_to_the_end_beside_bots_that_move_at_once(
    servers: list[Server], kind: str, seats: int
) -> None:
    """Big Manitou's choices are simultaneous: the server's bots move while the environment's
    seat decides, and its command is sent again at the new version while still legal."""
    url = servers[0].url
    game = create(url, kind, seats, bots=[{"seat": seat} for seat in range(1, seats)])
    env = seat_env(url, game["game_id"], game["tokens"][0])
    policy = Uniform(3)
    env.reset()
    with pytest.raises(Exception, match="played once"):
        env.backend.start(None, None)
    for _agent in env.agent_iter(max_iter=100_000):
        observation, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(observation, info))
    outcome = audit_passes(url, game["game_id"])
    assert env.backend.outcome().finished and outcome["finished"]
    sent = env.backend.summary().commands_sent  # type: ignore[attr-defined]
    env.close()
    assert sent > 0


def test_a_seat_env_with_a_bad_token_says_so(servers: list[Server]) -> None:
    game = create(servers[0].url, "coyote", 3)
    with pytest.raises(BotError, match=r"could not read the game: 401 .*not a seat token"):
        seat_env(servers[0].url, game["game_id"], "not-a-token")


def test_referee_bot_says_a_policy_of_another_kind_in_one_line(
    servers: list[Server], trained: Path, tmp_path: Path
) -> None:
    """A Coyote policy on a Wind River seat: refused at its first move, the receipts so far
    kept; no traceback."""
    url = servers[0].url
    game = create(url, "wind-river", 3, bots=[{"seat": 1}, {"seat": 2}])
    run = subprocess.run(
        [
            *(str(REFEREE), "bot", "--url", url, "--game", game["game_id"]),
            *("--token", game["tokens"][0], "--receipts", str(tmp_path)),
            *("--policy", "referee.envs.policies:Preferences.load", "--policy-file", str(trained)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stderr
    assert run.stderr.startswith("referee bot: the policy failed at version"), run.stderr
    assert "trained on coyote, not wind-river" in run.stderr and "Traceback" not in run.stderr
    missing = subprocess.run(
        [
            *(str(REFEREE), "bot", "--url", url, "--game", game["game_id"]),
            *("--token", game["tokens"][0], "--policy", "referee.envs.policies:Preferences.load"),
            *("--policy-file", str(tmp_path / "nowhere.json")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 1
    assert missing.stderr.startswith("referee bot: --policy-file"), missing.stderr
    assert "Traceback" not in missing.stderr

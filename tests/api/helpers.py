"""Helpers for API tests: create a game, act as a seat, read what the store holds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from httpx import Response
from prometheus_client.parser import text_string_to_metric_families

from eventstore.store import EventStore

Client = httpx.AsyncClient
PROBLEM = "urn:referee:problem:"
SEED = "5e" * 32  # a caller-chosen seed: the same deal every run


@dataclass(frozen=True)
class Game:
    id: str
    tokens: dict[int, str]
    created: dict[str, Any]

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


async def create_game(client: Client, kind: str = "coyote", seats: int = 3, **fields: Any) -> Game:
    response = await client.post("/v1/games", json={"kind": kind, "seats": seats, **fields})
    assert response.status_code == 201, response.text
    body = response.json()
    tokens = {item["seat"]: item["token"] for item in body["seat_tokens"]}
    return Game(id=body["game_id"], tokens=tokens, created=body)


async def detail(client: Client, game: Game, seat: int | None = None) -> dict[str, Any]:
    headers = {} if seat is None else game.auth(seat)
    response = await client.get(game.url, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def seat_to_act(client: Client, game: Game) -> int:
    to_act: list[int] = (await detail(client, game))["to_act"]
    assert len(to_act) == 1, to_act
    return to_act[0]


async def play(
    client: Client,
    game: Game,
    seat: int,
    command: dict[str, Any],
    *,
    expected_version: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    body: dict[str, Any] = {"command": command}
    if expected_version is not None:
        body["expected_version"] = expected_version
    return await client.post(
        f"{game.url}/commands", json=body, headers={**game.auth(seat), **(headers or {})}
    )


def assert_problem(response: Response, status: int, slug: str, rule_id: str | None = None) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"] == PROBLEM + slug, body
    assert body["status"] == status
    assert body["title"] and body["detail"]
    if rule_id is not None:
        assert body["rule_id"] == rule_id, body


class Ledger:
    """What the store holds for a game, to show that a refused request appended nothing."""

    def __init__(self, store: EventStore, game: Game) -> None:
        self.store = store
        self.game = game

    async def snapshot(self) -> tuple[int, int]:
        """(version, number of commands) of the game as stored."""
        info = await self.store.info(self.game.id)
        commands = await self.store.commands(self.game.id)
        return info.version, len(commands)


async def last_legal_command(client: Client, game: Game, seat: int) -> dict[str, Any]:
    """The last of the seat's legal commands (it ends long games sooner than the first): one
    read for the list's length, one for its last command."""
    url = f"{game.url}/legal-commands"
    first = await client.get(url, params={"limit": 1}, headers=game.auth(seat))
    assert first.status_code == 200, first.text
    total = first.json()["total"]
    last = await client.get(url, params={"offset": total - 1, "limit": 1}, headers=game.auth(seat))
    assert last.status_code == 200, last.text
    command: dict[str, Any] = last.json()["commands"][0]
    return command


async def play_on(client: Client, game: Game, commands: int = 100_000) -> dict[str, Any]:
    """The first seat to act plays its last legal command, `commands` times or until the game
    is over; answers where the game stands then (`status`, `version`, `to_act`)."""
    state = await detail(client, game)
    for _ in range(commands):
        if state["status"] == "finished":
            break
        seat = state["to_act"][0]
        command = await last_legal_command(client, game, seat)
        response = await play(client, game, seat, command, expected_version=state["version"])
        assert response.status_code == 200, (command, response.text)
        state = response.json()  # the answer says where the game stands
    return state


def requests_counted(metrics: str, path: str, status: str | None = None) -> float:
    """The requests to the route `path` in a Prometheus scrape (of one status, or all)."""
    return sum(
        sample.value
        for family in text_string_to_metric_families(metrics)
        for sample in family.samples
        if sample.name == "referee_requests_total"
        and sample.labels.get("path") == path
        and status in (None, sample.labels.get("status_code"))
    )

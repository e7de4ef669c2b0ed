"""The event stream's edges, in process: a finished game streams to its end; what cannot be
streamed is a clear answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from eventstore.seeds import SeedKeys
from tests.api.helpers import Client, Game, assert_problem, create_game
from tests.audit.test_http import finished_game
from tests.live.conftest import Message
from tests.servers import app_settings

UNKNOWN = "/v1/games/00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
async def client(
    database_url: str, seed_keys: SeedKeys
) -> AsyncIterator[AsyncTestClient[Litestar]]:
    settings = app_settings(database_url, pool_min_size=1, pool_max_size=4)
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


def parse(text: str) -> list[Message]:
    parsed = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        if not block:
            continue
        message = Message()
        for line in block.split("\n"):
            if line.startswith(":"):
                message.comments.append(line[1:].strip())
            else:
                name, _, value = line.partition(": ")
                setattr(message, name, value)
        parsed.append(message)
    return parsed


@pytest.fixture(scope="module")
async def finished(client: Client) -> Game:
    return await finished_game(client, seats=3, options={"feathers": 1})


async def test_a_finished_game_streams_every_event_then_ends(
    client: Client, finished: Game
) -> None:
    response = await client.get(f"{finished.url}/events/stream", headers=finished.auth(1))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    received = parse(response.text)
    events = [message for message in received if message.id is not None]
    listed = (await client.get(f"{finished.url}/events")).json()["events"]
    assert [json.loads(message.data or "") for message in events] == listed
    assert [int(message.id or 0) for message in events] == [item["seq"] for item in listed]
    assert received[-1].event == "end"


async def test_resuming_where_the_stream_stopped(client: Client, finished: Game) -> None:
    listed = (await client.get(f"{finished.url}/events")).json()["events"]
    response = await client.get(f"{finished.url}/events/stream", headers={"Last-Event-ID": "4"})
    ids = [int(message.id) for message in parse(response.text) if message.id is not None]
    assert ids == [item["seq"] for item in listed[4:]]
    response = await client.get(f"{finished.url}/events/stream", params={"after": 2})
    ids = [int(message.id) for message in parse(response.text) if message.id is not None]
    assert ids == [item["seq"] for item in listed[2:]]


async def test_a_finished_game_with_nothing_left_to_send_is_a_204(
    client: Client, finished: Game
) -> None:
    version = len((await client.get(f"{finished.url}/events")).json()["events"])
    headers = {"Last-Event-ID": str(version)}
    response = await client.get(f"{finished.url}/events/stream", headers=headers)
    assert response.status_code == 204
    assert response.content == b""


@pytest.mark.parametrize("last_event_id", ["999999", "-1", "abc", "1.5"])
async def test_an_impossible_last_event_id_is_a_400(
    client: Client, finished: Game, last_event_id: str
) -> None:
    headers = {"Last-Event-ID": last_event_id}
    response = await client.get(f"{finished.url}/events/stream", headers=headers)
    assert_problem(response, 400, "malformed-request")


async def test_an_unknown_game_or_a_foreign_token(client: Client, finished: Game) -> None:
    assert_problem(await client.get(f"{UNKNOWN}/events/stream"), 404, "not-found")
    other = await create_game(client)
    response = await client.get(f"{finished.url}/events/stream", headers=other.auth(0))
    assert_problem(response, 403, "forbidden")

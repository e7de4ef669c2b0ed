"""Live play across two real server processes: commands sent to one, events streamed by the
other (which only a database notification can wake), across disconnects."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import Game, create_game, detail, play
from tests.live.conftest import Message, messages
from tests.servers import Server, start_server

PATIENCE = 60.0  # seconds before a test gives up; never a measured duration
SEED = "a1" * 32


async def next_command(client: httpx.AsyncClient, game: Game, rng: random.Random) -> bool:
    """Send one legal command for the seat to act; False once the game is over."""
    state = await detail(client, game)
    if state["status"] == "finished":
        return False
    (seat,) = state["to_act"]
    page = (
        await client.get(
            f"{game.url}/legal-commands", params={"limit": 20}, headers=game.auth(seat)
        )
    ).json()
    commands: list[dict[str, Any]] = page["commands"]
    challenges = [command for command in commands if command["type"] == "coyote.challenge"]
    command = challenges[0] if challenges and rng.random() < 0.5 else rng.choice(commands)
    response = await play(client, game, seat, command)
    assert response.status_code == 200, response.text
    return True


async def version_of(client: httpx.AsyncClient, game: Game) -> int:
    version: int = (await detail(client, game))["version"]
    return version


async def read_until(stream: AsyncIterator[Message], seq: int, into: list[Message]) -> None:
    """Collect event messages until the one with id `seq`."""
    async for message in stream:
        if message.id is not None:
            into.append(message)
            if int(message.id) == seq:
                return
    raise AssertionError(f"the stream ended before event {seq}")


async def test_a_stream_on_one_process_follows_commands_sent_to_the_other(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient, servers: list[Server]
) -> None:
    game = await create_game(writer, seats=3, options={"feathers": 2}, seed=SEED)
    rng = random.Random(3)
    received: list[Message] = []
    async with asyncio.timeout(PATIENCE):
        url = f"{game.url}/events/stream"
        async with reader.stream("GET", url, headers=game.auth(0)) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            stream = messages(response)
            opening = await anext(stream)
            assert opening.retry is not None and opening.id is None
            await read_until(stream, await version_of(writer, game), received)
            # One command at a time: each one's events reach the other process's stream,
            # which nothing but the database's notification can wake.
            while await next_command(writer, game, rng):
                await read_until(stream, await version_of(writer, game), received)
            end = await anext(stream)
    assert end.event == "end" and end.data is not None
    final = await detail(writer, game)
    assert json.loads(end.data) == {"version": final["version"], "outcome": final["outcome"]}
    assert [int(message.id or 0) for message in received] == list(range(1, final["version"] + 1))

    records = [json.loads(message.data or "") for message in received]
    assert [record["seq"] for record in records] == list(range(1, final["version"] + 1))
    own_deals = [
        record["event"]
        for record in records
        if record["event"]["type"] == "coyote.card-dealt" and record["event"]["seat"] == 0
    ]
    assert own_deals and all(deal["card"] is None for deal in own_deals), "seat 0's own cards"
    others = [r["event"] for r in records if r["event"]["type"] == "coyote.card-dealt"]
    assert any(deal["card"] is not None for deal in others), "the others' cards are seen"
    assert records[-1]["event"] == {"type": "game.seed-revealed", "seed": SEED}
    assert all(SEED not in (message.data or "") for message in received[:-1])
    for server in servers:
        assert SEED not in server.log.read_text(), f"the seed is in {server.log.name}"


async def test_a_reconnect_with_last_event_id_loses_and_repeats_nothing(
    writer: httpx.AsyncClient, reader: httpx.AsyncClient
) -> None:
    game = await create_game(writer, seats=4, options={"feathers": 1})
    rng = random.Random(4)
    for _ in range(3):
        await next_command(writer, game, rng)
    first: list[Message] = []
    second: list[Message] = []
    async with asyncio.timeout(PATIENCE):
        async with reader.stream("GET", f"{game.url}/events/stream") as response:
            await read_until(messages(response), 5, first)  # then the client goes away
        while await next_command(writer, game, rng):
            pass
        resume = {"Last-Event-ID": first[-1].id or ""}
        async with writer.stream("GET", f"{game.url}/events/stream", headers=resume) as response:
            async for message in messages(response):
                if message.id is not None:
                    second.append(message)
                if message.event == "end":
                    break
    version = await version_of(writer, game)
    ids = [int(message.id or 0) for message in first + second]
    assert ids == list(range(1, version + 1))
    after_the_end = await writer.get(f"{game.url}/events/stream", params={"after": version})
    assert after_the_end.status_code == 204


async def test_a_quiet_stream_sends_heartbeats(writer: httpx.AsyncClient) -> None:
    game = await create_game(writer, seats=3)
    version = await version_of(writer, game)
    async with asyncio.timeout(PATIENCE):
        async with writer.stream("GET", f"{game.url}/events/stream") as response:
            ids: list[int] = []
            async for message in messages(response):
                if message.id is not None:
                    ids.append(int(message.id))
                if "heartbeat" in message.comments:
                    break
    assert ids == list(range(1, version + 1))


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_server_with_open_streams_still_stops(
    database_url: str, tmp_path: Path, writer: httpx.AsyncClient, workers: int
) -> None:
    """Streams never end by themselves: a stop signal cuts them after a grace period, and their
    clients resume on another process with Last-Event-ID. That is a normal end, logged at info:
    no error, no traceback (uvicorn's own cancellation logged both, for every stream)."""
    log = tmp_path / "stopping.log"
    server = start_server(
        database_url, log, workers=workers, sse_heartbeat_seconds=3600, shutdown_grace_seconds=1
    )
    game = await create_game(writer, seats=3)
    url = f"{server.url}{game.url}/events/stream"
    async with httpx.AsyncClient(timeout=None) as client, contextlib.AsyncExitStack() as opened:
        streams = []
        for _ in range(2):
            response = await opened.enter_async_context(client.stream("GET", url))
            streams.append(messages(response))
            await anext(streams[-1])
        server.process.send_signal(signal.SIGTERM)
        async with asyncio.timeout(PATIENCE):  # the server, not the client, ends the streams
            for stream in streams:
                with contextlib.suppress(httpx.HTTPError):
                    async for _ in stream:
                        pass
    assert await asyncio.to_thread(server.process.wait, PATIENCE) == 0
    logged = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    assert not [line for line in logged if line["level"] in ("error", "critical")]
    assert "Traceback" not in log.read_text()
    cut = [line for line in logged if line["event"] == "connection cut: the server is stopping"]
    assert [line["level"] for line in cut] == ["info"] * len(streams)

"""The API under test: the real app on the test run's PostgreSQL (see tests/conftest.py).

Requests go through httpx's ASGI transport on the test's own event loop, so that concurrent
requests really run concurrently (Litestar's AsyncTestClient runs one request at a time).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from api.app import create_app
from api.config import Settings
from api.signing import SigningKeys
from eventstore.seeds import SeedKeys


@pytest.fixture(scope="session")
def settings(database_url: str, seed_keys: SeedKeys, signing_keys: SigningKeys) -> Settings:
    # No rate limit on audits, exports and games with bots: these tests call them at will
    # (schemathesis too); tests/reliability/test_expensive_reads.py and test_bot_games.py hold
    # the limits to their word. No sweeper in the
    # background: tests of the server's own moves sweep when they say, on a clock they set
    # (test_games_that_end.py), and a background sweep on the real clock would race them.
    return Settings(
        database_url=database_url,
        seed_keys=seed_keys,
        signing_keys=signing_keys,
        checkpoint_seconds=0,  # tests sign checkpoints when they say (app.state.checkpointer)
        pool_min_size=1,
        pool_max_size=6,
        expensive_reads_per_minute=0,
        bot_games_per_minute=0,
        sweep_interval_seconds=0,
    )


async def serve(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async for app in running_app(create_app(settings)):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def running_app(app: Litestar) -> AsyncIterator[Litestar]:
    """`app` with its lifespan running (its database pool open) until the generator ends."""
    running = asyncio.ensure_future(
        _run_lifespan(app, started := asyncio.Event(), stop := asyncio.Event())
    )
    await asyncio.wait(
        [running, asyncio.ensure_future(started.wait())], return_when="FIRST_COMPLETED"
    )
    if running.done():
        running.result()  # the app failed to start: raise why
    yield app
    stop.set()
    await running


async def _run_lifespan(app: Litestar, started: asyncio.Event, stop: asyncio.Event) -> None:
    # The lifespan must end in the task it began in (it holds a task group); pytest-asyncio
    # finalises a session fixture in another task, so the lifespan gets a task of its own.
    async with app.lifespan():
        started.set()
        await stop.wait()


@pytest.fixture(scope="session")
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async for client in serve(settings):
        yield client


@pytest.fixture(scope="session")
async def other_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A second app on the same database: another API process, with its own cache."""
    async for client in serve(settings):
        yield client


@pytest.fixture(scope="session")
async def started_app(settings: Settings) -> AsyncIterator[Litestar]:
    """A started app of its own, for tests that speak ASGI to it directly."""
    async for app in running_app(create_app(settings)):
        yield app

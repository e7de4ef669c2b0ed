"""Audit tests: games played through the real service on the test run's PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.audit import Archive
from api.cache import TableCache
from api.service import GameService
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from referee.games import REGISTRY
from tests.audit.helpers import play_game
from tests.servers import app_settings


@pytest.fixture
def service(event_store: EventStore) -> GameService:
    return GameService(event_store, REGISTRY, TableCache(64))


@pytest.fixture
def archive(event_store: EventStore) -> Archive:
    return Archive(event_store, REGISTRY)


@pytest.fixture
def new_game(service: GameService) -> Callable[..., Awaitable[str]]:
    """Plays a game through the service (to the end unless `commands` says how many)."""

    async def make(**kwargs: Any) -> str:
        return await play_game(service, **kwargs)

    return make


@pytest.fixture(scope="session")
async def client(
    database_url: str, seed_keys: SeedKeys
) -> AsyncIterator[AsyncTestClient[Litestar]]:
    """The real app on the test database."""
    settings = app_settings(
        database_url,
        pool_min_size=1,
        pool_max_size=4,
        expensive_reads_per_minute=0,  # every test here audits and exports at will
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client

"""CORS is a setting: off by default; the listed origins (or "*") may call the API from a page."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import httpx
import pytest

from api.config import Settings
from tests.api.conftest import serve
from tests.api.helpers import Client, create_game

PAGE = "https://tables.example.org"


@pytest.fixture(scope="module")
async def cors_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async for client in serve(dataclasses.replace(settings, cors_origins=(PAGE,))):
        yield client


async def test_off_by_default(client: Client) -> None:
    answer = await client.get("/v1/kinds", headers={"Origin": PAGE})
    assert answer.status_code == 200
    assert "access-control-allow-origin" not in answer.headers


async def test_a_listed_origin_may_play_from_its_page(client: Client, cors_client: Client) -> None:
    preflight = await cors_client.options(
        "/v1/games/00000000-0000-4000-8000-000000000000/commands",
        headers={
            "Origin": PAGE,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )
    assert preflight.status_code in (200, 204), preflight.text
    assert preflight.headers["access-control-allow-origin"] == PAGE
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.split(", "))
    assert "access-control-allow-credentials" not in preflight.headers  # no cookies, ever

    game = await create_game(client)
    shown = await cors_client.get(game.url, headers={"Origin": PAGE})
    assert shown.status_code == 200 and shown.headers["access-control-allow-origin"] == PAGE
    assert "x-request-id" in shown.headers["access-control-expose-headers"].lower()


async def test_another_origin_is_not_allowed(cors_client: Client) -> None:
    answer = await cors_client.get("/v1/kinds", headers={"Origin": "https://evil.example"})
    assert answer.headers.get("access-control-allow-origin") != "https://evil.example"

"""Health, readiness, metrics, request ids; and a database that cannot be reached (503)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.conftest import serve
from tests.api.helpers import Client, assert_problem, requests_counted
from tests.servers import app_settings

UNREACHABLE = "postgresql://postgres@/referee?host=/nonexistent&port=1&connect_timeout=1"


async def test_live_and_ready(client: Client) -> None:
    for path in ("/health/live", "/health/ready"):
        response = await client.get(path)
        assert response.status_code == 200
        assert response.json() == {"status": "ok"}


async def test_metrics_are_prometheus_text_and_not_in_the_schema(client: Client) -> None:
    await client.get("/v1/kinds")
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert "referee_requests_total" in response.text
    schema = (await client.get("/schema/openapi.json")).json()
    assert "/metrics" not in schema["paths"]


async def test_metrics_count_each_request_once_by_its_route(client: Client) -> None:
    before = (await client.get("/metrics")).text
    await client.get("/v1/kinds")
    game_id = str(uuid.uuid4())
    assert (await client.get(f"/v1/games/{game_id}")).status_code == 404
    after = (await client.get("/metrics")).text
    assert requests_counted(after, "/v1/kinds", "200") == requests_counted(before, "/v1/kinds") + 1
    route = "/v1/games/{game_id}"
    assert requests_counted(after, route, "404") == requests_counted(before, route, "404") + 1
    assert game_id not in after, "a series per route, not per game"
    in_progress = {
        sample.labels["path"]: sample.value
        for family in text_string_to_metric_families(after)
        for sample in family.samples
        if sample.name == "referee_requests_in_progress"
    }
    assert in_progress["/metrics"] == 1, "the scrape itself"
    assert in_progress["/v1/kinds"] == in_progress[route] == 0


async def test_request_ids_are_echoed_or_drawn(client: Client) -> None:
    given = "trace-0123456789"
    response = await client.get("/v1/kinds", headers={"X-Request-ID": given})
    assert response.headers["x-request-id"] == given
    drawn = (await client.get("/v1/kinds")).headers["x-request-id"]
    assert drawn and drawn != given
    refused = await client.get("/v1/kinds", headers={"X-Request-ID": "x" * 500})
    assert refused.headers["x-request-id"] != "x" * 500


async def test_problems_carry_the_request_id(client: Client) -> None:
    response = await client.get(f"/v1/games/{uuid.uuid4()}", headers={"X-Request-ID": "abc-1"})
    assert_problem(response, 404, "not-found")
    assert response.json()["request_id"] == "abc-1"
    assert response.headers["x-request-id"] == "abc-1"
    unrouted = await client.get("/nowhere", headers={"X-Request-ID": "abc-2"})
    assert unrouted.json()["request_id"] == unrouted.headers["x-request-id"] == "abc-2"


@pytest.fixture(scope="module")
async def cut_off() -> AsyncIterator[Client]:
    """The app with a database it cannot reach."""
    settings = app_settings(UNREACHABLE, pool_min_size=0, pool_timeout=0.5)
    async for client in serve(settings):
        yield client


async def test_an_unreachable_database_is_503_never_500(cut_off: Client) -> None:
    assert (await cut_off.get("/health/live")).status_code == 200
    game = f"/v1/games/{uuid.uuid4()}"
    requests = [
        cut_off.get("/health/ready"),
        cut_off.get("/v1/games"),
        cut_off.get(game),
        cut_off.get(f"{game}/events"),
        cut_off.post("/v1/games", json={"kind": "coyote", "seats": 3}),
    ]
    for request in requests:
        response = await request
        assert_problem(response, 503, "database-unavailable")
        assert response.headers["retry-after"]

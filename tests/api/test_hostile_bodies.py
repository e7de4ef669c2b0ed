"""Hostile request bodies: nested too deep, not UTF-8, cut short. Each is a 400 problem (never a
500) and changes nothing; a client that hangs up mid-body is not counted as a server error.

tests/reliability/test_hostile_bodies.py sends the same over real sockets to a real server.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
import structlog
from litestar import Litestar

from api.json_limits import MAX_DEPTH
from eventstore.store import EventStore
from tests.api.helpers import Client, Game, Ledger, assert_problem, create_game, seat_to_act

CORPUS_BUNDLE = Path(__file__).parents[1] / "corpus" / "games" / "coyote-3.json"
TOO_DEEP = f"more than {MAX_DEPTH} levels deep"


def nested(depth: int, *, kind: str = "array") -> bytes:
    """A JSON value nested `depth` levels deep (0: a scalar)."""
    if kind == "array":
        return b"[" * depth + b"1" + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


@pytest.fixture
async def game(client: Client) -> Game:
    return await create_game(client, seed="cd" * 32)


async def body_endpoints(client: Client, game: Game) -> list[tuple[str, dict[str, str]]]:
    """Every endpoint that takes a body, with the headers that let it reach the body."""
    seat = await seat_to_act(client, game)
    return [
        ("/v1/games", {}),
        (f"{game.url}/commands", game.auth(seat)),
        ("/v1/audits", {}),
    ]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500, 1_000, 10_000])  # 10,000: under 64 KiB
@pytest.mark.parametrize("kind", ["array", "object"])
async def test_bodies_nested_too_deep_are_400_everywhere_and_change_nothing(
    client: Client, game: Game, event_store: EventStore, depth: int, kind: str
) -> None:
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    bodies = [
        nested(depth, kind=kind),
        b'{"command":' + nested(depth - 1, kind=kind) + b"}",
        b'{"kind":"coyote","seats":3,"options":' + nested(depth - 1, kind=kind) + b"}",
    ]
    for url, headers in await body_endpoints(client, game):
        for body in bodies:
            response = await client.post(url, content=body, headers=headers)
            assert_problem(response, 400, "malformed-request")
            assert TOO_DEEP in response.json()["detail"], (url, response.text)
    assert await ledger.snapshot() == before


async def test_the_depth_limit_is_exactly_the_documented_one(client: Client, game: Game) -> None:
    """MAX_DEPTH levels are read (and refused for what they say), one more is not read at all."""
    url = f"{game.url}/commands"
    headers = game.auth(await seat_to_act(client, game))
    deepest = b'{"command":' + nested(MAX_DEPTH - 1) + b"}"
    response = await client.post(url, content=deepest, headers=headers)
    assert_problem(response, 400, "malformed-request")
    assert TOO_DEEP not in response.json()["detail"]
    deeper = b'{"command":' + nested(MAX_DEPTH) + b"}"
    response = await client.post(url, content=deeper, headers=headers)
    assert_problem(response, 400, "malformed-request")
    assert TOO_DEEP in response.json()["detail"]


async def test_brackets_inside_strings_are_not_nesting(client: Client) -> None:
    entropy = "[" * 200 + '\\"{' + "]" * 50
    game = await create_game(client, entropy=entropy)
    assert game.created["seats"] == 3


@pytest.mark.parametrize(
    "body",
    [
        b'{"command":{"type":"coyote.bid\xff","number":1}}',
        b'{"comm\xe9and":{"type":"coyote.bid","number":1}}',
        b'{"kind":"coyote","seats":3,"entropy":"\xc3\x28"}',
        b'{"kind":"coyote","seats":3,"entropy":"\xed\xa0\x80"}',  # an encoded surrogate
        b"\xff\xfe{}",
    ],
)
async def test_bodies_that_are_not_utf8_are_400_everywhere_and_change_nothing(
    client: Client, game: Game, event_store: EventStore, body: bytes
) -> None:
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    for url, headers in await body_endpoints(client, game):
        response = await client.post(url, content=body, headers=headers)
        assert_problem(response, 400, "malformed-request")
    assert await ledger.snapshot() == before


async def test_a_bundle_nested_too_deep_is_400(client: Client) -> None:
    bundle = CORPUS_BUNDLE.read_bytes()
    for depth in (MAX_DEPTH, 1_000, 100_000):
        deep_options = bundle.replace(b'"options":{', b'"options":{"x":' + nested(depth) + b",", 1)
        response = await client.post("/v1/audits", content=deep_options)
        assert_problem(response, 400, "malformed-request")
        assert TOO_DEEP in response.json()["detail"]


@pytest.mark.parametrize("what", ["commands", "events"])
async def test_a_bundle_with_a_recorded_body_nested_too_deep_is_400(
    client: Client, what: str
) -> None:
    """The verifier decodes every recorded body: each is held to the limit before it runs."""
    bundle: dict[str, Any] = json.loads(CORPUS_BUNDLE.read_bytes())
    bundle[what][1]["body"] = base64.b64encode(nested(100_000)).decode()
    response = await client.post("/v1/audits", content=json.dumps(bundle).encode())
    assert_problem(response, 400, "malformed-request")
    assert f"{what[:-1]} 2 (in file order)" in response.json()["detail"]


async def test_a_client_that_hangs_up_mid_body_is_not_a_server_error(
    client: Client, game: Game, started_app: Litestar, event_store: EventStore
) -> None:
    ledger = Ledger(event_store, game)
    before = await ledger.snapshot()
    seat = await seat_to_act(client, game)
    for path, headers in [
        (f"{game.url}/commands", game.auth(seat)),
        ("/v1/games", {}),
        ("/v1/audits", {}),
    ]:
        with structlog.testing.capture_logs() as logs:
            sent = await hang_up_mid_body(started_app, path, headers, b'{"command": {"ty')
        assert sent[0]["status"] == 499, sent
        assert not [line for line in logs if line["log_level"] in {"error", "critical"}], logs
        requests = [line for line in logs if line["event"] == "request"]
        assert [line["status"] for line in requests] == [499], logs
    assert await ledger.snapshot() == before


async def hang_up_mid_body(
    app: Litestar, path: str, headers: dict[str, str], part: bytes
) -> list[dict[str, Any]]:
    """Send the start of a body to `app` as an ASGI server would, then the client's hang-up;
    the messages the app sent back."""
    incoming: list[dict[str, Any]] = [
        {"type": "http.request", "body": part, "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", b"1000"),
            *((name.lower().encode(), value.encode()) for name, value in headers.items()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }
    await app(scope, receive, send)  # type: ignore[arg-type]
    return sent

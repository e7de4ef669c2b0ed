"""Hostile bodies over real sockets to a real `referee serve`: nested too deep, not UTF-8, huge
(announced or not), truncated, of the wrong content type, abandoned mid-body by a client that
hangs up. On every endpoint that takes a body: never a 500, never a hang, nothing changed; and
the server still plays a normal move afterwards, with no error in its log or its metrics.

(Slow clients that hold a connection open are tests/reliability/test_slow_clients.py's.)
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from api.bundle import MAX_BUNDLE_BYTES
from api.json_limits import MAX_DEPTH
from tests.reliability.conftest import Serve
from tests.servers import Server

MAX_BODY_BYTES = 16 * 1024  # the server's REFEREE_MAX_BODY_BYTES here: small, for speed
PATIENCE = 10.0  # seconds a socket waits for the server; a hang fails the test, never a measure
SEED = "ab" * 32


@dataclass(frozen=True)
class Target:
    """An endpoint that takes a body, with what it needs to reach it (a seat's token)."""

    path: str
    headers: dict[str, str]
    limit: int


@pytest.fixture(scope="module")
def server(serve: Serve) -> Server:
    return serve(max_body_bytes=MAX_BODY_BYTES, expensive_reads_per_minute=0)


@pytest.fixture(scope="module")
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=PATIENCE) as client:
        yield client


@pytest.fixture(scope="module")
def game(http: httpx.Client) -> dict[str, object]:
    created = http.post("/v1/games", json={"kind": "coyote", "seats": 3, "seed": SEED})
    assert created.status_code == 201, created.text
    body: dict[str, object] = created.json()
    return body


def token_of_seat_to_act(http: httpx.Client, game: dict[str, object]) -> tuple[int, str]:
    seat = http.get(f"/v1/games/{game['game_id']}").json()["to_act"][0]
    tokens = {item["seat"]: item["token"] for item in game["seat_tokens"]}  # type: ignore[attr-defined]
    return seat, tokens[seat]


@pytest.fixture(scope="module")
def targets(http: httpx.Client, game: dict[str, object]) -> list[Target]:
    _, token = token_of_seat_to_act(http, game)
    return [
        Target("/v1/games", {}, MAX_BODY_BYTES),
        Target(
            f"/v1/games/{game['game_id']}/commands",
            {"Authorization": f"Bearer {token}"},
            MAX_BODY_BYTES,
        ),
        Target("/v1/audits", {}, MAX_BUNDLE_BYTES),
    ]


def nested(depth: int) -> bytes:
    return b'{"command":' + b"[" * depth + b"]" * depth + b"}"


def hostile_bodies(limit: int) -> dict[str, tuple[bytes, str]]:
    """Bodies that must each be refused with a 400, and their content types."""
    json_type = "application/json"
    deepest = (min(limit, 4 * 2**20) - 20) // 2  # as deep as fits
    return {
        "one level too deep": (nested(MAX_DEPTH), json_type),
        "as deep as fits": (nested(deepest), json_type),
        "objects deep": (b'{"a":' * 2000 + b"1" + b"}" * 2000, json_type),
        "not UTF-8 in a string": (b'{"kind":"coyote\xff","seats":3}', json_type),
        "not UTF-8 in a key": (b'{"ki\xc3\x28nd":"coyote","seats":3}', json_type),
        "UTF-16": ('{"kind":"coyote","seats":3}'.encode("utf-16"), json_type),
        "truncated JSON": (b'{"command": {"type": "coyote.bid", "num', json_type),
        "an XML document": (b"<command><type>coyote.bid</type></command>", "application/xml"),
        "a form": (b"command=coyote.bid&number=3", "application/x-www-form-urlencoded"),
        "multipart": (
            b'--x\r\nContent-Disposition: form-data; name="command"\r\n\r\n{}\r\n--x--\r\n',
            "multipart/form-data; boundary=x",
        ),
        "binary": (bytes(range(256)) * 8, "application/octet-stream"),
        "nothing": (b"", json_type),
    }


def test_hostile_bodies_are_400_problems_everywhere(
    http: httpx.Client, targets: list[Target]
) -> None:
    for target in targets:
        for name, (body, content_type) in hostile_bodies(target.limit).items():
            response = http.post(
                target.path, content=body, headers={**target.headers, "Content-Type": content_type}
            )
            assert response.status_code == 400, (target.path, name, response.text)
            assert response.headers["content-type"] == "application/problem+json", name
            assert response.json()["type"] == "urn:referee:problem:malformed-request", name


def test_huge_bodies_are_413_whether_announced_or_not(
    server: Server, http: httpx.Client, targets: list[Target]
) -> None:
    for target in targets:
        huge = b'{"kind":"' + b"x" * target.limit + b'"}'
        announced = http.post(target.path, content=huge, headers=target.headers)
        assert announced.status_code == 413, (target.path, announced.text)
        assert announced.json()["type"] == "urn:referee:problem:payload-too-large"

        def chunks(body: bytes = huge) -> Iterator[bytes]:  # no Content-Length: chunked
            for start in range(0, len(body), 64 * 1024):
                yield body[start : start + 64 * 1024]

        streamed = http.post(target.path, content=chunks(), headers=target.headers)
        assert streamed.status_code == 413, (target.path, streamed.text)

        # A length announced far beyond the limit is refused before a byte of it is read.
        head = request_head(target, content_length=10**12)
        assert status_of(exchange(server, head)) == 413, target.path


def test_a_client_that_hangs_up_mid_body_gets_no_500_and_leaves_nothing(
    server: Server, http: httpx.Client, targets: list[Target], game: dict[str, object]
) -> None:
    version = http.get(f"/v1/games/{game['game_id']}").json()["version"]
    for target in targets:
        for sent in (b"", b'{"command": {"type": "coyote.b'):
            head = request_head(target, content_length=1000)
            assert exchange(server, head + sent, hang_up=True) == b"", target.path
    assert http.get(f"/v1/games/{game['game_id']}").json()["version"] == version


def test_the_server_still_plays_and_logged_no_server_error(
    server: Server, http: httpx.Client, game: dict[str, object]
) -> None:
    seat, token = token_of_seat_to_act(http, game)
    move = http.post(
        f"/v1/games/{game['game_id']}/commands",
        json={"command": {"type": "coyote.bid", "number": 1}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert move.status_code == 200, move.text
    assert move.json()["events"][0]["seat"] == seat

    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    statuses = [line["status"] for line in lines if line.get("event") == "request"]
    assert 400 in statuses and 413 in statuses and 499 in statuses
    assert not [status for status in statuses if status >= 500]
    assert not [line for line in lines if line.get("level") in {"error", "critical"}]
    metrics = http.get("/metrics").text
    server_errors = re.findall(r'^referee_requests_total\{[^}]*status_code="5\d\d"', metrics, re.M)
    assert server_errors == [], server_errors


# -- raw HTTP/1.1 ------------------------------------------------------------------------------


def request_head(target: Target, *, content_length: int) -> bytes:
    headers = {
        "Host": "referee",
        "Content-Type": "application/json",
        "Content-Length": str(content_length),
        **target.headers,
    }
    lines = [f"POST {target.path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def exchange(server: Server, data: bytes, *, hang_up: bool = False) -> bytes:
    """Send `data` on a new connection (then close it at once, with `hang_up`); everything the
    server answers until it closes the connection, or answers one whole response."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=PATIENCE) as connection:
        connection.sendall(data)
        if hang_up:
            connection.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
            if hang_up:
                continue
            head, _, body = received.partition(b"\r\n\r\n")
            length = re.search(rb"(?im)^content-length: *(\d+)", head)
            if length and len(body) >= int(length.group(1)):
                break
        return received


def status_of(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])

"""Slow clients: connections that open and then stall (nothing sent, half a request line,
headers that never end, a body that stops short) are closed within the configured timeouts,
while a player's moves are still served; and connections past the limit are refused."""

from __future__ import annotations

import contextlib
import json
import resource
import selectors
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.reliability.conftest import Serve
from tests.servers import Server

TIMEOUT = 2.0  # the header and body read timeouts of the server under attack, in seconds
PATIENCE = 10.0  # how long past the timeout a test waits for the server; never a measurement
STALLED = 1000  # connections, a quarter of each kind

HOST = "127.0.0.1"
STALLS = [
    b"",  # nothing at all
    b"GET /v1/kinds HT",  # half a request line
    b"GET /v1/kinds HTTP/1.1\r\nHost: referee\r\nX-Slow: ",  # headers that never end
    # a body that stops short: 10 of 100 bytes
    b"POST /v1/games HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n" + b'{"kind": "',
]


@pytest.fixture(scope="module", autouse=True)
def enough_files() -> None:
    """This process holds every stalled connection's other end."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = STALLED + 512
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


@pytest.fixture(scope="module")
def server(serve: Serve) -> Server:
    return serve(
        header_read_timeout_seconds=TIMEOUT,
        body_read_timeout_seconds=TIMEOUT,
        max_connections=STALLED + 100,
    )


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


@pytest.fixture
def stalled(server: Server) -> Iterator[list[socket.socket]]:
    connections: list[socket.socket] = []
    try:
        for number in range(STALLED):
            connection = socket.create_connection((HOST, port_of(server)), timeout=PATIENCE)
            connection.sendall(STALLS[number % len(STALLS)])
            connections.append(connection)
        yield connections
    finally:
        for connection in connections:
            connection.close()


def wait_until_closed(connections: list[socket.socket], patience: float) -> dict[int, bytes]:
    """What the server sent on each connection before closing it; those it did not close within
    `patience` are missing."""
    received: dict[int, bytes] = {}
    with selectors.DefaultSelector() as selector:
        for number, connection in enumerate(connections):
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ, number)
            received[number] = b""
        open_ = set(received)
        deadline = time.monotonic() + patience
        while open_ and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.1):
                number = key.data
                try:
                    data = connections[number].recv(65536)
                except ConnectionResetError:
                    data = b""
                if data:
                    received[number] += data
                else:
                    selector.unregister(connections[number])
                    open_.discard(number)
        return {number: data for number, data in received.items() if number not in open_}


def play_a_move(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=PATIENCE) as http:
        created = http.post("/v1/games", json={"kind": "coyote", "seats": 3})
        assert created.status_code == 201, created.text
        game = created.json()
        seat = game["to_act"][0]
        token = next(item["token"] for item in game["seat_tokens"] if item["seat"] == seat)
        move = http.post(
            f"/v1/games/{game['game_id']}/commands",
            json={"command": {"type": "coyote.bid", "number": 1}},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert move.status_code == 200, move.text


def test_stalled_connections_are_closed_while_moves_are_served(
    server: Server, stalled: list[socket.socket]
) -> None:
    opened = time.monotonic()
    play_a_move(server)  # while a thousand connections are held
    assert time.monotonic() - opened < TIMEOUT, "the move was served before any timeout"

    closed = wait_until_closed(stalled, TIMEOUT + PATIENCE)
    waited = time.monotonic() - opened
    assert len(closed) == STALLED, f"{STALLED - len(closed)} connections still open"
    assert waited < TIMEOUT + PATIENCE
    short_bodies = [closed[n] for n in range(len(STALLS) - 1, STALLED, len(STALLS))]
    for answer in short_bodies:  # the request was in: it is answered, then closed
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer
        assert b"connection: close" in head.lower()
        assert json.loads(body)["type"] == "urn:referee:problem:request-timeout"
    unanswered = [closed[n] for n in range(STALLED) if n % len(STALLS) != len(STALLS) - 1]
    assert set(unanswered) == {b""}, "no request came in: the connection is just closed"
    play_a_move(server)


def test_a_connection_idle_after_its_response_is_closed(server: Server) -> None:
    with socket.create_connection((HOST, port_of(server)), timeout=PATIENCE) as connection:
        connection.sendall(b"GET /health/live HTTP/1.1\r\nHost: referee\r\n\r\nGET /health/li")
        closed = wait_until_closed([connection], TIMEOUT + PATIENCE)
    assert closed, "still open"
    assert closed[0].startswith(b"HTTP/1.1 200"), closed[0]


def test_a_body_answered_before_it_was_read_is_bounded_by_the_deadline(server: Server) -> None:
    """A body too large for its request is refused at its headers (413); what the client sends
    of it afterwards is not taken for headers (no 431), and the connection is closed within
    the header read timeout."""
    with socket.create_connection((HOST, port_of(server)), timeout=PATIENCE) as connection:
        connection.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: referee\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\n\r\n"
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += connection.recv(65536)
        assert answer.startswith(b"HTTP/1.1 413"), answer
        with contextlib.suppress(OSError):  # the server may close first: that is the point
            for _ in range(10):
                connection.sendall(b" " * 32768)
        closed = wait_until_closed([connection], TIMEOUT + PATIENCE)
    assert closed, "still open"
    assert b"HTTP/1.1 431" not in answer + closed[0]


def test_connections_past_the_limit_are_refused(serve: Serve) -> None:
    limit = 20
    server = serve(header_read_timeout_seconds=TIMEOUT, max_connections=limit)
    held = [socket.create_connection((HOST, port_of(server))) for _ in range(limit)]
    try:
        time.sleep(0.2)  # the server has accepted them all
        with socket.create_connection((HOST, port_of(server)), timeout=PATIENCE) as extra:
            extra.sendall(b"GET /health/live HTTP/1.1\r\nHost: referee\r\n\r\n")
            answer = wait_until_closed([extra], PATIENCE)[0]
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503"), answer
        assert b"retry-after: 1" in head.lower()
        assert json.loads(body)["type"] == "urn:referee:problem:too-many-connections"
        assert len(wait_until_closed(held, TIMEOUT + PATIENCE)) == limit
        assert httpx.get(f"{server.url}/health/live", timeout=PATIENCE).status_code == 200
    finally:
        for connection in held:
            connection.close()

"""Request ids (api/logging.py): the client's when sane, else drawn; every response echoes one
(api/frame.py)."""

from __future__ import annotations

import os
import re

import pytest

from api.frame import response_headers
from api.logging import request_id

DRAWN = re.compile(r"^[0-9a-f]{32}$")


def scope(*headers: tuple[bytes, bytes]) -> dict[str, object]:
    return {"type": "http", "headers": [(b"host", b"x"), *headers], "state": {}}


def test_drawn_ids_are_32_hex_digits_and_never_repeat() -> None:
    drawn = [request_id(scope()) for _ in range(10_000)]
    assert all(DRAWN.match(one) for one in drawn)
    assert len(set(drawn)) == len(drawn)


def test_a_sane_id_is_kept_and_an_insane_one_replaced() -> None:
    assert request_id(scope((b"x-request-id", b"trace-42"))) == "trace-42"
    for insane in (b"x" * 129, b"has space", b"caf\xc3\xa9"):
        assert DRAWN.match(request_id(scope((b"x-request-id", insane))))


def test_a_request_keeps_its_id() -> None:
    one = scope()
    assert request_id(one) == request_id(one)


async def test_the_echo_replaces_any_id_the_response_had() -> None:
    one = scope((b"x-request-id", b"trace-7"))
    message = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"text/plain"), (b"X-Request-ID", b"stale")],
    }
    echo = response_headers(docs="/schema")
    await echo(message, one)
    assert message["headers"] == [
        (b"content-type", b"text/plain"),
        (b"x-content-type-options", b"nosniff"),
        (b"x-request-id", b"trace-7"),
    ]
    body = {"type": "http.response.body", "body": b"ok"}
    await echo(body, one)
    assert body == {"type": "http.response.body", "body": b"ok"}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_draws_ids_of_its_own() -> None:
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its first id, to the parent
        os.write(write, request_id(scope()).encode())
        os._exit(0)
    os.close(write)
    theirs = os.read(read, 64).decode()
    os.close(read)
    os.waitpid(child, 0)
    ours = request_id(scope())
    assert DRAWN.match(theirs) and theirs[:16] != ours[:16]

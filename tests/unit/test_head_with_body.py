"""api/server.py's HeadWithBody: a response's head leaves with its body in one write of the
connection's transport, at once; a head with nothing after it leaves at the end of the turn."""

from __future__ import annotations

import asyncio
import socket

from api.server import HeadWithBody


class Received(asyncio.Protocol):
    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)


class CountedTransport:
    """A real transport, with the writes made on it counted."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        self.transport.write(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self.transport, name)


async def connected() -> tuple[CountedTransport, Received]:
    loop = asyncio.get_running_loop()
    ours, theirs = socket.socketpair()
    transport, _ = await loop.create_connection(asyncio.Protocol, sock=ours)
    _, received = await loop.create_connection(Received, sock=theirs)
    return CountedTransport(transport), received  # type: ignore[arg-type]


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_a_head_leaves_with_the_body_at_once() -> None:
    counted, received = await connected()
    sending = HeadWithBody(counted, asyncio.get_running_loop())  # type: ignore[arg-type]
    sending.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    assert counted.writes == []  # held for the body
    sending.write(b"{}")
    assert counted.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]  # no wait
    sending.write(b"more")  # nothing else is held
    assert counted.writes[1:] == [b"more"]
    await turns(10)
    assert len(counted.writes) == 2
    assert b"".join(received.chunks) == b"".join(counted.writes)
    sending.close()


async def test_a_head_with_nothing_after_it_leaves_at_the_end_of_the_turn() -> None:
    """A stream's head, before it has anything to send: the client sees the head at once."""
    counted, received = await connected()
    sending = HeadWithBody(counted, asyncio.get_running_loop())  # type: ignore[arg-type]
    sending.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n")
    await turns(3)
    assert counted.writes == [b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n"]
    sending.write(b"data: 1\n\n")
    assert counted.writes[1:] == [b"data: 1\n\n"]
    await turns(10)
    assert b"".join(received.chunks) == b"".join(counted.writes)
    sending.close()


async def test_closing_sends_what_is_held_first() -> None:
    counted, received = await connected()
    sending = HeadWithBody(counted, asyncio.get_running_loop())  # type: ignore[arg-type]
    sending.write(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n")
    sending.close()
    assert counted.writes == [b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n"]
    assert sending.is_closing()
    await turns(10)
    assert counted.writes == [b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n"]  # not twice
    assert b"".join(received.chunks) == counted.writes[0]

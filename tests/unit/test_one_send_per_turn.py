"""api/server.py's OneSendPerTurn: what a response writes in one turn of the loop leaves in one
write of the connection's transport, in order; later writes leave in their own turn."""

from __future__ import annotations

import asyncio
import socket

from api.server import OneSendPerTurn


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


async def test_a_response_written_in_one_turn_leaves_in_one_write() -> None:
    counted, received = await connected()
    sending = OneSendPerTurn(counted, asyncio.get_running_loop())  # type: ignore[arg-type]
    sending.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    sending.write(b"{}")
    assert counted.writes == []  # not before the turn ends
    await turns(3)
    assert counted.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
    sending.write(b"data: 1\n\n")  # a stream's next chunk, in a turn of its own
    await turns(3)
    assert counted.writes[1:] == [b"data: 1\n\n"]
    await turns(10)
    assert b"".join(received.chunks) == b"".join(counted.writes)
    sending.close()


async def test_closing_sends_what_is_pending_first() -> None:
    counted, received = await connected()
    sending = OneSendPerTurn(counted, asyncio.get_running_loop())  # type: ignore[arg-type]
    sending.write(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n")
    sending.write(b"bye")
    sending.close()
    assert counted.writes == [b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbye"]
    assert sending.is_closing()
    await turns(10)
    assert counted.writes == [b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nbye"]  # not twice
    assert b"".join(received.chunks).endswith(b"bye")

"""A TCP relay between the browser and the server whose connections the test can cut: a real
dropped connection (the browser sees its stream end mid-way), with the server left running."""

from __future__ import annotations

import asyncio
import contextlib


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    sink.close()


class Relay:
    """Relays 127.0.0.1:<its port> to the server's port while up; while down, every
    connection is cut and new ones are closed at once."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.up = True
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(
            "127.0.0.1", self.target_port
        )
        pair = {writer, upstream_writer}
        self.writers |= pair
        try:
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        finally:
            self.writers -= pair

    def down(self) -> None:
        self.up = False
        for writer in list(self.writers):
            writer.transport.abort()

    async def close(self) -> None:
        self.down()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

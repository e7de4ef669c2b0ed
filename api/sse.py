"""A reader of Server-Sent Events: the messages of an event stream, as an EventSource parses
them. `referee bot` waits on a game's stream with it, and the live tests read streams with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx


@dataclass
class Message:
    """One Server-Sent Events message: the fields it had, and its comment lines."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: str | None = None
    comments: list[str] = field(default_factory=list)


async def messages(response: httpx.Response) -> AsyncIterator[Message]:
    """The messages of an event stream, as an EventSource parses them."""
    message = Message()
    async for line in response.aiter_lines():
        if not line:
            yield message
            message = Message()
        elif line.startswith(":"):
            message.comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                message.data = value if message.data is None else f"{message.data}\n{value}"
            elif name in ("id", "event", "retry"):
                setattr(message, name, value)

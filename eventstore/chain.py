"""The hash chain: each event's hash covers its body and, through `prev_hash`, the whole past.

prev_hash(1) = 32 zero bytes;  hash(n) = sha256(prev_hash(n) || body(n));  prev_hash(n+1) = hash(n)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from eventstore.types import GENESIS_HASH


def event_hash(prev_hash: bytes, body: bytes) -> bytes:
    return hashlib.sha256(prev_hash + body).digest()


def chain(prev_hash: bytes, bodies: Iterable[bytes]) -> list[tuple[bytes, bytes]]:
    """(prev_hash, hash) of each body in turn, continuing from `prev_hash`."""
    links = []
    for body in bodies:
        digest = event_hash(prev_hash, body)
        links.append((prev_hash, digest))
        prev_hash = digest
    return links


__all__ = ["GENESIS_HASH", "chain", "event_hash"]

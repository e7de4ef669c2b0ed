"""Seat tokens: self-describing bearer tokens, stored only as hashes.

A token reads `<game_id>.<seat>.<secret>`. Because it names its game, a token of another game
is refused (403) before any query, and every lookup is keyed by the game id. The store keeps
sha256 of the whole token; the token itself is shown once, when the game is created.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from referee.kernel import Seat

SECRET_BYTES = 32
_TOKEN = re.compile(
    r"^(?P<game_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
    r"\.(?P<seat>0|[1-9][0-9]{0,3})\.[A-Za-z0-9_-]{16,}$"
)


@dataclass(frozen=True)
class TokenClaim:
    """What a well-formed token says about itself, before the store confirms it."""

    game_id: str
    seat: Seat


def issue_token(game_id: str, seat: Seat) -> str:
    return f"{game_id}.{seat}.{secrets.token_urlsafe(SECRET_BYTES)}"


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def read_claim(token: str) -> TokenClaim | None:
    match = _TOKEN.match(token)
    if match is None:
        return None
    return TokenClaim(game_id=match["game_id"], seat=int(match["seat"]))

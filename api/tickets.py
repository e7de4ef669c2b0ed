"""Stream tickets: a seat's live stream opened from a browser without its token in a URL.

A browser's EventSource cannot send an Authorization header, and a seat token in a URL would
end up in logs and histories. So a seat asks for a ticket with its token (`POST
/v1/games/{id}/stream-tickets`) and opens the stream with `?ticket=`. A ticket names one game
and one seat, expires after `TICKET_SECONDS` and opens one stream: each process remembers the
tickets it accepted until they expire. It is an HMAC under a key derived from the server's seed
keys (`SeedKeys.derive`), so every process accepts every other's tickets and nothing is stored.

Format: `<key id>.<base64url(game id (16 bytes) | seat (1) | expiry, Unix seconds (8) |
nonce (8) | tag (16))>`, the tag the first 16 bytes of HMAC-SHA256 over what precedes it.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import secrets
import struct
import time
from collections.abc import Callable
from hashlib import sha256
from uuid import UUID

from eventstore.seeds import SeedKeys
from referee.kernel import Seat

TICKET_SECONDS = 60
PURPOSE = "stream-tickets"
_BODY = struct.Struct(">16sBQ8s")  # game id, seat, expiry, nonce
_TAG_BYTES = 16


class TicketRefused(Exception):
    """A ticket that does not open this game's stream; the message says why, for the caller."""


class StreamTickets:
    """Issues and redeems the stream tickets of one process."""

    def __init__(self, keys: SeedKeys, clock: Callable[[], float] = time.time) -> None:
        self._keys = keys
        self._clock = clock
        self._redeemed: dict[bytes, int] = {}  # nonce -> expiry, until it passes

    def issue(self, game_id: UUID, seat: Seat) -> str:
        expiry = int(self._clock()) + TICKET_SECONDS
        body = _BODY.pack(game_id.bytes, seat, expiry, secrets.token_bytes(8))
        key_id = self._keys.current
        encoded = base64.urlsafe_b64encode(body + self._tag(key_id, body)).rstrip(b"=")
        return f"{key_id}.{encoded.decode()}"

    def redeem(self, game_id: UUID, ticket: str) -> Seat:
        """The seat the ticket names, once. Raises TicketRefused."""
        key_id, body, tag = _parse(ticket)
        try:
            expected = self._tag(key_id, body)
        except KeyError:
            raise TicketRefused(
                "This ticket was issued under a key this server no longer has."
            ) from None
        if not hmac.compare_digest(tag, expected):
            raise TicketRefused("This is not a stream ticket of this server.")
        ticket_game, seat, expiry, nonce = _BODY.unpack(body)
        now = int(self._clock())
        if ticket_game != game_id.bytes:
            raise TicketRefused("This ticket is for another game.")
        if now >= expiry:
            raise TicketRefused("This ticket has expired: ask for another one.")
        self._forget_expired(now)
        if nonce in self._redeemed:
            raise TicketRefused("This ticket was used already: ask for another one.")
        self._redeemed[nonce] = expiry
        return int(seat)

    def _tag(self, key_id: str, body: bytes) -> bytes:
        key = self._keys.derive(key_id, PURPOSE)
        return hmac.new(key, key_id.encode() + b"." + body, sha256).digest()[:_TAG_BYTES]

    def _forget_expired(self, now: int) -> None:
        for nonce in [nonce for nonce, expiry in self._redeemed.items() if expiry <= now]:
            del self._redeemed[nonce]


def _parse(ticket: str) -> tuple[str, bytes, bytes]:
    key_id, dot, encoded = ticket.partition(".")
    try:
        raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if not dot or len(raw) != _BODY.size + _TAG_BYTES:
        raise TicketRefused("This is not a stream ticket.")
    return key_id, raw[: _BODY.size], raw[_BODY.size :]

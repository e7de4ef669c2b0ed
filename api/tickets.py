"""Stream tickets: a seat's live stream opened from a browser without its token in a URL.

A browser's EventSource cannot send an Authorization header, and a seat token in a URL would
end up in logs and histories. So a seat asks for a ticket with its token (`POST
/v1/games/{id}/stream-tickets`) and opens the stream with `?ticket=`. A ticket names one game
and one seat, expires after `TICKET_SECONDS` and opens one stream, once, whichever process it is
sent to and however often: a URL is seen by more than its sender. It is an HMAC under a key
derived from the server's seed keys (`SeedKeys.derive`), so every process accepts every other's
tickets and nothing is stored to issue one. Redeeming it records its nonce in the database
(`EventStore.redeem_ticket`, one INSERT ... ON CONFLICT DO NOTHING), which every process shares:
of any number of redemptions of one ticket, on any processes, at once or later, exactly one
opens a stream. The records are forgotten ten minutes after their tickets expired (each process
deletes those of every game at most once per `TICKET_SECONDS`, when it redeems one).

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
from datetime import UTC, datetime
from hashlib import sha256
from uuid import UUID

import structlog

from eventstore import StoreError
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from referee.kernel import Seat

TICKET_SECONDS = 60
PURPOSE = "stream-tickets"
_BODY = struct.Struct(">16sBQ8s")  # game id, seat, expiry, nonce
_TAG_BYTES = 16

log = structlog.get_logger("api.tickets")


class TicketRefused(Exception):
    """A ticket that does not open this game's stream; the message says why, for the caller."""


class StreamTickets:
    """Issues the stream tickets of one process, and redeems any process's, once, in `store`."""

    def __init__(
        self, keys: SeedKeys, store: EventStore, clock: Callable[[], float] = time.time
    ) -> None:
        self._keys = keys
        self._store = store
        self._clock = clock
        self._next_forgetting = 0.0  # when this process next deletes long expired records

    def issue(self, game_id: UUID, seat: Seat) -> str:
        expiry = int(self._clock()) + TICKET_SECONDS
        body = _BODY.pack(game_id.bytes, seat, expiry, secrets.token_bytes(8))
        key_id = self._keys.current
        encoded = base64.urlsafe_b64encode(body + self._tag(key_id, body)).rstrip(b"=")
        return f"{key_id}.{encoded.decode()}"

    async def redeem(self, game_id: UUID, ticket: str) -> Seat:
        """The seat the ticket names, once across every process of the database.

        Raises TicketRefused; DatabaseUnavailable (a StoreError) if it cannot be recorded."""
        seat, expiry, nonce = self._read(game_id, ticket)
        expires_at = datetime.fromtimestamp(expiry, UTC)
        if not await self._store.redeem_ticket(str(game_id), nonce, expires_at):
            raise TicketRefused("This ticket was used already: ask for another one.")
        await self._forget_expired()
        return seat

    def _read(self, game_id: UUID, ticket: str) -> tuple[Seat, int, bytes]:
        """The seat, expiry and nonce of a ticket of this server for this game, not expired.
        Raises TicketRefused."""
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
        return int(seat), int(expiry), bytes(nonce)

    def _tag(self, key_id: str, body: bytes) -> bytes:
        key = self._keys.derive(key_id, PURPOSE)
        return hmac.new(key, key_id.encode() + b"." + body, sha256).digest()[:_TAG_BYTES]

    async def _forget_expired(self) -> None:
        """Delete the long expired records of every game, at most once per TICKET_SECONDS; a
        failure only waits for the next time (the ticket at hand is redeemed already)."""
        now = self._clock()
        if now < self._next_forgetting:
            return
        self._next_forgetting = now + TICKET_SECONDS
        try:
            forgotten = await self._store.forget_redeemed_tickets()
        except StoreError as error:
            log.warning("redeemed tickets not forgotten", error=str(error))
            return
        if forgotten:
            log.debug("redeemed tickets forgotten", count=forgotten)


def _parse(ticket: str) -> tuple[str, bytes, bytes]:
    key_id, dot, encoded = ticket.partition(".")
    try:
        raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if not dot or len(raw) != _BODY.size + _TAG_BYTES:
        raise TicketRefused("This is not a stream ticket.")
    return key_id, raw[: _BODY.size], raw[_BODY.size :]

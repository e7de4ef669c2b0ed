"""Receipts: what the referee signs when it accepts a game's creation or a command, or is asked
for a game's head. README, "Disputes", specifies them for checkers in any language.

A receipt pins the game's history up to `version` without telling anything hidden: it does not
carry the head hash (whose preimage, an event holding a hidden card, could be found by trying
every card) but `head = HMAC-SHA256(pin key, "head" 0x00 || hash of event version)`, under a
pin key derived from the game's secret seed, `HMAC-SHA256(seed, "referee.receipts" 0x00 ||
game id)`. Before the seed is revealed nobody but the referee can compute or test a pin; once
the game is over, anyone can, with the revealed seed and the bundle. A command receipt pins the
command's recorded body the same way (`command`).

The statement is JSON, compact, fields in the order declared below, signed in a DSSE envelope
(`api.signing`) of type `application/vnd.referee.receipt+json`. A checker reads the signed bytes
as they are: it never needs to encode JSON itself.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Final, Literal

import msgspec

from api.ids import GameId
from api.signing import Envelope, SigningKeys
from eventstore import CommandRecord, StoredEvent, StreamHead
from referee.kernel import GameCreated

RECEIPT_TYPE: Final = "application/vnd.referee.receipt+json"
Pin = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$", description="HMAC-SHA256, hex.")]
Time = Annotated[datetime, msgspec.Meta(tz=True)]
GameStatus = Literal["waiting", "active", "finished", "cancelled"]


class _Pinned(msgspec.Struct, frozen=True, kw_only=True, tag_field="receipt"):
    """What every receipt says: the game, up to which event, pinned how, recorded when."""

    game_id: GameId
    version: int  # the receipt pins events 1 .. version
    head: Pin  # HMAC(pin key, "head" 0x00 || hash of event `version`)
    recorded_at: Time  # when event `version` was recorded


class CreationReceipt(_Pinned, frozen=True, kw_only=True, tag="creation"):
    """Given to the creator: the game as created (its opening events are 1 .. version)."""

    kind: str
    rules_version: str
    seats: int
    options: msgspec.Raw  # exactly as recorded in event 1
    seating: Literal["creator", "open"]
    commitment: str  # sha256(seed), hex, as in event 1


class CommandReceipt(_Pinned, frozen=True, kw_only=True, tag="command"):
    """Given to the seat that sent an accepted command (a sitting and a leaving too)."""

    command_id: int  # 1, 2, 3 ... per game, as in the bundle
    seat: int | None
    first_seq: int  # the command produced events first_seq .. version
    command: Pin  # HMAC(pin key, "command" 0x00 || the command's recorded body)


class HeadReceipt(_Pinned, frozen=True, kw_only=True, tag="head"):
    """Given to anyone who asks (`GET /v1/games/{id}/receipt`), and a checkpoint log's leaf."""

    status: GameStatus


Receipt = CreationReceipt | CommandReceipt | HeadReceipt

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(Receipt)


def encode(statement: Receipt) -> bytes:
    return _ENCODER.encode(statement)


def decode(payload: bytes) -> Receipt:
    """The statement of a receipt's payload. Raises msgspec.DecodeError (a ValueError)."""
    return _DECODER.decode(payload)


def pin_key(seed: bytes, game_id: str) -> bytes:
    """The key of a game's pins: derived from its seed, so that the revealed seed opens them."""
    return hmac.new(seed, b"referee.receipts\x00" + game_id.encode(), hashlib.sha256).digest()


def head_pin(key: bytes, event_hash: bytes) -> str:
    return hmac.new(key, b"head\x00" + event_hash, hashlib.sha256).hexdigest()


def command_pin(key: bytes, body: bytes) -> str:
    return hmac.new(key, b"command\x00" + body, hashlib.sha256).hexdigest()


class Notary:
    """Signs receipts with the newest signing key."""

    def __init__(self, keys: SigningKeys) -> None:
        self.keys = keys

    def sign(self, statement: Receipt) -> Envelope:
        return self.keys.sign(RECEIPT_TYPE, encode(statement))


def creation_receipt(
    game_id: str, opening: Sequence[StoredEvent], seed: bytes, *, seating: str
) -> CreationReceipt:
    """The receipt of a game's creation, from its opening events as stored."""
    created = msgspec.json.decode(opening[0].body, type=GameCreated)
    last = opening[-1]
    return CreationReceipt(
        game_id=game_id,
        version=last.seq,
        head=head_pin(pin_key(seed, game_id), last.hash),
        recorded_at=last.recorded_at,
        kind=created.kind,
        rules_version=created.rules_version,
        seats=created.seats,
        options=created.options,
        seating="open" if seating == "open" else "creator",
        commitment=created.commitment,
    )


def command_receipt(command: CommandRecord, last: StoredEvent, seed: bytes) -> CommandReceipt:
    """The receipt of an accepted command, from its record and the last event it produced."""
    key = pin_key(seed, command.game_id)
    return CommandReceipt(
        game_id=command.game_id,
        version=last.seq,
        head=head_pin(key, last.hash),
        recorded_at=last.recorded_at,
        command_id=command.id,
        seat=command.seat,
        first_seq=command.first_seq,
        command=command_pin(key, command.body),
    )


def head_receipt(head: StreamHead, seed: bytes) -> HeadReceipt:
    """The receipt of a game's head as it stands."""
    return HeadReceipt(
        game_id=head.game_id,
        version=head.version,
        head=head_pin(pin_key(seed, head.game_id), head.hash),
        recorded_at=head.recorded_at,
        status=head.status,  # type: ignore[arg-type]  # the store's statuses are these four
    )

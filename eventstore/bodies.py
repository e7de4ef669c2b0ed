"""Hidden bodies sealed at rest: the events (and commands) that hold what a spectator may not see.

Sealing the seed is not enough: every outcome of chance is written into an event (a dealt hand,
a deck's new order), so that the fold never needs the seed, and those events would tell whoever
reads the database every hand and every future card of a running game. So an event its writer
marks `secret` is stored sealed, and so is the command of an append that has one (a command may
name the cards it hides, e.g. a face-down pile).

A game's bodies are sealed with AES-256-GCM under a key derived from the game's seed,
HMAC-SHA256(seed, "referee:sealed-bodies"), with "<game id>/event/<seq>" or
"<game id>/command/<first seq>" as associated data, so that a sealed body moved to another place
does not open. Deriving the key from the seed has two consequences, both wanted: rotating the
seed keys re-seals seeds only, never events; and once a game is over its seed is revealed in its
last event, and with it every sealed body of the game opens, to anyone: after the end, all is
public. The hash chain is over the plain bodies, so proofs do not change.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PURPOSE = b"referee:sealed-bodies"
NONCE_BYTES = 12


class BodySeal:
    """One game's sealing of hidden bodies: `seal` and `open` at a place of its record."""

    def __init__(self, game_id: str, seed: bytes) -> None:
        self._game_id = game_id
        self._cipher = AESGCM(hmac.new(seed, PURPOSE, hashlib.sha256).digest())

    def seal(self, place: str, body: bytes) -> bytes:
        """nonce || ciphertext || tag of `body`, bound to this game and `place`."""
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._cipher.encrypt(nonce, body, self._where(place))

    def open(self, place: str, sealed: bytes) -> bytes | None:
        """The body sealed at `place`; None if it does not open (altered, or moved)."""
        nonce, ciphertext = sealed[:NONCE_BYTES], sealed[NONCE_BYTES:]
        try:
            return self._cipher.decrypt(nonce, ciphertext, self._where(place))
        except (InvalidTag, ValueError):
            return None

    def _where(self, place: str) -> bytes:
        return f"{self._game_id}/{place}".encode()


def event_place(seq: int) -> str:
    return f"event/{seq}"


def command_place(first_seq: int) -> str:
    """A command is placed by the first event it produced: its id is given by the database."""
    return f"command/{first_seq}"

"""Committed, reproducible chance, exactly as referee/kernel/CHANCE.md specifies it.

A third party re-derives every draw from the revealed seed with that file alone:

    key   = sha256(seed || game_id as UTF-8 || entropy as UTF-8)
    bytes = HMAC-SHA256(key, 0) || HMAC-SHA256(key, 1) || ...   (k as 8-byte big-endian)
    words = the bytes read as 8-byte big-endian unsigned integers

`uniform(n)` rejects words at or above 2**64 - (2**64 % n) and returns the first other one mod n;
`shuffle` is Fisher-Yates from the end. The cursor (words consumed) is what a game must resume
from, so it is recorded with the events and never derived from the game's state.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

WORD_BYTES = 8
WORDS_PER_BLOCK = hashlib.sha256().digest_size // WORD_BYTES  # 4
_WORD_SPACE = 2**64
SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh secret seed for a game."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: sha256(seed) in hex."""
    return hashlib.sha256(seed).hexdigest()


def chance_key(seed: bytes, game_id: str, entropy: str = "") -> bytes:
    """The key of a table its creator seated."""
    return hashlib.sha256(seed + game_id.encode() + entropy.encode()).digest()


def open_table_key(seed: bytes, game_id: str, entropy: str, seat_entropies: Sequence[str]) -> bytes:
    """The key of an open table: every text length-prefixed, so that no two tables' texts run
    together into the same bytes; every seat's entropy in seat order, empty ones included."""
    texts = (game_id, entropy, *seat_entropies)
    return hashlib.sha256(seed + b"".join(_length_prefixed(text) for text in texts)).digest()


def _length_prefixed(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(4, "big") + data


class Chance:
    """A cursor over a game's stream of random words.

    `cursor` counts the words consumed so far; a Chance rebuilt with the same key and cursor
    continues exactly where the previous one stopped.
    """

    __slots__ = ("_block", "_block_index", "_key", "cursor")

    def __init__(self, key: bytes, cursor: int = 0) -> None:
        if cursor < 0:
            raise ValueError("cursor must not be negative")
        self._key = key
        self.cursor = cursor
        self._block_index = -1
        self._block = b""

    @classmethod
    def for_game(cls, seed: bytes, game_id: str, entropy: str = "", cursor: int = 0) -> Chance:
        return cls(chance_key(seed, game_id, entropy), cursor)

    def word(self) -> int:
        """The next 64-bit word of the stream."""
        block_index, offset = divmod(self.cursor, WORDS_PER_BLOCK)
        if block_index != self._block_index:
            message = block_index.to_bytes(8, "big")
            self._block = hmac.new(self._key, message, hashlib.sha256).digest()
            self._block_index = block_index
        start = offset * WORD_BYTES
        self.cursor += 1
        return int.from_bytes(self._block[start : start + WORD_BYTES], "big")

    def uniform(self, n: int) -> int:
        """A uniformly drawn integer in [0, n), without modulo bias."""
        if n < 1:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _WORD_SPACE - (_WORD_SPACE % n)
        while True:
            word = self.word()
            if word < limit:
                return word % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the end, j = uniform(i + 1)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.uniform(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def choice(self, items: Sequence[T]) -> T:
        """One item, drawn with uniform(len(items))."""
        return items[self.uniform(len(items))]

    def for_seats(self, seat_entropies: Sequence[str]) -> Chance:
        """The stream of an open table whose last seat was just taken (see `WaitingChance`)."""
        raise RuntimeError("only a waiting open table's chance is keyed by its seats")


class WaitingChance(Chance):
    """The chance of an open table still waiting for players: nothing may be drawn yet, and the
    key is made once every seat's entropy is known (`for_seats`), from the same cursor."""

    __slots__ = ("_key_for",)

    def __init__(self, key_for: Callable[[Sequence[str]], bytes], cursor: int = 0) -> None:
        super().__init__(b"", cursor)
        self._key_for = key_for

    def word(self) -> int:
        raise RuntimeError("an open table draws nothing before every seat is taken")

    def for_seats(self, seat_entropies: Sequence[str]) -> Chance:
        return Chance(self._key_for(seat_entropies), self.cursor)


class NoChance(Chance):
    """For folds and views: any draw is a bug, because every outcome is already in the events."""

    def __init__(self) -> None:
        super().__init__(b"", 0)

    def word(self) -> int:
        raise RuntimeError("this step may not draw: every outcome must come from the events")

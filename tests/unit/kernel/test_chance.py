"""Chance follows referee/kernel/CHANCE.md to the bit: its test vectors, and a reference written
from its text."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.kernel.chance import Chance, NoChance, commitment

SEED = bytes.fromhex("00" * 31 + "2a")


def reference_words(seed: bytes, game_id: str, entropy: str) -> Iterator[int]:
    """CHANCE.md's pseudo-code, transcribed without reuse of the kernel's code."""
    key = hashlib.sha256(seed + game_id.encode() + entropy.encode()).digest()
    k = 0
    while True:
        block = hmac.new(key, k.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        k += 1


def reference_uniform(words: Iterator[int], n: int) -> int:
    limit = 2**64 - (2**64 % n)
    while True:
        word = next(words)
        if word < limit:
            return word % n


def reference_shuffle(words: Iterator[int], items: list[int]) -> list[int]:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = reference_uniform(words, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# Pinned once from the reference above; a change here means every recorded game changes.
def test_pinned_words() -> None:
    chance = Chance.for_game(SEED, "vector-game")
    assert [chance.word() for _ in range(5)] == [
        0x60C5103E366FF7DE,
        0x539400201E4B5686,
        0x80CFAB1622BBC1E3,
        0xE3AF85DC6E03F3F3,
        0x3719CB2974E45F8B,
    ]


def test_pinned_uniform() -> None:
    chance = Chance.for_game(SEED, "vector-game")
    assert [chance.uniform(6) for _ in range(12)] == [0, 0, 5, 1, 5, 0, 4, 2, 0, 2, 5, 3]


def test_pinned_shuffle_with_entropy() -> None:
    chance = Chance.for_game(SEED, "vector-game", "table-entropy")
    assert chance.shuffle(range(36)) == [
        4, 14, 15, 24, 27, 6, 1, 16, 34, 30, 20, 29, 25, 19, 28, 13, 22, 23,
        33, 35, 5, 3, 10, 32, 26, 18, 9, 12, 2, 8, 11, 21, 17, 0, 7, 31,
    ]  # fmt: skip


@given(
    seed=st.binary(min_size=1, max_size=64),
    game_id=st.text(max_size=20),
    entropy=st.text(max_size=20),
    bounds=st.lists(st.integers(min_value=1, max_value=2**64), min_size=1, max_size=30),
)
def test_uniform_matches_reference(
    seed: bytes, game_id: str, entropy: str, bounds: list[int]
) -> None:
    chance = Chance.for_game(seed, game_id, entropy)
    words = reference_words(seed, game_id, entropy)
    assert [chance.uniform(n) for n in bounds] == [reference_uniform(words, n) for n in bounds]


@given(seed=st.binary(min_size=1, max_size=32), size=st.integers(min_value=0, max_value=60))
def test_shuffle_matches_reference(seed: bytes, size: int) -> None:
    chance = Chance.for_game(seed, "g")
    items = list(range(size))
    assert chance.shuffle(items) == reference_shuffle(reference_words(seed, "g", ""), items)


def test_rejection_consumes_words() -> None:
    # n = 2**63 + 1 rejects every word at or above 2**63 + 1: about half of them.
    n = 2**63 + 1
    chance = Chance.for_game(SEED, "rejections")
    words = list(_take(reference_words(SEED, "rejections", ""), 64))
    draws = [chance.uniform(n) for _ in range(10)]
    accepted = [w % n for w in words if w < 2**64 - (2**64 % n)][:10]
    assert draws == accepted
    assert chance.cursor > 10  # some words were rejected and still counted


@given(seed=st.binary(min_size=1, max_size=32), split=st.integers(min_value=0, max_value=40))
def test_cursor_resumes_exactly(seed: bytes, split: int) -> None:
    whole = Chance.for_game(seed, "g", "e")
    expected = [whole.uniform(7) for _ in range(40)]
    first = Chance.for_game(seed, "g", "e")
    head = [first.uniform(7) for _ in range(split)]
    resumed = Chance.for_game(seed, "g", "e", cursor=first.cursor)
    assert head + [resumed.uniform(7) for _ in range(40 - split)] == expected


def test_entropy_and_game_id_change_the_stream() -> None:
    base = Chance.for_game(SEED, "g").shuffle(range(20))
    assert Chance.for_game(SEED, "h").shuffle(range(20)) != base
    assert Chance.for_game(SEED, "g", "x").shuffle(range(20)) != base


def test_commitment_is_sha256_hex_of_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_uniform_refuses_empty_range() -> None:
    with pytest.raises(ValueError):
        Chance.for_game(SEED, "g").uniform(0)


def test_no_chance_refuses_to_draw() -> None:
    with pytest.raises(RuntimeError):
        NoChance().uniform(2)


def _take(iterator: Iterator[int], count: int) -> Iterator[int]:
    for _ in range(count):
        yield next(iterator)

"""Chance follows referee/kernel/CHANCE.md to the bit: its test vectors, and a reference written
from its text."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.kernel.chance import (
    Chance,
    NoChance,
    WaitingChance,
    chance_key,
    commitment,
    open_table_key,
)

SEED = bytes.fromhex("00" * 31 + "2a")
SEAT_ENTROPIES = ["alice", "", "bob's dice"]  # CHANCE.md's open table, seats 0, 1, 2


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


# -- open tables (CHANCE.md, "Open tables"), pinned the same way ----------------------------------


def reference_open_table_key(seed: bytes, game_id: str, entropy: str, seats: list[str]) -> bytes:
    """CHANCE.md's open-table key, transcribed: every text after the seed length-prefixed."""

    def lp(text: str) -> bytes:
        data = text.encode("utf-8")
        return len(data).to_bytes(4, "big") + data

    return hashlib.sha256(seed + b"".join(lp(text) for text in [game_id, entropy, *seats])).digest()


def test_pinned_open_table_key() -> None:
    key = open_table_key(SEED, "vector-game", "", SEAT_ENTROPIES)
    assert key.hex() == "c5945c8ef65a1f490da9b4ede5872f864b41731d8badb634d5d1c621c50f61f5"
    hashed = (
        SEED
        + bytes.fromhex("0000000b") + b"vector-game"
        + bytes.fromhex("00000000")
        + bytes.fromhex("00000005") + b"alice"
        + bytes.fromhex("00000000")
        + bytes.fromhex("0000000a") + b"bob's dice"
    )  # fmt: skip
    assert key == hashlib.sha256(hashed).digest()


def test_pinned_open_table_words() -> None:
    chance = Chance(open_table_key(SEED, "vector-game", "", SEAT_ENTROPIES))
    assert [chance.word() for _ in range(5)] == [
        0x1626F080C4C0ED86,
        0x8241435F7F9B4925,
        0x1D6189D8A836582B,
        0x10856BB71DE163C1,
        0xD615CA553C77AAE4,
    ]


def test_pinned_open_table_shuffle() -> None:
    chance = Chance(open_table_key(SEED, "vector-game", "", SEAT_ENTROPIES))
    assert chance.shuffle(range(36)) == [
        8, 35, 32, 10, 30, 29, 6, 13, 31, 1, 34, 0, 28, 9, 20, 2, 3, 27,
        17, 11, 21, 5, 23, 18, 15, 22, 7, 14, 12, 19, 25, 4, 16, 33, 24, 26,
    ]  # fmt: skip
    assert chance.cursor == 35


def test_a_waiting_table_keys_its_stream_with_every_seat_at_the_same_cursor() -> None:
    """The stream a waiting table's chance gives once its seats are known is the open-table
    key's, from the cursor it stood at; before that it draws nothing."""
    waiting = WaitingChance(lambda seats: open_table_key(SEED, "vector-game", "", seats))
    with pytest.raises(RuntimeError):
        waiting.word()
    keyed = waiting.for_seats(SEAT_ENTROPIES)
    expected = Chance(open_table_key(SEED, "vector-game", "", SEAT_ENTROPIES))
    assert keyed.cursor == 0
    assert [keyed.word() for _ in range(9)] == [expected.word() for _ in range(9)]
    with pytest.raises(RuntimeError):
        Chance(SEED).for_seats(SEAT_ENTROPIES)  # only a waiting table's chance is keyed so


@pytest.mark.parametrize(
    "moved",
    [
        ("vector-game", "", ["alic", "e", "bob's dice"]),  # a byte from one seat to the next
        ("vector-game", "", ["alice", "bob's dice", ""]),  # an entropy to another seat
        ("vector-game", "", ["alice", "", "bob's", " dice"]),  # a seat more, texts cut otherwise
        ("vector-game", "alice", ["", "", "bob's dice"]),  # from a seat to the table's entropy
        ("vector-gam", "e", SEAT_ENTROPIES),  # from the game id to the entropy
    ],
    ids=["between-seats", "between-seats-whole", "split", "seat-to-table", "id-to-entropy"],
)
def test_moving_bytes_between_texts_changes_the_open_table_key(
    moved: tuple[str, str, list[str]],
) -> None:
    """The same bytes in the same order, cut otherwise: only the length prefixes tell them
    apart, and they do."""
    game_id, entropy, seats = moved
    base = ("vector-game", "", SEAT_ENTROPIES)
    assert "".join([game_id, entropy, *seats]) == "".join([base[0], base[1], *base[2]])
    key = open_table_key(SEED, game_id, entropy, seats)
    assert key != open_table_key(SEED, *base)
    assert key == reference_open_table_key(SEED, game_id, entropy, seats)
    # Without the prefixes (the creator's key over the same bytes) the two would be one key.
    unprefixed = hashlib.sha256(SEED + "".join([game_id, entropy, *seats]).encode()).digest()
    assert unprefixed == hashlib.sha256(SEED + b"vector-gamealicebob's dice").digest()


def test_a_creator_table_key_is_another() -> None:
    """The same seed, game id and entropy: the table its creator seated has the unprefixed key,
    whatever its seats would have added, and another stream."""
    creator = chance_key(SEED, "vector-game", "")
    assert creator == hashlib.sha256(SEED + b"vector-game").digest()
    assert creator != open_table_key(SEED, "vector-game", "", SEAT_ENTROPIES)
    assert creator != open_table_key(SEED, "vector-game", "", ["", "", ""])
    assert creator != open_table_key(SEED, "vector-game", "", [])
    silent_seats = open_table_key(SEED, "vector-game", "", ["", "", ""])
    assert Chance(creator).shuffle(range(36)) != Chance(silent_seats).shuffle(range(36))


def test_empty_seat_entropies_still_count() -> None:
    """Each seat takes its place in the key, empty or not: the number of seats changes it."""
    keys = {open_table_key(SEED, "g", "", [""] * seats).hex() for seats in range(7)}
    assert len(keys) == 7


@given(
    seed=st.binary(min_size=1, max_size=64),
    game_id=st.text(max_size=20),
    entropy=st.text(max_size=20),
    seats=st.lists(st.text(max_size=12), min_size=2, max_size=6),
)
def test_open_table_key_matches_reference(
    seed: bytes, game_id: str, entropy: str, seats: list[str]
) -> None:
    key = open_table_key(seed, game_id, entropy, seats)
    assert key == reference_open_table_key(seed, game_id, entropy, seats)


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

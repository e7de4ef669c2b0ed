"""Seeds sealed at rest: what the store writes, and what opens it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from eventstore import SealedSeedError, SeedKeyError, SeedKeys
from eventstore.pool import Pool
from eventstore.store import EventStore
from tests.store.helpers import make_stream, seed_of

Conn = AsyncConnection[TupleRow]


def test_sealing_is_bound_to_the_game_and_the_key() -> None:
    keys = SeedKeys.generate("k1")
    seed = bytes(range(32))
    key_id, sealed = keys.seal("game-a", seed)
    assert key_id == "k1" and seed not in sealed and keys.open("game-a", key_id, sealed) == seed
    assert keys.seal("game-a", seed)[1] != sealed  # a fresh nonce each time
    with pytest.raises(SealedSeedError, match="altered or copied"):
        keys.open("game-b", key_id, sealed)  # copied onto another game
    with pytest.raises(SealedSeedError, match="altered or copied"):
        keys.open("game-a", key_id, sealed[:-1] + bytes([sealed[-1] ^ 1]))
    with pytest.raises(SealedSeedError, match="'k1'"):
        SeedKeys.generate("k2").open("game-a", key_id, sealed)


def test_the_first_key_seals_and_every_key_opens() -> None:
    old, new = SeedKeys.generate("old"), SeedKeys.generate("new")
    both = SeedKeys.parse(f"# rotated\n{new.entries()}, {old.entries()}")
    assert both.ids == ["new", "old"] and both.current == "new"
    key_id, sealed = old.seal("g", b"seed")
    assert both.open("g", key_id, sealed) == b"seed"
    assert both.seal("g", b"seed")[0] == "new"
    assert "base64" not in repr(both) and old.entries().split(":")[1][:8] not in repr(both)


@pytest.mark.parametrize(
    "text",
    ["", "k1", "k1:!!!", "k1:AAAA", "bad id:" + "A" * 44, "k:" + "A" * 43 + ",k:" + "B" * 43],
)
def test_malformed_keys_are_refused(text: str) -> None:
    with pytest.raises(SeedKeyError):
        SeedKeys.parse(text)


async def test_the_store_keeps_only_the_sealed_seed(
    event_store: EventStore, superuser_conn: Conn, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id)
    cursor = await superuser_conn.execute(
        "SELECT seed, seed_key_id, sealed_seed FROM games WHERE game_id = %s", [game_id]
    )
    row = await cursor.fetchone()
    assert row is not None
    plain, key_id, sealed = row
    assert plain is None and key_id == event_store.seed_keys.current
    assert seed_of(game_id) not in bytes(sealed)
    assert await event_store.seed(game_id) == seed_of(game_id)


async def test_a_store_without_the_key_cannot_open_the_seed(
    store_pool: Pool, event_store: EventStore, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    await make_stream(event_store, game_id)
    stranger = EventStore(store_pool, SeedKeys.generate("other"))
    with pytest.raises(SealedSeedError, match="does not have"):
        await stranger.seed(game_id)

"""A retry that loses the race to its own original: it looked its key up before the original
was recorded, and is decided after, on a game where the move is no longer legal. It must answer
the original's result, not a refusal. A pause placed in the real store makes the order certain."""

from __future__ import annotations

import asyncio

from api.cache import TableCache
from api.service import GameService
from eventstore import AppendResult
from eventstore.pool import Pool
from eventstore.seeds import SeedKeys
from eventstore.store import EventStore
from referee.games import REGISTRY
from referee.games.coyote.commands import Bid
from referee.games.coyote.options import Options


class StoreThatPausesALookup(EventStore):
    """The real store; the next key lookup waits, after reading, until it is resumed."""

    def __init__(self, pool: Pool, seed_keys: SeedKeys) -> None:
        super().__init__(pool, seed_keys)
        self.pause_next_lookup = False
        self.paused = asyncio.Event()
        self.resume = asyncio.Event()

    async def find_command(
        self, game_id: str, seat: int, idempotency_key: str
    ) -> AppendResult | None:
        found = await super().find_command(game_id, seat, idempotency_key)
        if self.pause_next_lookup:
            self.pause_next_lookup = False
            self.paused.set()
            await self.resume.wait()
        return found


async def test_a_retry_decided_after_its_original_was_recorded_gets_the_first_result(
    store_pool: Pool, seed_keys: SeedKeys
) -> None:
    store = StoreThatPausesALookup(store_pool, seed_keys)
    service = GameService(store, REGISTRY, TableCache(8))
    created = await service.create(
        "coyote", seats=3, options=Options(), seed=bytes(range(32)), entropy=""
    )
    (seat,) = created.table.to_act()
    bid = Bid(number=5)

    store.pause_next_lookup = True
    retry = asyncio.create_task(service.play(created.game_id, seat, bid, idempotency_key="k"))
    await store.paused.wait()  # the retry found no command with its key: not recorded yet
    original = await service.play(created.game_id, seat, bid, idempotency_key="k")
    store.resume.set()
    answer = await retry

    assert not original.replayed and answer.replayed
    assert [e.stored.seq for e in answer.events] == [e.stored.seq for e in original.events]
    assert len(await store.commands(created.game_id)) == 1

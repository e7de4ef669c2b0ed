"""A seat token, once confirmed, is not asked of the database again: for as many seats as the
cached games can have (the bench's 10,000 games in play authenticate from memory)."""

from __future__ import annotations

import msgspec

from api.cache import TableCache
from api.service import SEATS_PER_CACHED_GAME, GameService
from api.tokens import token_hash
from eventstore.seeds import SeedKeys
from referee.games import REGISTRY
from tests.store.statements import recording_store

GAMES = 3  # the table cache's capacity below
SEATS = 4


async def test_confirmed_seats_are_kept_for_every_cached_game(
    database_url: str, seed_keys: SeedKeys
) -> None:
    async with recording_store(database_url, seed_keys) as (store, recorder):
        service = GameService(store, REGISTRY, TableCache(GAMES))
        options = msgspec.convert({}, REGISTRY["coyote"].options_type)
        seats = []
        for _ in range(GAMES * SEATS_PER_CACHED_GAME // SEATS + 1):  # one game more than kept
            game = await service.create(
                "coyote", seats=SEATS, options=options, seed=None, entropy=""
            )
            seats += [(game.game_id, seat, token) for seat, token in game.seat_tokens]
        await store.drain_notifications()  # the creations' notifications, sent after them
        recorder.take()

        async def authenticate(kept: list[tuple[str, int, str]], by: GameService = service) -> int:
            """Statements sent to confirm them all (each confirmed as its own seat)."""
            for game_id, seat, token in kept:
                assert await by.seat_for_token(game_id, token_hash(token)) == (seat, 0)
            return len(recorder.take())

        kept = seats[-GAMES * SEATS_PER_CACHED_GAME :]
        assert await authenticate(kept) == 0  # created here: known from the start
        elsewhere = GameService(store, REGISTRY, TableCache(GAMES))  # another process
        assert await authenticate(kept, elsewhere) == len(kept)  # first time: asked
        assert await authenticate(kept, elsewhere) == 0  # then from memory, all of them
        assert await authenticate(seats[:1]) == 1  # one more than kept pushes the oldest out
        assert await authenticate(kept[:1]) == 1

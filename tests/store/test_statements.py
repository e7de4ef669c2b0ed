"""Every statement the store sends names its game by id, so that it can be routed to the one
shard holding the game when the tables are distributed by `game_id` (Citus): but the few
operations the store documents as across games (`ACROSS_GAMES`)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import msgspec

from eventstore import CreationKey
from eventstore.seeds import SeedKeys
from eventstore.store import ACROSS_GAMES, EventStore
from tests.store.helpers import events, seed_of, token_hash
from tests.store.statements import Recorder, Statement, recording_store

# The game named in the statement's condition (or in the VALUES of its INSERT) by a parameter,
# or given to a function of the schema that reads that game's rows alone (migration 0015's,
# whose statements name it as these do). On a Citus cluster (eventstore/writes.py) an INSERT of
# a game's rows names the game first in each row, and a creation's Idempotency-Key goes to the
# reference table (on every node) with the game it created.
KEYED = re.compile(
    r"game_id = %(\(game_id\))?s|VALUES \(%\(game_id\)s"
    r"|referee_record_stamp\(%\(game_id\)s\)"
    r'|\("game_id"[^)]*\) VALUES \(%s'
    r"|^INSERT INTO game_creations .* VALUES .*%\(game_id\)s"
)


# A notification names no table: it runs where it is sent (the coordinator, with Citus).
NOTIFICATION = re.compile(
    r"SELECT pg_notify\('\w+', payload\) FROM unnest\(%s::text\[\]\) AS payload"
)


def keyed_by(statement: Statement, game_id: str) -> bool:
    if NOTIFICATION.fullmatch(statement.text):
        return any(f"{game_id}:" in payload for payload in statement.values()[0])
    return bool(KEYED.search(statement.text)) and game_id in statement.values()


async def test_every_statement_is_keyed_by_its_game_but_the_documented_ones(
    database_url: str, seed_keys: SeedKeys, new_game_id: Callable[[], str]
) -> None:
    game_id = new_game_id()
    sent: dict[str, list[Statement]] = {}

    async with (
        recording_store(database_url, seed_keys) as (store, recorder),
        recording_store(database_url, seed_keys) as (other, other_recorder),
    ):

        async def record(calling: Recorder, name: str, call: Awaitable[object]) -> None:
            await call  # what the call sends before it returns, then what its writes notify
            sent.setdefault(name, []).extend(calling.take())
            for each, its_recorder in ((store, recorder), (other, other_recorder)):
                await each.drain_notifications()
                sent.setdefault("drain_notifications", []).extend(its_recorder.take())

        key = CreationKey(key_hash=bytes(32 * [7]), request_hash=bytes(32), token_key_id="newer")
        creation = store.create_stream(
            game_id,
            kind="test-kind",
            rules_version="1",
            seats=2,
            seed=seed_of(game_id),
            seed_chosen_by_creator=False,
            seat_token_hashes=[token_hash(game_id, seat) for seat in range(2)],
            events=events("opening", 2),
            creation=key,
        )
        await record(recorder, "create_stream", creation)
        secret = [msgspec.structs.replace(events("deal", 1)[0], secret=True)]
        for version, store_now, recording in ((2, store, recorder), (3, other, other_recorder)):
            # From the head the store remembers, then from a first look (another process).
            append = store_now.append(
                game_id,
                expected_version=version,
                events=secret,
                seat=0,
                command_body=b"{}",
                idempotency_key=f"move-{version}",
            )
            await record(recording, "append", append)
        await record(recorder, "find_command", store.find_command(game_id, 0, "move-2"))
        await record(recorder, "read", store.read(game_id, after=1, limit=2, verify=True))
        await record(recorder, "info", store.info(game_id))
        await record(recorder, "seat_for_token", store.seat_for_token(game_id, bytes(32)))
        await record(recorder, "token_holder", store.token_holder(game_id, bytes(32)))
        await record(recorder, "find_sitting", store.find_sitting(game_id, "move-2"))
        await record(recorder, "seed", store.seed(game_id))
        await record(recorder, "head", store.head(game_id))
        await record(recorder, "commands", store.commands(game_id))
        await record(recorder, "record_stamp", store.record_stamp(game_id))
        expires_at = datetime.now(UTC)
        await record(recorder, "redeem_ticket", store.redeem_ticket(game_id, bytes(8), expires_at))
        await record(recorder, "forget_redeemed_tickets", store.forget_redeemed_tickets())
        await record(recorder, "find_creation", store.find_creation(key.key_hash))
        listing = store.list_streams(kind="test-kind", status="active", after=None, limit=2)
        await record(recorder, "list_streams", listing)
        now = datetime.now(UTC)
        await record(recorder, "due_games", store.due_games(now=now, idle_since=now, limit=5))
        await record(recorder, "ping", store.ping())
        await record(recorder, "learn_database", store.learn_database())

    public = {
        name
        for name, method in inspect.getmembers(EventStore, inspect.iscoroutinefunction)
        if not name.startswith("_")
    }
    assert set(sent) == public, "every operation of the store is looked at"
    assert set(ACROSS_GAMES) <= public
    if not store.distributed:  # a cluster's append is several statements (eventstore/writes.py)
        assert len(sent["append"]) == 3  # one statement from a remembered head, two after a look
    assert len(sent["drain_notifications"]) == 3  # one for each write, sent after it
    for name, statements in sent.items():
        assert statements, f"{name} sent nothing"
        unkeyed = [s.text for s in statements if not keyed_by(s, game_id)]
        if name in ACROSS_GAMES:
            assert unkeyed, f"{name} is keyed by its game: take it off ACROSS_GAMES"
        else:
            assert not unkeyed, f"{name} sends statements not keyed by game_id: {unkeyed}"

"""Whoever reads the database (a dump, a backup, a replica) learns no running game's seed: the
seeds are sealed with a key the database never sees; nor its hands and future cards: the events
that hold them are sealed too. A database from before sealing has its plain seeds sealed by
`referee migrate`, and a rotation re-seals every seed under the newest key.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import msgspec
import psycopg
import pytest

from eventstore.embedded import pg_dump_path
from eventstore.migrations import migrate
from eventstore.seeds import SeedKeys
from referee.games import REGISTRY
from referee.kernel import Codec, Table
from tests.reliability.conftest import Serve
from tests.servers import TEST_SEED_KEYS, TEST_SIGNING_KEYS

PG_DUMP = pg_dump_path()
CHOSEN = bytes(range(100, 132))  # a creator's seed: known to the test without any key


def dump(conninfo: str) -> bytes:
    """The whole database as `pg_dump` writes it (bytea as hex)."""
    done = subprocess.run(
        [str(PG_DUMP), "--no-owner", "--dbname", conninfo],
        capture_output=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def forms(seed: bytes) -> Iterator[bytes]:
    """Every way a dump could show the seed."""
    yield seed
    yield seed.hex().encode()
    yield seed.hex().upper().encode()
    yield base64.b64encode(seed)
    yield base64.urlsafe_b64encode(seed).rstrip(b"=")


def assert_nowhere(seeds: dict[str, bytes], text: bytes) -> None:
    for game_id, seed in seeds.items():
        for form in forms(seed):
            assert form not in text, f"the seed of game {game_id} is readable as {form[:12]!r}…"


def sealed_seeds(owner_url: str, game_ids: list[str], keys: SeedKeys) -> dict[str, bytes]:
    """The seeds of these games, opened with the server's keys (which the database lacks)."""
    with psycopg.connect(owner_url) as conn:
        rows = conn.execute(
            "SELECT game_id, seed, seed_key_id, sealed_seed FROM games WHERE game_id = ANY(%s)",
            [game_ids],
        ).fetchall()
    assert len(rows) == len(game_ids)
    assert all(plain is None for _, plain, _, _ in rows), "no seed is stored in plain"
    return {game_id: keys.open(game_id, key_id, sealed) for game_id, _, key_id, sealed in rows}


def referee_migrate(owner_url: str, login_url: str, keys: str) -> subprocess.CompletedProcess[str]:
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")},
        "REFEREE_MIGRATION_DATABASE_URL": owner_url,
        "REFEREE_DATABASE_URL": login_url,
        "REFEREE_SEED_KEYS": keys,
        "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
    }
    referee = Path(sys.executable).parent / "referee"
    return subprocess.run(
        [str(referee), "migrate"], env=env, capture_output=True, text=True, timeout=120
    )


def referee_serve(login_url: str, keys: str) -> subprocess.CompletedProcess[str]:
    """`referee serve` that is expected to refuse to start (else the timeout fails the test)."""
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")},
        "REFEREE_DATABASE_URL": login_url,
        "REFEREE_SEED_KEYS": keys,
        "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
    }
    referee = Path(sys.executable).parent / "referee"
    return subprocess.run(
        [str(referee), "serve", "--port", "0"], env=env, capture_output=True, text=True, timeout=60
    )


def migrated(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    """The log line of `referee migrate` that says what it did."""
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    line: dict[str, object] = next(line for line in lines if "versions" in line)
    return line


def test_a_dump_shows_no_running_games_seed(
    serve: Serve, owner_database_url: str, seed_keys: SeedKeys
) -> None:
    server = serve()
    game_ids = []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for body in (
            {"kind": "coyote", "seats": 3},
            {"kind": "coyote", "seats": 4, "seed": CHOSEN.hex()},
            {"kind": "tribu", "seats": 2},
            {"kind": "wind-river", "seats": 3},
        ):
            created = http.post("/v1/games", json=body)
            assert created.status_code == 201, created.text
            game_ids.append(created.json()["game_id"])
    seeds = sealed_seeds(owner_database_url, game_ids, seed_keys)
    assert seeds[game_ids[1]] == CHOSEN
    assert_nowhere(seeds, dump(owner_database_url))


def hidden_values(kind: str, seats: int, game_id: str, seed: bytes) -> Iterator[bytes]:
    """What a spectator may not see of the game's opening (each hidden event's body, and each
    field a spectator sees otherwise), recomputed here from the seed."""
    game = REGISTRY[kind]
    _, played = Table.open(game, game.options_type(), seats, game_id=game_id, seed=seed)
    for item in played[1:]:
        shown = game.redact(item.event, None)
        if shown == item.event:
            continue
        yield Codec.encode(item.event)
        held, seen = msgspec.to_builtins(item.event), msgspec.to_builtins(shown)
        for name, value in held.items():
            encoded = msgspec.json.encode(value)
            if value != seen.get(name) and len(encoded) >= 40:  # long enough to be telling
                yield encoded


def test_a_dump_shows_no_running_games_hands_or_future_cards(
    serve: Serve, owner_database_url: str
) -> None:
    server = serve()
    searched = []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for number, game in enumerate(REGISTRY):
            kind, seats = game.kind, game.max_seats
            seed = bytes([number]) * 32
            body = {"kind": kind, "seats": seats, "seed": seed.hex()}
            created = http.post("/v1/games", json=body)
            assert created.status_code == 201, created.text
            game_id = created.json()["game_id"]
            searched += [(kind, value) for value in hidden_values(kind, seats, game_id, seed)]
    assert {kind for kind, _ in searched} >= {"coyote", "tribu"}  # games that deal in secret
    text = dump(owner_database_url)
    for kind, value in searched:
        assert value not in text and value.hex().encode() not in text, (kind, value[:60])


def test_plain_seeds_of_an_older_database_are_sealed_by_migrate(
    empty_database: Callable[[], str],
    login_url_for: Callable[[str], str],
    seed_keys: SeedKeys,
) -> None:
    owner = empty_database()
    asyncio.run(migrate(owner, until="0002_least_privilege"))  # as released before sealing
    plain = {f"old-{n}": os.urandom(32) for n in range(3)}
    with psycopg.connect(owner, autocommit=True) as conn:
        for game_id, seed in plain.items():
            conn.execute(
                """INSERT INTO games (game_id, kind, rules_version, seats, status, version,
                                      seed, seed_chosen_by_creator)
                   VALUES (%s, 'coyote', '1', 3, 'active', 0, %s, false)""",
                [game_id, seed],
            )
    assert plain[next(iter(plain))].hex().encode() in dump(owner)

    done = referee_migrate(owner, login_url_for(owner), TEST_SEED_KEYS)
    assert done.returncode == 0, done.stderr
    assert sealed_seeds(owner, list(plain), seed_keys) == plain
    assert_nowhere(plain, dump(owner))
    assert migrated(done)["seeds_sealed"] == 3
    assert str(migrated(done)["distribution"]).startswith("no citus extension")  # said, not done


def test_a_rotation_reseals_every_seed_under_the_newest_key(
    empty_database: Callable[[], str], login_url_for: Callable[[str], str]
) -> None:
    owner = empty_database()
    old = SeedKeys.generate("old")
    new = SeedKeys.generate("new")
    both = new.entries() + old.entries()  # the newest first
    assert referee_migrate(owner, login_url_for(owner), old.entries()).returncode == 0
    seeds = {f"game-{n}": os.urandom(32) for n in range(3)}
    with psycopg.connect(owner, autocommit=True) as conn:
        for game_id, seed in seeds.items():
            key_id, sealed = old.seal(game_id, seed)
            conn.execute(
                """INSERT INTO games (game_id, kind, rules_version, seats, status, version,
                                      seed_key_id, sealed_seed, seed_chosen_by_creator)
                   VALUES (%s, 'coyote', '1', 3, 'active', 0, %s, %s, false)""",
                [game_id, key_id, sealed],
            )

    # Without the old key, nothing can be re-sealed: migrate says so and changes nothing.
    refused = referee_migrate(owner, login_url_for(owner), new.entries())
    assert refused.returncode == 1
    assert "'old'" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1

    done = referee_migrate(owner, login_url_for(owner), both)
    assert done.returncode == 0, done.stderr
    assert migrated(done)["seeds_resealed"] == 3
    assert sealed_seeds(owner, list(seeds), new) == seeds  # the old key is no longer needed
    with pytest.raises(Exception, match="'new'"):
        sealed_seeds(owner, list(seeds), old)

    # A server given the old key only would fail every game: it refuses to start, and says why.
    refused = referee_serve(login_url_for(owner), old.entries())
    assert refused.returncode == 1, refused.stderr
    assert "'new' (3 games)" in refused.stderr and "REFEREE_SEED_KEYS" in refused.stderr

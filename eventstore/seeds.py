"""Seeds sealed at rest: AES-256-GCM under keys the database never sees.

A game's seed decides every card of the game, so while the game runs nobody may learn it,
including whoever can read the database (a backup, a replica, an operator). The store keeps
only `sealed_seed` = nonce (12 bytes) || AES-256-GCM ciphertext and tag, with the game id (UTF-8)
as associated data, so that a sealed seed copied onto another game does not open; beside it
`seed_key_id` names the key. The seed is revealed in the game's events once it is over, as
before; the sealed copy stays, for the bundles of finished games.

Keys come from the settings as `id:key` entries (the key: 32 bytes in base64), the newest
first: the first seals, every one opens. Rotation: put a new key first, keep the old ones,
run `referee migrate` (it re-seals every seed under the newest key), then drop the old keys.

`seal_seeds` is also the one-time step that seals the plain seeds of a database created before
seeds were sealed; it runs as the database's owner (the service's own role cannot even read
the plain column).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import psycopg
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from eventstore.keyfiles import KeySettingError, NamedKeys
from eventstore.types import DatabaseUnavailable, StoreError

KEY_BYTES = 32  # AES-256
NONCE_BYTES = 12
SEAL_BATCH = 500  # games re-sealed per transaction


class SeedKeyError(KeySettingError):
    """Seed keys that cannot be used: malformed settings, or a key file that is not private."""


class SealedSeedError(Exception):
    """A sealed seed that does not open: its key is not configured, or the row was altered.

    Not a StoreError: it is the server's configuration (or tampering), never a passing outage.
    """


class SeedKeyMissing(SealedSeedError):
    """A seed sealed with a key this server was not given: its operator must add the key."""


@dataclass(frozen=True, repr=False)
class SeedKeys(NamedKeys):
    """The keys that seal and open seeds: the first seals, every one opens."""

    WHAT: ClassVar[str] = "seed key"
    KEY_BYTES: ClassVar[int] = KEY_BYTES
    ERROR: ClassVar[type[KeySettingError]] = SeedKeyError

    _by_id: dict[str, AESGCM] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "_by_id", {key_id: AESGCM(key) for key_id, key in self.keys})

    def seal(self, game_id: str, seed: bytes) -> tuple[str, bytes]:
        """(key id, nonce || ciphertext) of `seed`, bound to `game_id`."""
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._by_id[self.current].encrypt(nonce, seed, game_id.encode())
        return self.current, nonce + sealed

    def open(self, game_id: str, key_id: str, sealed: bytes) -> bytes:
        """The seed sealed by `seal`. Raises SealedSeedError."""
        cipher = self._by_id.get(key_id)
        if cipher is None:
            raise SeedKeyMissing(
                f"the seed of game {game_id} is sealed with key {key_id!r}, which this server "
                f"does not have (it has {self.ids})"
            )
        try:
            return cipher.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], game_id.encode())
        except InvalidTag as error:
            raise SealedSeedError(
                f"the sealed seed of game {game_id} does not open: it was altered or copied"
            ) from error

    def derive(self, key_id: str, purpose: str) -> bytes:
        """A 32-byte key for another `purpose`, derived from seed key `key_id` (HMAC-SHA256).

        Raises KeyError when the key is not configured.
        """
        key = dict(self.keys)[key_id]
        return hmac.new(key, b"referee:" + purpose.encode(), hashlib.sha256).digest()


def read_key_file(path: Path) -> SeedKeys:
    """The seed keys in `path`, which must be readable by its owner only."""
    return SeedKeys.read_file(path)


def key_file(path: Path) -> SeedKeys:
    """The seed keys in `path`, made with one new key (mode 0600) if there is no file yet."""
    return SeedKeys.file(path)


# -- checking and sealing what is stored --------------------------------------------------------

# No row is locked while it is read (Citus refuses FOR UPDATE across shards): a row is written
# only if it still holds what was read, so two `migrate`s at once never undo each other's work
# (both seal the one seed the row holds; the second finds the row changed, then done).
_TO_SEAL = """
SELECT game_id, seed, seed_key_id, sealed_seed
  FROM games
 WHERE seed IS NOT NULL OR seed_key_id IS DISTINCT FROM %(current)s
 ORDER BY game_id
 LIMIT %(batch)s
"""

_STORE_SEALED = """
UPDATE games g
   SET seed = NULL, seed_key_id = s.key_id, sealed_seed = s.sealed
  FROM unnest(%(game_ids)s::text[], %(key_ids)s::text[], %(sealed)s::bytea[],
              %(was)s::bytea[]) AS s(game_id, key_id, sealed, was)
 WHERE g.game_id = s.game_id AND coalesce(g.seed, g.sealed_seed) = s.was
"""


_KEYS_IN_USE = """
SELECT seed_key_id, count(*) FROM games GROUP BY seed_key_id ORDER BY seed_key_id NULLS FIRST
"""


async def check_seed_keys(conn: psycopg.AsyncConnection[Any], keys: SeedKeys) -> None:
    """Raise SeedKeyMissing unless `keys` open every seed of the database, so that a server
    missing a key stops at start rather than failing the games sealed with it."""
    cursor = await conn.execute(_KEYS_IN_USE)
    missing = {key_id: count for key_id, count in await cursor.fetchall() if key_id not in keys.ids}
    if None in missing:
        raise SeedKeyMissing(
            f"{missing[None]} games still have a plain seed: run `referee migrate` (the owner's "
            "URL) to seal them"
        )
    if missing:
        games = ", ".join(f"{key_id!r} ({count} games)" for key_id, count in missing.items())
        raise SeedKeyMissing(
            f"seeds are sealed with keys this server does not have: {games}; add them to "
            "REFEREE_SEED_KEYS (or its file) after the newest key"
        )


@dataclass(frozen=True)
class SealReport:
    sealed_plain: int  # seeds that were stored in plain text (a database from before sealing)
    resealed: int  # seeds sealed with an older key, sealed again with the newest


async def seal_seeds(owner_conninfo: str, keys: SeedKeys) -> SealReport:
    """Seal every plain seed, and re-seal every seed not sealed with the newest key.

    Runs as the tables' owner, in batches, each its own transaction (safe beside a running
    service). After sealing plain seeds the games table is rewritten (VACUUM FULL), so that
    the old row versions that held them leave the database's files. Raises SealedSeedError
    when a seed is sealed with a key that is not configured.
    """
    plain = resealed = 0
    try:
        async with await psycopg.AsyncConnection.connect(owner_conninfo, autocommit=True) as conn:
            while True:
                async with conn.transaction():
                    cursor = await conn.execute(
                        _TO_SEAL, {"current": keys.current, "batch": SEAL_BATCH}
                    )
                    rows = await cursor.fetchall()
                    if not rows:
                        break
                    batch = list(_resealed(keys, rows))
                    await conn.execute(
                        _STORE_SEALED,
                        {
                            "game_ids": [game_id for game_id, _, _ in batch],
                            "key_ids": [key_id for _, key_id, _ in batch],
                            "sealed": [sealed for _, _, sealed in batch],
                            "was": [bytes(plain or sealed) for _, plain, _, sealed in rows],
                        },
                    )
                plain += sum(1 for row in rows if row[1] is not None)
                resealed += sum(1 for row in rows if row[1] is None)
            if plain:
                await conn.execute("VACUUM (FULL) games")
    except psycopg.OperationalError as error:
        raise DatabaseUnavailable(str(error)) from error
    except psycopg.Error as error:
        raise StoreError(f"sealing the seeds failed: {error}") from error
    return SealReport(sealed_plain=plain, resealed=resealed)


def _resealed(
    keys: SeedKeys, rows: Iterable[tuple[str, bytes | None, str | None, bytes | None]]
) -> Iterator[tuple[str, str, bytes]]:
    for game_id, plain, key_id, sealed in rows:
        if plain is not None:
            seed = bytes(plain)
        elif key_id is not None and sealed is not None:
            seed = keys.open(game_id, key_id, bytes(sealed))
        else:  # the table's CHECK makes this impossible
            raise StoreError(f"game {game_id} has no seed")
        yield (game_id, *keys.seal(game_id, seed))

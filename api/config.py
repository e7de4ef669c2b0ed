"""Settings of the service, read from the environment (`REFEREE_*`).

Every setting is parsed and checked when the process starts, and has a safe default; a bad
value raises SettingsError, whose message is one line naming the variable (`referee` prints it
and exits with status 2).

The database: `REFEREE_DATABASE_URL` is what the service logs in as (its own role, never the
owner nor a superuser); `REFEREE_MIGRATION_DATABASE_URL` is the owner, used only to migrate
(`referee migrate`, and `referee serve` when it is given). Without either, the embedded
PostgreSQL in `REFEREE_DATA_DIR` is used, with both roles and their passwords made for it.

The seed keys (`eventstore.seeds`): `REFEREE_SEED_KEYS` (`id:base64key` entries, the newest
first) or `REFEREE_SEED_KEYS_FILE` (the same, one a line, in a file of mode 0600). With a
database URL one of them is required; with the embedded database the default is a key file in
the data directory, made on first start. The signing keys (`api.signing`) are kept the same way:
`REFEREE_SIGNING_KEYS` or `REFEREE_SIGNING_KEYS_FILE` (Ed25519 private keys), required with a
database URL, else the embedded database's own file.
"""

from __future__ import annotations

import logging
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import psycopg

from api.signing import SigningKeys
from eventstore.keyfiles import KeySettingError, NamedKeys
from eventstore.seeds import SeedKeys

DEFAULT_DATA_DIR = Path(".referee-data")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

T = TypeVar("T")
K = TypeVar("K", bound=NamedKeys)


class SettingsError(ValueError):
    """A setting that cannot be used; the message is one line that names it."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    database_url: str | None = None  # the service's login; None: the embedded PostgreSQL
    migration_database_url: str | None = None  # the owner, to migrate; None: do not migrate
    seed_keys: SeedKeys | None = None  # None: the embedded database's key file
    signing_keys: SigningKeys | None = None  # None: the embedded database's signing key file
    data_dir: Path = DEFAULT_DATA_DIR
    max_body_bytes: int = 64 * 1024
    pool_min_size: int = 1
    pool_max_size: int = 10
    pool_timeout: float = 5.0  # seconds a request waits for a connection before a 503
    # Rebuilt games kept in memory, one entry per game: a few KiB each (tests/bench: 10,000
    # Coyote games, +46 MiB), so that 10,000 games in play are folded once, not on every move.
    table_cache_size: int = 10_000
    # Batches of appends on their way to the database at once (eventstore/groupcommit.py); 0:
    # every append its own statement (a Citus cluster: a batch would span shards).
    group_commit_writers: int = 2
    log_level: str = "INFO"
    sse_heartbeat_seconds: float = 15.0  # a quiet event stream sends a comment this often
    shutdown_grace_seconds: float = 10.0  # then open requests (event streams) are cut
    # -- server and expensive reads (hardening C) --
    # A connection must send a request's line and headers within this, from when it opens or
    # its previous response ends; else it is closed. Per process: connections beyond
    # `max_connections` are answered 503 and closed at once.
    header_read_timeout_seconds: float = 10.0
    body_read_timeout_seconds: float = 30.0  # a request's whole body, after its headers: else 408
    keep_alive_timeout_seconds: float = 5.0  # an idle connection between requests is closed
    max_connections: int = 2048
    audit_cache_size: int = 1024  # audit reports kept per process, one per game
    # Audits, exports and bundle checks, per client address and process: a bucket of `burst`
    # refilled at `per_minute` (0: no limit); beyond it, 429 with Retry-After.
    expensive_reads_per_minute: float = 60.0
    expensive_reads_burst: int = 30
    # Browser pages of these origins may call the API (CORS); none by default, "*" for any: the
    # API authenticates with bearer tokens, never cookies, so no origin gains a seat's rights.
    cors_origins: tuple[str, ...] = ()
    # The server's own moves (api/sweeper.py): due games are looked at this often (0: not by
    # this process), and a game with no command for `abandon_after_seconds` is closed as
    # abandoned (0: never).
    sweep_interval_seconds: float = 1.0
    abandon_after_seconds: float = 30 * 24 * 3600.0
    # The server's bots cost CPU the players' commands would not: creating a game with bot seats
    # is limited per client address and process like the expensive reads (a bucket of `burst`
    # refilled at `per_minute`, 0: no limit; beyond it 429), and the bots of a process move one
    # at a time, resting so that they take at most `bot_cpu_share` of its time.
    bot_games_per_minute: float = 6.0
    bot_games_burst: int = 3
    bot_cpu_share: float = 0.25
    # An open table not filled within `open_table_seconds` of its creation is cancelled. A
    # sitting refused as if there were no such game spends one of its client's
    # `invitation_guesses` (a bucket like the ones above); with none left, a sitting with a code
    # is refused before the code is checked.
    open_table_seconds: float = 3600.0
    # The checkpoint log (api/checkpoints.py): every this many seconds, the heads that changed
    # are added and the log's new head signed, by one process at a time (0: not by this one).
    checkpoint_seconds: float = 60.0
    invitation_guesses_per_minute: float = 10.0
    invitation_guesses_burst: int = 10

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """The settings of the environment. Raises SettingsError (one line) on a bad value."""
        defaults = cls()
        env = _Environment(environ)
        database_url = env.get("REFEREE_DATABASE_URL", _conninfo, None)
        seed_keys = _keys(environ, "REFEREE_SEED_KEYS", SeedKeys)
        signing_keys = _keys(environ, "REFEREE_SIGNING_KEYS", SigningKeys)
        for name, keys in (
            ("REFEREE_SEED_KEYS", seed_keys),
            ("REFEREE_SIGNING_KEYS", signing_keys),
        ):
            if database_url is not None and keys is None:
                raise SettingsError(
                    f"{name} or {name}_FILE is required with REFEREE_DATABASE_URL (the "
                    "embedded database keeps its own key file)"
                )
        return cls(
            database_url=database_url,
            migration_database_url=env.get("REFEREE_MIGRATION_DATABASE_URL", _conninfo, None),
            seed_keys=seed_keys,
            signing_keys=signing_keys,
            data_dir=env.get("REFEREE_DATA_DIR", Path, defaults.data_dir),
            max_body_bytes=env.get("REFEREE_MAX_BODY_BYTES", _count(1), defaults.max_body_bytes),
            pool_min_size=env.get("REFEREE_POOL_MIN_SIZE", _count(0), defaults.pool_min_size),
            pool_max_size=env.get("REFEREE_POOL_MAX_SIZE", _count(1), defaults.pool_max_size),
            pool_timeout=env.get("REFEREE_POOL_TIMEOUT", _seconds, defaults.pool_timeout),
            table_cache_size=env.get(
                "REFEREE_TABLE_CACHE_SIZE", _count(1), defaults.table_cache_size
            ),
            group_commit_writers=env.get(
                "REFEREE_GROUP_COMMIT_WRITERS", _count(0), defaults.group_commit_writers
            ),
            log_level=env.get("REFEREE_LOG_LEVEL", _log_level, defaults.log_level),
            sse_heartbeat_seconds=env.get(
                "REFEREE_SSE_HEARTBEAT_SECONDS", _seconds, defaults.sse_heartbeat_seconds
            ),
            shutdown_grace_seconds=env.get(
                "REFEREE_SHUTDOWN_GRACE_SECONDS", _seconds, defaults.shutdown_grace_seconds
            ),
            header_read_timeout_seconds=env.get(
                "REFEREE_HEADER_READ_TIMEOUT_SECONDS",
                _seconds,
                defaults.header_read_timeout_seconds,
            ),
            body_read_timeout_seconds=env.get(
                "REFEREE_BODY_READ_TIMEOUT_SECONDS", _seconds, defaults.body_read_timeout_seconds
            ),
            keep_alive_timeout_seconds=env.get(
                "REFEREE_KEEP_ALIVE_TIMEOUT_SECONDS", _seconds, defaults.keep_alive_timeout_seconds
            ),
            max_connections=env.get("REFEREE_MAX_CONNECTIONS", _count(1), defaults.max_connections),
            audit_cache_size=env.get(
                "REFEREE_AUDIT_CACHE_SIZE", _count(0), defaults.audit_cache_size
            ),
            expensive_reads_per_minute=env.get(
                "REFEREE_EXPENSIVE_READS_PER_MINUTE", _rate, defaults.expensive_reads_per_minute
            ),
            expensive_reads_burst=env.get(
                "REFEREE_EXPENSIVE_READS_BURST", _count(1), defaults.expensive_reads_burst
            ),
            cors_origins=env.get("REFEREE_CORS_ORIGINS", _origins, defaults.cors_origins),
            sweep_interval_seconds=env.get(
                "REFEREE_SWEEP_INTERVAL_SECONDS", _rate, defaults.sweep_interval_seconds
            ),
            abandon_after_seconds=env.get(
                "REFEREE_ABANDON_AFTER_SECONDS", _rate, defaults.abandon_after_seconds
            ),
            bot_games_per_minute=env.get(
                "REFEREE_BOT_GAMES_PER_MINUTE", _rate, defaults.bot_games_per_minute
            ),
            bot_games_burst=env.get("REFEREE_BOT_GAMES_BURST", _count(1), defaults.bot_games_burst),
            bot_cpu_share=env.get("REFEREE_BOT_CPU_SHARE", _share, defaults.bot_cpu_share),
            open_table_seconds=env.get(
                "REFEREE_OPEN_TABLE_SECONDS", _seconds, defaults.open_table_seconds
            ),
            invitation_guesses_per_minute=env.get(
                "REFEREE_INVITATION_GUESSES_PER_MINUTE",
                _rate,
                defaults.invitation_guesses_per_minute,
            ),
            invitation_guesses_burst=env.get(
                "REFEREE_INVITATION_GUESSES_BURST", _count(1), defaults.invitation_guesses_burst
            ),
            checkpoint_seconds=env.get(
                "REFEREE_CHECKPOINT_SECONDS", _rate, defaults.checkpoint_seconds
            ),
        )

    def __post_init__(self) -> None:
        if self.pool_min_size > self.pool_max_size:
            raise SettingsError(
                f"REFEREE_POOL_MIN_SIZE ({self.pool_min_size}) is more than "
                f"REFEREE_POOL_MAX_SIZE ({self.pool_max_size})"
            )
        if self.migration_database_url is not None and self.database_url is None:
            raise SettingsError(
                "REFEREE_MIGRATION_DATABASE_URL is set without REFEREE_DATABASE_URL (the "
                "service's own login); set both, or neither for the embedded database"
            )


class _Environment:
    """Reads variables; an empty one counts as unset (its default applies)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ

    def get(self, name: str, parse: Callable[[str], T], default: T) -> T:
        raw = self._environ.get(name, "").strip()
        if not raw:
            return default
        try:
            return parse(raw)
        except (ValueError, TypeError) as error:
            raise SettingsError(f"{name}={_shown(name, raw)}: {error}") from None


def _shown(name: str, raw: str) -> str:
    return "(hidden)" if "URL" in name or "KEY" in name else repr(raw)


def _count(minimum: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            raise ValueError("not a whole number") from None
        if value < minimum:
            raise ValueError(f"at least {minimum}")
        return value

    return parse


def _finite(raw: str, what: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"not {what}") from None
    if not math.isfinite(value):
        raise ValueError(f"not {what}: {raw}")
    return value


def _seconds(raw: str) -> float:
    if _finite(raw, "a number of seconds") <= 0:
        raise ValueError("a number of seconds above 0")
    return float(raw)


def _share(raw: str) -> float:
    value = _finite(raw, "a number")
    if not 0 < value <= 1:
        raise ValueError("a share of the time above 0 and at most 1 (1: unpaced)")
    return value


def _rate(raw: str) -> float:
    if _finite(raw, "a number") < 0:
        raise ValueError("a number of 0 or more (0: no limit)")
    return float(raw)


ORIGIN = re.compile(r"(?P<scheme>https?)://(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>[0-9]+))?")
HOST_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
DEFAULT_PORTS = {"http": 80, "https": 443}


def _origins(raw: str) -> tuple[str, ...]:
    origins = tuple(origin for origin in re.split(r"[\s,]+", raw.strip()) if origin)
    for origin in origins:
        if origin != "*":
            _origin(origin)
    if "*" in origins and len(origins) > 1:
        raise ValueError('"*" (any origin) stands alone')
    return origins


def _origin(origin: str) -> None:
    """An origin exactly as a browser sends it in `Origin` (else it would never match one)."""
    match = ORIGIN.fullmatch(origin)
    if match is None:
        raise ValueError(f"{origin!r} is not an origin such as https://example.org:8443")
    scheme, host, port = match["scheme"], match["host"], match["port"]
    if len(host) > 253 or not all(HOST_LABEL.fullmatch(label) for label in host.split(".")):
        raise ValueError(f"{origin!r}: {host!r} is not a host name")
    if port is not None and not 1 <= int(port) <= 65535:
        raise ValueError(f"{origin!r}: a port is 1 to 65535")
    shown = "" if port is None or int(port) == DEFAULT_PORTS[scheme] else f":{int(port)}"
    sent = f"{scheme}://{host.lower()}{shown}"
    if sent != origin:
        raise ValueError(f"{origin!r} never matches: a browser sends {sent!r}")


def _log_level(raw: str) -> str:
    level = raw.upper()
    if level not in LOG_LEVELS or not isinstance(logging.getLevelName(level), int):
        raise ValueError(f"one of {', '.join(LOG_LEVELS)}")
    return level


def _conninfo(raw: str) -> str:
    try:
        psycopg.conninfo.conninfo_to_dict(raw)
    except psycopg.ProgrammingError:
        raise ValueError("not a libpq URL or connection string") from None
    return raw


def _keys(environ: Mapping[str, str], name: str, keys: type[K]) -> K | None:
    """The keys of setting `name` (inline) or `name`_FILE (a private file), if either is set."""
    inline = environ.get(name, "").strip()
    path = environ.get(f"{name}_FILE", "").strip()
    if inline and path:
        raise SettingsError(f"set {name} or {name}_FILE, not both")
    try:
        if inline:
            return keys.parse(inline)
        if path:
            return keys.read_file(Path(path))
    except KeySettingError as error:
        raise SettingsError(f"{name if inline else name + '_FILE'}: {error}") from None
    return None

"""Settings of the service, read from the environment (`REFEREE_*`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path(".referee-data")


@dataclass(frozen=True, kw_only=True)
class Settings:
    database_url: str | None = None  # None: start the embedded PostgreSQL in `data_dir`
    data_dir: Path = DEFAULT_DATA_DIR
    max_body_bytes: int = 64 * 1024
    pool_min_size: int = 1
    pool_max_size: int = 10
    pool_timeout: float = 5.0  # seconds a request waits for a connection before a 503
    table_cache_size: int = 1024  # rebuilt games kept in memory, one entry per game
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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        defaults = cls()
        return cls(
            database_url=environ.get("REFEREE_DATABASE_URL") or None,
            data_dir=Path(environ.get("REFEREE_DATA_DIR") or defaults.data_dir),
            max_body_bytes=int(environ.get("REFEREE_MAX_BODY_BYTES", defaults.max_body_bytes)),
            pool_min_size=int(environ.get("REFEREE_POOL_MIN_SIZE", defaults.pool_min_size)),
            pool_max_size=int(environ.get("REFEREE_POOL_MAX_SIZE", defaults.pool_max_size)),
            pool_timeout=float(environ.get("REFEREE_POOL_TIMEOUT", defaults.pool_timeout)),
            table_cache_size=int(
                environ.get("REFEREE_TABLE_CACHE_SIZE", defaults.table_cache_size)
            ),
            log_level=environ.get("REFEREE_LOG_LEVEL", defaults.log_level).upper(),
            sse_heartbeat_seconds=float(
                environ.get("REFEREE_SSE_HEARTBEAT_SECONDS", defaults.sse_heartbeat_seconds)
            ),
            shutdown_grace_seconds=float(
                environ.get("REFEREE_SHUTDOWN_GRACE_SECONDS", defaults.shutdown_grace_seconds)
            ),
            # -- server and expensive reads (hardening C) --
            header_read_timeout_seconds=float(
                environ.get(
                    "REFEREE_HEADER_READ_TIMEOUT_SECONDS", defaults.header_read_timeout_seconds
                )
            ),
            body_read_timeout_seconds=float(
                environ.get("REFEREE_BODY_READ_TIMEOUT_SECONDS", defaults.body_read_timeout_seconds)
            ),
            keep_alive_timeout_seconds=float(
                environ.get(
                    "REFEREE_KEEP_ALIVE_TIMEOUT_SECONDS", defaults.keep_alive_timeout_seconds
                )
            ),
            max_connections=int(environ.get("REFEREE_MAX_CONNECTIONS", defaults.max_connections)),
            audit_cache_size=int(
                environ.get("REFEREE_AUDIT_CACHE_SIZE", defaults.audit_cache_size)
            ),
            expensive_reads_per_minute=float(
                environ.get(
                    "REFEREE_EXPENSIVE_READS_PER_MINUTE", defaults.expensive_reads_per_minute
                )
            ),
            expensive_reads_burst=int(
                environ.get("REFEREE_EXPENSIVE_READS_BURST", defaults.expensive_reads_burst)
            ),
        )

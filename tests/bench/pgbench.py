"""What PostgreSQL itself does on this machine: pgbench, one event-sized INSERT per transaction.

The yardstick for the store's direct appends (tests/bench/store_bench.py): the same cluster,
the same number of clients, a row shaped like one in `events` (a text key, a seq, a type, a
~200-byte body, two 32-byte hashes: about 300 bytes) into a scratch table with the same
primary key, committed one at a time (durably, if the cluster is). pgbench is the cluster's
own when the embedded PostgreSQL ships it, else the machine's (`pgbench` on PATH).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psycopg

from tests.bench.store_bench import MOVE_BODY

SCRATCH = """
DROP TABLE IF EXISTS bench_pgbench_events;
DROP SEQUENCE IF EXISTS bench_pgbench_seq;
CREATE SEQUENCE bench_pgbench_seq;
CREATE TABLE bench_pgbench_events (
    game_id       text        NOT NULL,
    seq           bigint      NOT NULL,
    type          text        NOT NULL,
    body          bytea       NOT NULL,
    chance_cursor bigint      NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    prev_hash     bytea       NOT NULL,
    hash          bytea       NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

SCRIPT = (
    "INSERT INTO bench_pgbench_events (game_id, seq, type, body, chance_cursor, prev_hash, hash)"
    " VALUES ('pgbench-' || :client_id, nextval('bench_pgbench_seq'), 'bench.move',"
    f" '\\x{MOVE_BODY.hex()}'::bytea, 1, '\\x{'ab' * 32}'::bytea, '\\x{'cd' * 32}'::bytea);\n"
)


def pgbench_binary() -> Path | None:
    try:
        from eventstore.embedded import pg_dump_path

        bundled = pg_dump_path().with_name("pgbench")
        if bundled.exists():
            return bundled
    except ImportError:
        pass
    found = shutil.which("pgbench")
    return Path(found) if found else None


def run_pgbench(owner_url: str, clients: int, seconds: float) -> dict[str, Any]:
    """Inserts per second (pgbench's tps without connection time); {} without pgbench."""
    binary = pgbench_binary()
    if binary is None:
        return {}
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute(SCRATCH)
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
            script.write(SCRIPT)
        command = [
            str(binary),
            "--no-vacuum",
            f"--file={script.name}",
            f"--client={clients}",
            f"--jobs={min(clients, os.cpu_count() or 1)}",
            f"--time={max(1, round(seconds))}",
            owner_url,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    finally:
        os.unlink(script.name)
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute("DROP TABLE bench_pgbench_events; DROP SEQUENCE bench_pgbench_seq")
    tps = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", done.stdout)
    if done.returncode != 0 or tps is None:
        raise RuntimeError(f"pgbench failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    latency = re.search(r"latency average = ([0-9.]+) ms", done.stdout)
    return {
        "pgbench": str(binary),
        "pgbench_clients": clients,
        "pgbench_inserts_per_second": round(float(tps.group(1)), 1),
        "pgbench_latency_ms": float(latency.group(1)) if latency else None,
    }

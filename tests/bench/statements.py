"""What PostgreSQL does per move, statement by statement (`make bench ARGS=--statements`).

The bench's cluster is restarted with `pg_stat_statements` preloaded; its counters are reset
before the full-load phase and read after it, then divided by the moves of the phase: calls,
execution time, rows and shared blocks per move of each statement the service sent (the
server's own parsing, planning and commits are outside it: the phase's PostgreSQL CPU per move
says the whole).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg

from eventstore.embedded import EmbeddedDatabase, start_embedded, stop_embedded

TOP = 12

_READ = """
SELECT query, calls, total_exec_time, total_plan_time, rows, shared_blks_hit + shared_blks_read,
       wal_records
  FROM pg_stat_statements
 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
 ORDER BY total_exec_time DESC
 LIMIT %s
"""


def preloaded(data_dir: Path, embedded: EmbeddedDatabase) -> EmbeddedDatabase:
    """The cluster restarted with pg_stat_statements loaded, its extension created."""
    with psycopg.connect(embedded.owner_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        conn.execute("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
    stop_embedded(data_dir)
    restarted = start_embedded(data_dir)
    with psycopg.connect(restarted.owner_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    return restarted


def reset(owner_url: str) -> None:
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_statements_reset()")


def per_move(owner_url: str, moves: int) -> list[dict[str, Any]]:
    """The statements that took the most time since `reset`, each per move of the phase."""
    with psycopg.connect(owner_url, autocommit=True) as conn:
        rows = conn.execute(_READ, [TOP]).fetchall()
    return [
        {
            "statement": " ".join(str(query).split())[:90],
            "calls_per_move": round(calls / moves, 3),
            "exec_ms_per_move": round(exec_ms / moves, 4),
            "plan_ms_per_move": round(plan_ms / moves, 4),
            "rows_per_call": round(rows / calls, 2) if calls else None,
            "blocks_per_move": round(blocks / moves, 1),
            "wal_records_per_move": round(wal / moves, 2),
        }
        for query, calls, exec_ms, plan_ms, rows, blocks, wal in rows
    ]


def printed(statements: list[dict[str, Any]]) -> str:
    lines = ["   calls  exec ms  plan ms  blocks  wal  statement (per move)"]
    lines += [
        f"  {s['calls_per_move']:6.3f} {s['exec_ms_per_move']:8.4f} {s['plan_ms_per_move']:8.4f}"
        f" {s['blocks_per_move']:7.1f} {s['wal_records_per_move']:4.1f}  {s['statement']}"
        for s in statements
    ]
    return "\n".join(lines)

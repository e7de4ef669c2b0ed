"""The schema on a cluster: what `referee migrate` distributes, and the checks it puts where
the rows are."""

from __future__ import annotations

import psycopg

from eventstore.distribution import DISTRIBUTED, REFERENCE, ROW_CHECKS, STATEMENT_CHECKS
from tests.citus.conftest import CitusDatabase


def test_migrate_distributes_every_table_of_a_game_by_its_id(citus_database: CitusDatabase) -> None:
    assert citus_database.provisioned.distribution.distributed
    with psycopg.connect(citus_database.owner_url) as conn:
        rows = conn.execute(
            "SELECT logicalrelid::text, partmethod, column_to_column_name(logicalrelid, partkey),"
            "       colocationid FROM pg_dist_partition"
        ).fetchall()
    by_table = {table: (method, column, colocation) for table, method, column, colocation in rows}
    assert {by_table[t][:2] for t in DISTRIBUTED} == {("h", "game_id")}
    assert len({by_table[t][2] for t in DISTRIBUTED}) == 1, "co-located: a game on one shard"
    assert {by_table[t][0] for t in REFERENCE} == {"n"}


def test_every_shard_has_the_checks_of_a_cluster(citus_database: CitusDatabase) -> None:
    """The statement-level checks are gone and the deferred row checks are on every shard of
    their table, on the workers."""
    shards_with: dict[str, list[tuple[str, bool]]] = {}
    for worker in citus_database.cluster.workers:
        with psycopg.connect(worker.url()) as conn:
            conn.execute("SET citus.show_shards_for_app_name_prefixes = '*'")  # hidden otherwise
            rows = conn.execute(
                "SELECT t.tgname, c.relname, t.tgdeferrable, t.tginitdeferred FROM pg_trigger t"
                " JOIN pg_class c ON c.oid = t.tgrelid"
                " WHERE c.relname ~ '_[0-9]+$' AND NOT t.tgname LIKE 'RI_%'"
            ).fetchall()
        for name, relation, deferrable, deferred in rows:
            trigger = name.rsplit("_", 1)[0]  # a shard's copy: `<trigger>_<shard id>`
            shards_with.setdefault(trigger, []).append((relation, deferrable and deferred))
    for table, trigger in STATEMENT_CHECKS:
        assert trigger not in shards_with, f"{trigger} on {table}'s shards"
    with psycopg.connect(citus_database.owner_url) as conn:
        shard_counts = dict(
            conn.execute(
                "SELECT logicalrelid::text, count(*) FROM pg_dist_shard GROUP BY 1"
            ).fetchall()
        )
    for table, trigger, _, _ in ROW_CHECKS:
        found = shards_with.get(trigger, [])
        assert len(found) == shard_counts[table], (trigger, found)
        assert all(deferred for _, deferred in found)

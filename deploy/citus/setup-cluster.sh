#!/usr/bin/env bash
# The operator's steps that make a coordinator and its workers one Citus cluster for the
# referee's database, in order. tests/citus runs the same steps (tests/citus/cluster.py and
# add_workers in tests/citus/conftest.py): change them together.
#
#   1. On every node, in the referee database: CREATE EXTENSION IF NOT EXISTS citus. Citus does
#      not propagate CREATE DATABASE: the database must exist on each node already (the
#      citusdata/citus image makes POSTGRES_DB, and installs the extension there, when it
#      initialises its volume).
#   2. On the coordinator: SELECT citus_set_coordinator_host(coordinator, port).
#   3. On the coordinator, for each worker not yet in pg_dist_node:
#      SELECT citus_add_node(worker, port).
#
# Each step is idempotent: run again (after a restart, or with a worker more in WORKERS) the
# script adds only what is missing. A worker added later holds no shards until they are
# rebalanced (citus_rebalance_start). Then `referee migrate`, as the owner on the coordinator,
# distributes the tables, and deploy/citus/worker-login.sh gives the coordinator the password
# of the service's login.
#
# Environment: COORDINATOR, a host or host:port (port 5432 unless given); WORKERS, the same
# for each worker, separated by spaces; libpq's PGUSER, PGPASSWORD and PGDATABASE: a superuser
# (citus_add_node needs one) and the referee database, the same on every node.
set -euo pipefail

: "${COORDINATOR:?set COORDINATOR: the coordinator, host or host:port}"
: "${WORKERS:?set WORKERS: the workers, host or host:port, separated by spaces}"
: "${PGDATABASE:?set PGDATABASE: the referee database, on every node}"

host_of() { printf '%s\n' "${1%%:*}"; }

port_of() {
    local port=5432
    if [[ $1 == *:* ]]; then port=${1##*:}; fi
    if [[ ! $port =~ ^[0-9]+$ ]]; then
        echo "setup-cluster: not a port: $1" >&2
        exit 2
    fi
    printf '%s\n' "$port"
}

# psql on one node (host:port), stopping at the first error; SQL from standard input, where
# psql's :'variables' are quoted as literals.
on_node() {
    local node=$1
    shift
    psql --no-psqlrc --quiet --set ON_ERROR_STOP=1 \
        --host "$(host_of "$node")" --port "$(port_of "$node")" "$@"
}

# A node may still be starting (or initialising its volume): wait for it, a minute at most.
wait_for() {
    local node=$1 tries=60
    until pg_isready --quiet --host "$(host_of "$node")" --port "$(port_of "$node")"; do
        tries=$((tries - 1))
        if ((tries == 0)); then
            echo "setup-cluster: $node is not accepting connections" >&2
            exit 1
        fi
        sleep 1
    done
}

read -r -a workers <<<"$WORKERS"

for node in "$COORDINATOR" "${workers[@]}"; do
    wait_for "$node"
done

# 1. The extension, on every node.
for node in "$COORDINATOR" "${workers[@]}"; do
    on_node "$node" <<'SQL'
CREATE EXTENSION IF NOT EXISTS citus;
SQL
done

# 2. The coordinator, by the name the workers reach it at.
on_node "$COORDINATOR" --set host="$(host_of "$COORDINATOR")" \
    --set port="$(port_of "$COORDINATOR")" <<'SQL'
SELECT citus_set_coordinator_host(:'host', :'port'::integer);
SQL

# 3. Each worker, unless the coordinator has it already.
for node in "${workers[@]}"; do
    on_node "$COORDINATOR" --set host="$(host_of "$node")" --set port="$(port_of "$node")" <<'SQL'
SELECT citus_add_node(:'host', :'port'::integer)
 WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node
                    WHERE nodename = :'host' AND nodeport = :'port'::integer);
SQL
done

on_node "$COORDINATOR" <<'SQL'
SELECT nodename, nodeport, groupid, noderole, isactive FROM pg_dist_node ORDER BY groupid;
SQL

#!/usr/bin/env bash
# After `referee migrate`, on the coordinator: the password the coordinator presents to the
# workers for the service's login. Citus runs a query's parts on the workers as the user who
# sent it to the coordinator, over connections of its own. The roles reach the workers (Citus
# propagates CREATE ROLE, with the password's SCRAM verifier, when migrate creates the login),
# but a verifier cannot log in: the coordinator needs the password itself, and finds it in
# pg_dist_authinfo (nodeid 0: for every node). The owner's comes from PGPASSWORD in the
# coordinator's environment (the citusdata/citus image keeps it there for this purpose).
#
# A row names an existing role (pg_dist_authinfo checks it): hence after migrate, which creates
# the login. Idempotent; after a change of the login's password (ALTER ROLE on the coordinator,
# which Citus propagates), run it again with the new one. The password is kept in clear in
# pg_dist_authinfo, which only superusers can read. tests/citus trusts its loopback connections
# and needs no such row.
#
# Environment: COORDINATOR, host or host:port (port 5432 unless given); LOGIN, the service's
# login (the user of REFEREE_DATABASE_URL); LOGIN_PASSWORD, its password; libpq's PGUSER,
# PGPASSWORD and PGDATABASE: a superuser and the referee database.
set -euo pipefail

: "${COORDINATOR:?set COORDINATOR: the coordinator, host or host:port}"
: "${LOGIN:?set LOGIN: the service login (the user of REFEREE_DATABASE_URL)}"
: "${LOGIN_PASSWORD:?set LOGIN_PASSWORD: the password of LOGIN}"
: "${PGDATABASE:?set PGDATABASE: the referee database}"

port=5432
if [[ $COORDINATOR == *:* ]]; then port=${COORDINATOR##*:}; fi

# The password is read from the environment (\getenv, psql 15 or later), not passed as an
# argument that ps would show, and written as a libpq value: in single quotes, a quote or a
# backslash escaped by a backslash.
psql --no-psqlrc --quiet --set ON_ERROR_STOP=1 --host "${COORDINATOR%%:*}" --port "$port" \
    --set login="$LOGIN" <<'SQL'
\getenv password LOGIN_PASSWORD
BEGIN;
DELETE FROM pg_dist_authinfo WHERE nodeid = 0 AND rolename = :'login';
INSERT INTO pg_dist_authinfo (nodeid, rolename, authinfo)
VALUES (0, :'login',
        'password=''' || replace(replace(:'password', '\', '\\'), '''', '\''') || '''');
COMMIT;
SQL
echo "worker-login: the coordinator presents the password of $LOGIN to every node"

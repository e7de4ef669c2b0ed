#!/usr/bin/env bash
# Runs pytest against a throw-away PostgreSQL server of another major than the embedded one:
#   tests/run_on_postgres.sh /usr/lib/postgresql/15/bin [pytest arguments...]
# (`make test-pg15` runs the store and API tests on Debian's PostgreSQL 15, the oldest major we
# support.) The server lives in a temporary directory, listens on 127.0.0.1 only, asks every
# connection for a password, and is stopped and deleted at the end. pg_ctl refuses to run as
# root, so as root the server runs as `nobody`; the tests reach it through
# REFEREE_TEST_DATABASE_URL as its superuser (tests/conftest.py).
set -euo pipefail

bin_dir=${1:?usage: $0 POSTGRES_BIN_DIR [pytest arguments...]}
shift
if [[ ! -x "$bin_dir/initdb" || ! -x "$bin_dir/pg_ctl" ]]; then
    echo "$0: no PostgreSQL in $bin_dir (on Debian: apt-get install postgresql-15)" >&2
    exit 2
fi

as_server_user=()
if [[ $(id -u) == 0 ]]; then
    as_server_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi

work_dir=$(mktemp -d /tmp/referee-external-pg.XXXXXX)
chmod 0755 "$work_dir"
data_dir="$work_dir/data"
password=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '%s\n' "$password" > "$work_dir/password"
if [[ ${#as_server_user[@]} -gt 0 ]]; then
    chown nobody:nogroup "$work_dir" "$work_dir/password"
fi
chmod 0600 "$work_dir/password"

stop_server() {
    "${as_server_user[@]}" "$bin_dir/pg_ctl" --pgdata "$data_dir" --mode fast stop \
        >/dev/null 2>&1 || true
    rm -rf "$work_dir"
}
trap stop_server EXIT

"${as_server_user[@]}" "$bin_dir/initdb" --pgdata "$data_dir" --username postgres \
    --pwfile "$work_dir/password" --auth scram-sha-256 --encoding UTF8 --no-sync >/dev/null
# A throw-away cluster: durability off, as for the embedded test server.
"${as_server_user[@]}" "$bin_dir/pg_ctl" --pgdata "$data_dir" --wait \
    --log "$work_dir/server.log" \
    --options "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$work_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null

server_url="postgresql://postgres:$password@127.0.0.1:$port"
"$bin_dir/createdb" --maintenance-db "$server_url/postgres" referee
echo "$0: $("$bin_dir/postgres" --version) on 127.0.0.1:$port" >&2

status=0
REFEREE_TEST_DATABASE_URL="$server_url/referee" .venv/bin/python -m pytest "$@" || status=$?
exit "$status"

"""The service's own database login can read and append, and nothing else: not become another
role, not rewrite or remove history, not change the schema, not move a game backwards, nor a
game's version past its events, nor add an event out of line. Checked
from that very login (what any code in a server process could send), beside a real server."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import psycopg
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from tests.reliability.conftest import Serve
from tests.servers import TEST_SEED_KEYS, TEST_SIGNING_KEYS, Server

Conn = AsyncConnection[TupleRow]

# Each must be refused by the database itself, whatever the code that sends it.
REFUSED = [
    "SET ROLE postgres",
    "SET SESSION AUTHORIZATION postgres",
    "SET session_replication_role = replica",
    "UPDATE events SET body = 'x' WHERE game_id = %(g)s",
    "DELETE FROM events WHERE game_id = %(g)s",
    "TRUNCATE events CASCADE",
    "UPDATE commands SET body = 'x' WHERE game_id = %(g)s",
    "DELETE FROM commands WHERE game_id = %(g)s",
    "TRUNCATE commands CASCADE",
    "DELETE FROM games WHERE game_id = %(g)s",
    "TRUNCATE games CASCADE",
    "DELETE FROM seat_tokens WHERE game_id = %(g)s",
    "UPDATE games SET kind = 'x' WHERE game_id = %(g)s",
    "SELECT seed FROM games",
    "ALTER TABLE events DISABLE TRIGGER events_append_only",
    "ALTER TABLE games DISABLE TRIGGER games_only_move_forward",
    "ALTER TABLE events ADD COLUMN note text",
    "DROP TABLE events",
    "DROP TRIGGER commands_append_only ON commands",
    "DROP FUNCTION refuse_rewriting_history()",
    "CREATE TABLE mine (x int)",
    "CREATE ROLE intruder",
    "GRANT referee_app TO postgres",
    "ALTER ROLE referee_app LOGIN",
    "DROP SCHEMA public CASCADE",
]
BACKWARDS = [
    "UPDATE games SET version = 1 WHERE game_id = %(g)s",
    "UPDATE games SET version = version - 1, command_count = 0 WHERE game_id = %(g)s",
]

ZERO = "decode(repeat('00', 32), 'hex')"
# Each moves a game out of line with its events, or adds an event out of line: refused at commit.
OUT_OF_LINE = {
    "version past its events": "UPDATE games SET version = version + 2 WHERE game_id = %(g)s",
    "event past the version": "INSERT INTO events (game_id, seq, type, body, chance_cursor,"
    f" prev_hash, hash) SELECT game_id, version + 1, 'x', 'x', 0, {ZERO}, {ZERO}"
    " FROM games WHERE game_id = %(g)s",
    "event not chained": "WITH moved AS (UPDATE games SET version = version + 1"
    " WHERE game_id = %(g)s RETURNING game_id, version)"
    " INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)"
    f" SELECT game_id, version, 'x', 'x', 0, {ZERO}, sha256({ZERO} || 'x') FROM moved",
    "event of no command": "WITH moved AS (UPDATE games SET version = version + 1"
    " WHERE game_id = %(g)s RETURNING game_id, version)"
    " INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash, command_id)"
    " SELECT m.game_id, m.version, 'x', 'x', 0, e.hash, sha256(e.hash || 'x'), 999 FROM moved m"
    " JOIN events e ON e.game_id = m.game_id AND e.seq = m.version - 1",
    "event with a false hash": "WITH moved AS (UPDATE games SET version = version + 1"
    " WHERE game_id = %(g)s RETURNING game_id, version)"
    " INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)"
    " SELECT m.game_id, m.version, 'x', 'x', 0, e.hash, e.hash FROM moved m"
    " JOIN events e ON e.game_id = m.game_id AND e.seq = m.version - 1",
}


@pytest.fixture(scope="module")
def server(serve: Serve) -> Server:
    return serve()


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        yield client


@pytest.fixture
async def login(database_url: str) -> AsyncIterator[Conn]:
    """A connection as the server's own login: REFEREE_DATABASE_URL."""
    async with await AsyncConnection.connect(database_url, autocommit=True) as conn:
        yield conn


async def new_game(http: httpx.AsyncClient) -> tuple[str, dict[int, str]]:
    created = await http.post("/v1/games", json={"kind": "coyote", "seats": 3})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["game_id"], {item["seat"]: item["token"] for item in body["seat_tokens"]}


async def bid(http: httpx.AsyncClient, game_id: str, tokens: dict[int, str], number: int) -> int:
    url = f"/v1/games/{game_id}"
    seat = (await http.get(url)).json()["to_act"][0]
    response = await http.post(
        f"{url}/commands",
        json={"command": {"type": "coyote.bid", "number": number}},
        headers={"Authorization": f"Bearer {tokens[seat]}"},
    )
    return response.status_code


async def whoami(conn: Conn) -> tuple[str, str, bool]:
    cursor = await conn.execute(
        "SELECT current_user, session_user, rolsuper FROM pg_roles WHERE rolname = current_user"
    )
    row = await cursor.fetchone()
    assert row is not None
    return row


async def test_reset_role_gives_back_nothing_but_the_login_itself(login: Conn) -> None:
    before = await whoami(login)
    assert before[0] == before[1] and before[2] is False
    await login.execute("RESET ROLE")
    assert await whoami(login) == before
    await login.execute("SET ROLE referee_app")  # its only membership: no stronger
    await login.execute("RESET ROLE")
    assert await whoami(login) == before


@pytest.mark.parametrize("reset_first", [False, True], ids=["as-is", "after-reset-role"])
async def test_the_login_is_refused_everything_but_reading_and_appending(
    login: Conn, superuser_conn: Conn, http: httpx.AsyncClient, reset_first: bool
) -> None:
    game_id, tokens = await new_game(http)
    assert await bid(http, game_id, tokens, 2) == 200
    dump = (
        "SELECT count(*), max(seq), string_agg(encode(hash, 'hex'), '' ORDER BY game_id, seq)"
        " FROM events"
    )
    before = await (await superuser_conn.execute(dump)).fetchone()
    if reset_first:
        await login.execute("RESET ROLE")
    for statement in REFUSED:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            await login.execute(statement, {"g": game_id})
    assert await (await superuser_conn.execute(dump)).fetchone() == before
    assert await bid(http, game_id, tokens, 3) == 200  # and the server plays on


@pytest.mark.parametrize("statement", BACKWARDS)
async def test_a_game_cannot_be_moved_backwards(
    login: Conn, http: httpx.AsyncClient, statement: str
) -> None:
    game_id, tokens = await new_game(http)
    for number in (2, 3):
        assert await bid(http, game_id, tokens, number) == 200
    version = (await http.get(f"/v1/games/{game_id}")).json()["version"]
    with pytest.raises(psycopg.errors.RestrictViolation, match="cannot go back"):
        await login.execute(statement, {"g": game_id})
    assert (await http.get(f"/v1/games/{game_id}")).json()["version"] == version
    assert await bid(http, game_id, tokens, 4) == 200  # the next command is not a 409


@pytest.mark.parametrize("statement", OUT_OF_LINE.values(), ids=OUT_OF_LINE.keys())
async def test_a_game_and_its_events_stay_in_line(
    login: Conn, http: httpx.AsyncClient, statement: str
) -> None:
    game_id, tokens = await new_game(http)
    assert await bid(http, game_id, tokens, 2) == 200
    version = (await http.get(f"/v1/games/{game_id}")).json()["version"]
    await refused_in_line(login, statement, game_id)
    assert (await http.get(f"/v1/games/{game_id}")).json()["version"] == version
    assert await bid(http, game_id, tokens, 3) == 200  # the game plays on


async def refused_in_line(login: Conn, statement: str, game_id: str) -> None:
    """The statement is refused by a check that names the game. On one database the check
    raises at the statement's end. On a Citus cluster (tests/citus runs this suite there) a
    statement that writes several tables is run as several, in a transaction, and checked at
    its commit on the game's worker: Citus then reports a failed commit, the check's own words
    in the warning before it."""
    said: list[str] = []
    login.add_notice_handler(lambda notice: said.append(notice.message_primary or ""))
    with pytest.raises(psycopg.Error) as refused:
        await login.execute(statement, {"g": game_id})
    if isinstance(refused.value, psycopg.errors.RestrictViolation):
        assert f"game {game_id}: " in str(refused.value)
    else:
        assert isinstance(refused.value, psycopg.errors.InternalError), refused.value
        assert "could not commit" in str(refused.value)
        assert any(f"game {game_id}: " in line for line in said), said


async def test_an_event_of_no_game_is_refused(login: Conn, superuser_conn: Conn) -> None:
    """No foreign key holds an event to its game: the statement's own check does."""
    game_id = str(uuid.uuid4())
    with pytest.raises(psycopg.errors.RestrictViolation, match=f"game {game_id}: event 1 belongs"):
        await login.execute(
            "INSERT INTO events (game_id, seq, type, body, chance_cursor, prev_hash, hash)"
            f" VALUES (%s, 1, 'x', 'x', 0, {ZERO}, sha256({ZERO} || 'x'))",
            [game_id],
        )
    count = await superuser_conn.execute(
        "SELECT count(*) FROM events WHERE game_id = %s", [game_id]
    )
    assert await count.fetchone() == (0,)


async def test_a_command_of_no_game_is_refused(login: Conn, superuser_conn: Conn) -> None:
    """No foreign key holds a command to its game: the statement's own check does."""
    game_id = str(uuid.uuid4())
    with pytest.raises(
        psycopg.errors.RestrictViolation, match=f"game {game_id}: command 1 belongs"
    ):
        await login.execute(
            "INSERT INTO commands (game_id, command_id, seat, body, first_seq, last_seq)"
            " VALUES (%s, 1, 0, 'x', 1, 1)",
            [game_id],
        )
    count = await superuser_conn.execute(
        "SELECT count(*) FROM commands WHERE game_id = %s", [game_id]
    )
    assert await count.fetchone() == (0,)


def test_a_server_refuses_to_log_in_as_the_owner(owner_database_url: str, tmp_path: Path) -> None:
    """Given the owner's (a superuser's) URL as its own login, `referee serve` says so and
    stops, rather than serving with every privilege."""
    env = {
        **{name: value for name, value in os.environ.items() if not name.startswith("REFEREE_")},
        "REFEREE_DATABASE_URL": owner_database_url,
        "REFEREE_SEED_KEYS": TEST_SEED_KEYS,
        "REFEREE_SIGNING_KEYS": TEST_SIGNING_KEYS,
    }
    referee = Path(sys.executable).parent / "referee"
    done = subprocess.run(
        [str(referee), "serve", "--port", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 1, done.stderr
    assert "a superuser" in errors[0] and "REFEREE_DATABASE_URL" in errors[0]

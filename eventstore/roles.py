"""The database roles: the owner migrates, the service logs in as its own role.

- The **owner** (the user of the migration URL) owns the schema and runs the migrations; it may
  be a superuser, or any user with CREATEROLE that owns the database.
- `referee_app` (NOLOGIN) holds what the service may do: read, append, move a game forward.
- The service's **login** (the user of `REFEREE_DATABASE_URL`) is a LOGIN role that is a member
  of `referee_app` and nothing else: `RESET ROLE` gives it back only itself, and it may not
  `SET ROLE` to the owner or any other role.

`grant_login` makes (or completes) the login as the owner; `check_login` tells, from the login's
own connection, whether it is one the service may use.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from typing import Any

import psycopg
from psycopg import sql

from eventstore.types import DatabaseUnavailable, StoreError

APP_ROLE = "referee_app"  # created by the migrations
SCRAM_ITERATIONS = 4096  # PostgreSQL's own default


class UnsafeLogin(StoreError):
    """The service's database login may do more than the service needs (or is not set up)."""


# What a login must not be, read from its own connection: a superuser, the owner of the
# schema's tables (or a member of the owner's role), or a role that may create roles or
# databases. And it must have referee_app's privileges.
_LOGIN_FACTS = """
SELECT r.rolname, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls, r.rolreplication,
       owner.rolname AS owner,
       owner.oid IS NOT NULL AND pg_has_role(session_user, owner.oid, 'MEMBER') AS owns,
       pg_has_role(session_user, %(app)s, 'USAGE') AS has_app_role
  FROM pg_roles r
  LEFT JOIN pg_class c ON c.oid = to_regclass('events')
  LEFT JOIN pg_roles owner ON owner.oid = c.relowner
 WHERE r.rolname = session_user
"""


async def check_login(conn: psycopg.AsyncConnection[Any]) -> None:
    """Raise UnsafeLogin unless `conn` logged in as a role fit to be the service's login."""
    cursor = await conn.execute(_LOGIN_FACTS, {"app": APP_ROLE})
    row = await cursor.fetchone()
    if row is None:  # session_user always has a row
        raise UnsafeLogin("the database does not know its own session user")
    user, superuser, createrole, createdb, bypassrls, replication, owner, owns, has_app = row
    problems = []
    if superuser:
        problems.append("a superuser")
    if owns:
        problems.append(f"the owner of the schema ({owner})")
    for flag, name in (
        (createrole, "CREATEROLE"),
        (createdb, "CREATEDB"),
        (bypassrls, "BYPASSRLS"),
        (replication, "REPLICATION"),
    ):
        if flag:
            problems.append(f"{name}")
    if problems:
        raise UnsafeLogin(
            f"the service's database login {user!r} is {', '.join(problems)}: give the service "
            f"its own role, a member of {APP_ROLE} only (REFEREE_DATABASE_URL), and migrate as "
            "the owner (REFEREE_MIGRATION_DATABASE_URL)"
        )
    if owner is None:
        raise UnsafeLogin("the database has no referee schema yet: run `referee migrate`")
    if not has_app:
        raise UnsafeLogin(
            f"the service's database login {user!r} is not a member of {APP_ROLE}: "
            "run `referee migrate` with both URLs, or GRANT it"
        )


async def grant_login(owner_conninfo: str, login_conninfo: str, *, set_password: bool) -> str:
    """As the owner: make the login of `login_conninfo` a member of referee_app; return its name.

    The role is created (LOGIN, with the URL's password) if it does not exist. An existing role
    keeps its password unless `set_password` (the embedded database, whose password file is the
    truth). A role that is a superuser, or the owner itself, is refused: UnsafeLogin.
    """
    login = psycopg.conninfo.conninfo_to_dict(login_conninfo)
    owner = psycopg.conninfo.conninfo_to_dict(owner_conninfo)
    user = login.get("user")
    if not user:
        raise UnsafeLogin("REFEREE_DATABASE_URL must name the service's user")
    if user == owner.get("user"):
        raise UnsafeLogin(
            f"REFEREE_DATABASE_URL and REFEREE_MIGRATION_DATABASE_URL both log in as {user!r}: "
            "the service needs a role of its own"
        )
    password = login.get("password")
    try:
        async with await psycopg.AsyncConnection.connect(owner_conninfo, autocommit=True) as conn:
            cursor = await conn.execute(
                "SELECT rolsuper FROM pg_roles WHERE rolname = %s", [str(user)]
            )
            row = await cursor.fetchone()
            role = sql.Identifier(str(user))
            if row is None:
                await conn.execute(
                    sql.SQL(
                        "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT"
                        " NOREPLICATION NOBYPASSRLS{}"
                    ).format(role, _password_clause(password))
                )
            elif row[0]:
                raise UnsafeLogin(f"the service's login {user!r} is a superuser")
            elif set_password and password:
                await conn.execute(
                    sql.SQL("ALTER ROLE {} LOGIN{}").format(role, _password_clause(password))
                )
            await conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(APP_ROLE), role))
            await _login_on_workers(conn, role, password)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailable(str(error)) from error
    except psycopg.errors.DuplicateObject:  # another process created it first
        return await grant_login(owner_conninfo, login_conninfo, set_password=set_password)
    except psycopg.Error as error:
        raise StoreError(f"setting up the service's login {user!r} failed: {error}") from error
    return str(user)


# On a Citus coordinator: the login on every worker too, as a member of referee_app. Citus
# reaches the workers as the user of the statement, and makes on them a role created once the
# extension is there, but not one that existed before it (a database that was one PostgreSQL).
_ON_WORKERS = """
SELECT nodename, nodeport, result FROM run_command_on_workers(%s) WHERE NOT success
"""
_HAS_CITUS = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"


async def _login_on_workers(
    conn: psycopg.AsyncConnection[Any], role: sql.Identifier, password: object
) -> None:
    cursor = await conn.execute(_HAS_CITUS)
    row = await cursor.fetchone()
    if not (row and row[0]):
        return
    create = sql.SQL(
        "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOREPLICATION"
        " NOBYPASSRLS{}"
    ).format(role, _password_clause(password))
    grant = sql.SQL("GRANT {} TO {}").format(sql.Identifier(APP_ROLE), role)
    for command in (create, grant):
        on_worker = sql.SQL(_ON_A_WORKER).format(sql.Literal(command.as_string(conn)))
        cursor = await conn.execute(_ON_WORKERS, [on_worker.as_string(conn)])
        for node, port, said in await cursor.fetchall():
            raise StoreError(f"setting up the service's login on worker {node}:{port}: {said}")


# A statement run on a worker as itself: not handed on by the worker's Citus to the other nodes
# (the coordinator has it already, and waits on this very statement), and a role there already
# is no error.
_ON_A_WORKER = """DO $$ BEGIN
    PERFORM set_config('citus.enable_create_role_propagation', 'off', true);
    EXECUTE {};
EXCEPTION WHEN duplicate_object THEN NULL;
END $$"""


def _password_clause(password: object) -> sql.Composable:
    if not password:
        return sql.SQL("")
    return sql.SQL(" PASSWORD {}").format(sql.Literal(scram_verifier(str(password))))


def scram_verifier(password: str, *, salt: bytes | None = None) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802, RFC 7677).

    Sent instead of the password, so the password itself never reaches the server (nor its
    logs). A password that is not ASCII would need SASLprep: it is sent as it is instead.
    """
    if not password.isascii():
        return password
    salt = salt or os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, SCRAM_ITERATIONS)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()
    b64 = base64.b64encode
    return (
        f"SCRAM-SHA-256${SCRAM_ITERATIONS}:{b64(salt).decode()}"
        f"${b64(stored_key).decode()}:{b64(server_key).decode()}"
    )

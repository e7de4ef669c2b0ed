"""Connections for the store: pooled, autocommit, logged in as the service's own role.

The pool logs in as the service's login (eventstore.roles), a member of `referee_app`: it may
SELECT and INSERT events and commands, never UPDATE, DELETE or TRUNCATE them, and may only move
a game's version and status forward; it owns nothing and can become no other role. A bug in the
application, or code that sends `RESET ROLE`, cannot rewrite history, whatever it sends. Each
new connection checks its login (`check_login`) and refuses a superuser or the schema's owner.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TypeAlias

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

from eventstore.roles import APP_ROLE, check_login
from eventstore.types import DatabaseUnavailable, StoreError

Pool: TypeAlias = AsyncConnectionPool[AsyncConnection[TupleRow]]


def create_pool(
    conninfo: str,
    *,
    min_size: int = 2,
    max_size: int = 10,
    timeout: float = 10.0,
    name: str = "referee-store",
    connection_class: type[AsyncConnection[TupleRow]] = AsyncConnection,
) -> Pool:
    """A pool for `EventStore`, not yet open: `await pool.open()` (in the app's lifespan).

    `timeout` bounds the wait for a connection, so an unreachable database answers
    `DatabaseUnavailable` within that time instead of hanging a request. `connection_class`
    instruments the connections (the tests record every statement the store sends with one).
    """
    return AsyncConnectionPool(
        conninfo,
        connection_class=connection_class,
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        name=name,
        open=False,
        kwargs={"autocommit": True, "application_name": name},
        configure=_configure,
    )


async def _configure(conn: AsyncConnection[TupleRow]) -> None:
    # Once per connection; UTC so that recorded times read the same everywhere.
    await conn.execute("SET TIME ZONE 'UTC'")
    await check_login(conn)


def check_application_role(conn: AsyncConnection[TupleRow]) -> None:
    """Refuse a superuser connection: the pool was not made by `create_pool`.

    The server reports `is_superuser` on every change, so this costs no round trip.
    """
    if conn.info.parameter_status("is_superuser") != "off":
        raise StoreError(
            f"the store's connections must log in as a member of {APP_ROLE}, never as a superuser"
        )


@contextmanager
def database_errors() -> Iterator[None]:
    """Translate psycopg's errors into the store's: no raw driver error leaves the store."""
    try:
        yield
    except psycopg.errors.TransactionRollback as error:  # serialization failure, deadlock
        raise StoreError(f"the database rolled the operation back: {error}") from error
    except psycopg.OperationalError as error:  # connection refused or lost, pool timeout, shutdown
        raise DatabaseUnavailable(str(error)) from error
    except psycopg.Error as error:
        raise StoreError(f"unexpected database error: {error}") from error


@asynccontextmanager
async def app_connection(pool: Pool) -> AsyncIterator[AsyncConnection[TupleRow]]:
    """A connection of `pool`, checked to be the service's role, with psycopg's errors raised
    as the store's (`database_errors`)."""
    with database_errors():
        async with pool.connection() as conn:
            check_application_role(conn)
            yield conn

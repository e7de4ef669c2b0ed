"""Connections for the store: pooled, autocommit, and acting as the application's role.

The role may SELECT and INSERT events and commands, never UPDATE, DELETE or TRUNCATE them, and
may only move a game's version and status forward: a bug in the application cannot rewrite
history, whatever it sends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeAlias

import psycopg
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

from eventstore.types import DatabaseUnavailable, StoreError

APP_ROLE = "referee_app"  # created by the migrations

Pool: TypeAlias = AsyncConnectionPool[AsyncConnection[TupleRow]]


def create_pool(
    conninfo: str,
    *,
    min_size: int = 2,
    max_size: int = 10,
    timeout: float = 10.0,
    name: str = "referee-store",
) -> Pool:
    """A pool for `EventStore`, not yet open: `await pool.open()` (in the app's lifespan).

    `timeout` bounds the wait for a connection, so an unreachable database answers
    `DatabaseUnavailable` within that time instead of hanging a request.
    """
    return AsyncConnectionPool(
        conninfo,
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        name=name,
        open=False,
        kwargs={"autocommit": True, "application_name": name},
        configure=_act_as_application,
    )


async def _act_as_application(conn: AsyncConnection[TupleRow]) -> None:
    # One round trip, once per connection; UTC so that recorded times read the same everywhere.
    set_up = sql.SQL("SET ROLE {}; SET TIME ZONE 'UTC'").format(sql.Identifier(APP_ROLE))
    await conn.execute(set_up)


def check_application_role(conn: AsyncConnection[TupleRow]) -> None:
    """Refuse a superuser connection: the pool was not made by `create_pool`.

    The server reports `is_superuser` on every change, so this costs no round trip.
    """
    if conn.info.parameter_status("is_superuser") != "off":
        raise StoreError(
            f"the store's connections must act as {APP_ROLE}: make the pool with create_pool()"
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

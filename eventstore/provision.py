"""Everything the owner does before the service starts: migrate, set up the login, seal seeds."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from eventstore.distribution import Distribution, distribute
from eventstore.migrations import migrate
from eventstore.roles import grant_login
from eventstore.seeds import SealReport, SeedKeys, seal_seeds


@dataclass(frozen=True)
class Provisioned:
    applied: list[str]  # the migrations this call applied
    distribution: Distribution  # by game_id over Citus, where it is installed
    login: str  # the service's login role
    sealed: SealReport


async def provision(
    owner_conninfo: str, app_conninfo: str, keys: SeedKeys, *, set_password: bool = False
) -> Provisioned:
    """As the owner: apply the migrations, distribute the tables where Citus is installed
    (eventstore.distribution), make the service's login a member of referee_app (see
    `grant_login` for `set_password`), and seal every seed under the newest key."""
    applied = await migrate(owner_conninfo)
    async with await psycopg.AsyncConnection.connect(owner_conninfo, autocommit=True) as conn:
        distribution = await distribute(conn)
    login = await grant_login(owner_conninfo, app_conninfo, set_password=set_password)
    sealed = await seal_seeds(owner_conninfo, keys)
    return Provisioned(applied, distribution, login, sealed)

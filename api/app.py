"""The Litestar application: `create_app(settings)`.

The database pool is opened in the app's lifespan (without waiting for the database, so that
the process starts and reports itself not ready rather than crashing); everything else is wired
here and nowhere else.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.metadata import PackageNotFoundError, version

import structlog
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.middleware import DefineMiddleware

from api.audit import Archive
from api.body import ApiRequest
from api.cache import ReportCache, TableCache
from api.checkpoints import Checkpointer
from api.config import Settings
from api.dependencies import APP_DEPENDENCIES
from api.frame import RequestFrame, response_headers
from api.live import EventHub
from api.metrics import forget_this_process
from api.openapi import DOCS, openapi_config
from api.problems import problem_response
from api.ratelimit import BOT_GAMES, INVITATION_GUESSES, RateLimiter
from api.ratelimit import STATE_KEY as EXPENSIVE_READS
from api.receipts import Notary
from api.routes import ROUTE_HANDLERS
from api.service import Clock, GameService, utc_now
from api.signing import SigningKeys
from api.sweeper import Sweeper
from api.tickets import StreamTickets
from eventstore.log import LogStore, SigningKeyConflict
from eventstore.pool import create_pool
from eventstore.store import EventStore
from eventstore.types import StoreError
from referee.games import REGISTRY
from referee.kernel import Registry


def api_version() -> str:
    try:
        return version("referee")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def create_app(
    settings: Settings | None = None, registry: Registry = REGISTRY, clock: Clock = utc_now
) -> Litestar:
    """The app; `clock` gives the time of every step (tests set it rather than sleep)."""
    settings = settings or Settings.from_env()
    return Litestar(
        route_handlers=ROUTE_HANDLERS,
        dependencies=APP_DEPENDENCIES,
        lifespan=[_database(settings, registry, clock)],
        state=State({"registry": registry, **_expensive_reads(settings)}),
        exception_handlers={Exception: problem_response},
        before_send=[response_headers(docs=DOCS)],
        middleware=[
            DefineMiddleware(RequestFrame, body_timeout=settings.body_read_timeout_seconds)
        ],
        openapi_config=openapi_config(api_version()),
        cors_config=_cors(settings),
        request_class=ApiRequest,  # bodies are read under the API's limits (api/body.py)
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,
    )


def _cors(settings: Settings) -> CORSConfig | None:
    """Browser pages of the listed origins may call the API; none when the list is empty."""
    if not settings.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"],
        expose_headers=["Location", "Retry-After", "X-Request-ID"],
        allow_credentials=False,  # bearer tokens only: no cookie ever authenticates
    )


def _expensive_reads(settings: Settings) -> dict[str, RateLimiter]:
    """The rate limits (api.ratelimit), in the app's state: audits, exports and bundle checks;
    creations of games with bot seats."""
    limiters = {
        EXPENSIVE_READS: RateLimiter(
            settings.expensive_reads_per_minute, settings.expensive_reads_burst
        ),
        BOT_GAMES: RateLimiter(settings.bot_games_per_minute, settings.bot_games_burst),
        INVITATION_GUESSES: RateLimiter(
            settings.invitation_guesses_per_minute, settings.invitation_guesses_burst
        ),
    }
    return {key: limiter for key, limiter in limiters.items() if limiter.enabled}


def _database(
    settings: Settings, registry: Registry, clock: Clock
) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if (
            settings.database_url is None
            or settings.seed_keys is None
            or settings.signing_keys is None
        ):
            raise RuntimeError(
                "the app needs a database URL, seed keys and signing keys (referee serve "
                "provides them)"
            )
        pool = create_pool(
            settings.database_url,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
            timeout=settings.pool_timeout,
        )
        await pool.open(wait=False)
        store = EventStore(
            pool, settings.seed_keys, group_commit_writers=settings.group_commit_writers
        )
        cache = TableCache(settings.table_cache_size)
        service = GameService(
            store,
            registry,
            cache,
            clock,
            open_table_seconds=settings.open_table_seconds,
            notary=Notary(settings.signing_keys),
        )
        app.state.service = service
        app.state.signing_keys = settings.signing_keys
        app.state.log = log = LogStore(pool, settings.seed_keys)
        app.state.checkpointer = checkpointer = Checkpointer(
            log, settings.signing_keys, clock, interval=settings.checkpoint_seconds
        )
        app.state.sweeper = sweeper = Sweeper(
            service,
            interval=settings.sweep_interval_seconds,
            abandon_after=settings.abandon_after_seconds,
            bot_share=settings.bot_cpu_share,
        )
        app.state.archive = Archive(store, registry, ReportCache(settings.audit_cache_size))
        app.state.tickets = StreamTickets(settings.seed_keys, store)
        app.state.hub = EventHub(
            settings.database_url, heartbeat_seconds=settings.sse_heartbeat_seconds
        )
        await app.state.hub.start()
        tasks = [asyncio.ensure_future(publish_key(log, settings.signing_keys))]
        if settings.sweep_interval_seconds:
            tasks.append(asyncio.ensure_future(sweeper.run()))
        if settings.checkpoint_seconds:
            tasks.append(asyncio.ensure_future(checkpointer.run()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await sweeper.stop()
            await app.state.hub.stop()
            await store.drain_notifications()
            await pool.close()
            forget_this_process()

    return lifespan


async def publish_key(log: LogStore, keys: SigningKeys) -> None:
    """List the signing key in use (GET /v1/keys) from its first use, once the database can be
    reached. `referee serve` refuses to start with a key that contradicts the listing."""
    while True:
        try:
            await log.publish_key(keys.current, keys.public_key(keys.current))
            return
        except SigningKeyConflict as conflict:
            structlog.get_logger("referee.signing").error("signing key", error=str(conflict))
            return
        except StoreError:
            await asyncio.sleep(1.0)

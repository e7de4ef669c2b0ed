"""Rate limits on the expensive work anyone may ask for: audits, exports, uploaded bundles, and
creations of games the server's bots play.

Each client address has a bucket of `burst` requests that refills at `per_minute`; a request
finding it empty is answered 429 (`urn:referee:problem:rate-limited`) with `Retry-After`, the
seconds until the next one is allowed, before any of its work is done (an upload is not even
read). The buckets are per process: N processes allow N times the rate.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler

from api.problems import Problem, ProblemKind

RATE_LIMITED = ProblemKind("rate-limited", 429, "Too many requests: slow down.")
MAX_CLIENTS = 65_536  # buckets kept; the least recently seen client's is forgotten first
STATE_KEY = "expensive_reads"
BOT_GAMES = "bot_games"  # creations of games with bot seats
INVITATION_GUESSES = "invitation_guesses"  # sittings refused as if there were no such table


class RateLimiter:
    """Token buckets by client address."""

    def __init__(
        self,
        per_minute: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rate = per_minute / 60.0  # tokens per second
        self._burst = float(max(burst, 1))
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    @property
    def enabled(self) -> bool:
        return self._rate > 0

    def wait(self, client: str, *, spend: bool = True) -> float:
        """Take a token for `client`: 0 if it had one, else the seconds until it will. Without
        `spend`, only look: whether a token would be there now."""
        if not self.enabled:
            return 0.0
        now = self._clock()
        tokens, then = self._buckets.pop(client, (self._burst, now))
        tokens = min(self._burst, tokens + (now - then) * self._rate)
        if not spend:
            self._buckets[client] = (tokens, now)
            return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self._rate
        if tokens >= 1.0:
            self._buckets[client] = (tokens - 1.0, now)
            waited = 0.0
        else:
            self._buckets[client] = (tokens, now)
            waited = (1.0 - tokens) / self._rate
        while len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return waited


def client_address(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    client = connection.scope.get("client")
    return str(client[0]) if client else "unknown"


async def expensive(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """A guard: the request spends one of its client's expensive reads, or is refused (429).
    A coroutine, as every hook of the app: Litestar runs a plain function in a worker thread."""
    spend(
        connection,
        STATE_KEY,
        "Audits, exports and bundle checks are limited per client; retry in {seconds} s.",
    )


def spend(
    connection: ASGIConnection[Any, Any, Any, Any],
    key: str,
    refusal: str,
    *,
    only_look: bool = False,
) -> None:
    """Spend one of the client's tokens of the limiter kept in the app's state under `key`
    (none there: no limit), or refuse the request: 429, `refusal` with its `{seconds}`. With
    `only_look`, refuse a client with no token left but spend none."""
    limiter: RateLimiter | None = connection.app.state.get(key)
    if limiter is None:
        return
    waited = limiter.wait(client_address(connection), spend=not only_look)
    if waited > 0:
        seconds = max(1, math.ceil(waited))
        raise Problem(
            RATE_LIMITED,
            refusal.format(seconds=seconds),
            headers={"Retry-After": str(seconds)},
        )

"""Prometheus metrics of the HTTP requests, whole across the worker processes of one server.

`referee serve --workers N` runs N processes behind one socket, and a scrape of `/metrics`
reaches one of them: each process counting alone, a scrape would show a random share of the
requests, jumping between scrapes. So with more than one worker, `serve` gives them a shared
directory (`shared_metrics_directory`: prometheus_client's multiprocess mode, chosen by
`PROMETHEUS_MULTIPROC_DIR` when a process first imports it), each process writes its values
there, and `/metrics` (Litestar's PrometheusController) sums them.

The metrics keep the names and labels of Litestar's Prometheus middleware, which this replaces
for its cost: it built a Request, copied `send` with functools.wraps and looked up four labelled
children under locks for every request: ~50 µs a request, where this one took ~19 as a
middleware of its own (one layer with the request's other concerns now: api/frame.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from prometheus_client import Counter, Gauge, Histogram, multiprocess

MULTIPROCESS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
APP_NAME = "referee"
_LABELS = ("method", "path", "status_code", "app_name")

REQUESTS = Counter("referee_requests_total", "Total requests", _LABELS)
ERRORS = Counter("referee_requests_error_total", "Total errors in requests", _LABELS)
DURATION = Histogram("referee_request_duration_seconds", "Request duration, in seconds", _LABELS)
IN_PROGRESS = Gauge(
    "referee_requests_in_progress",
    "Total requests currently in progress",
    ("method", "path", "app_name"),
    multiprocess_mode="livesum",
)


class RequestMetrics:
    """Counts and times every routed request by method, route (its path template, so that a
    game's id does not make a series of its own) and status; api/frame.py calls it."""

    def __init__(self) -> None:
        self._finished: dict[tuple[str, str, int], _Finished] = {}
        self._running: dict[tuple[str, str], Gauge] = {}

    def started(self, method: str, path: str) -> Gauge:
        """A request is in progress: its gauge, to give back to `finished`."""
        running = self._running.get((method, path))
        if running is None:
            running = self._running[method, path] = IN_PROGRESS.labels(method, path, APP_NAME)
        running.inc()
        return running

    def finished(self, running: Gauge, method: str, path: str, status: int, seconds: float) -> None:
        running.dec()
        series = self._series(method, path, status)
        series.requests.inc()
        series.duration.observe(seconds)
        if series.errors is not None:
            series.errors.inc()

    def _series(self, method: str, path: str, status: int) -> _Finished:
        key = (method, path, status)
        series = self._finished.get(key)
        if series is None:
            labels = (method, path, str(status), APP_NAME)
            errors = ERRORS.labels(*labels) if status >= 500 else None
            series = _Finished(REQUESTS.labels(*labels), DURATION.labels(*labels), errors)
            self._finished[key] = series
        return series


class _Finished(NamedTuple):
    """The labelled series a finished request counts in (looked up once per label set)."""

    requests: Counter
    duration: Histogram
    errors: Counter | None  # for 5xx answers only


@contextmanager
def shared_metrics_directory() -> Iterator[None]:
    """For the duration, the processes started from this one keep their metrics in one
    directory (an empty one of its own, removed after; or the operator's, if they set one)."""
    if os.environ.get(MULTIPROCESS_DIRECTORY):
        yield
        return
    directory = tempfile.mkdtemp(prefix="referee-metrics-")
    os.environ[MULTIPROCESS_DIRECTORY] = directory
    try:
        yield
    finally:
        del os.environ[MULTIPROCESS_DIRECTORY]
        shutil.rmtree(directory, ignore_errors=True)


def forget_this_process() -> None:
    """At a worker's end: its requests in progress leave the sum (its counts stay)."""
    if os.environ.get(MULTIPROCESS_DIRECTORY):
        multiprocess.mark_process_dead(os.getpid())

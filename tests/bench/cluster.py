"""A throw-away embedded PostgreSQL for one benchmark run."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from eventstore.embedded import EmbeddedDatabase, start_embedded, stop_embedded


@contextmanager
def embedded_cluster(
    prefix: str = "referee-bench-", *, durable: bool = True
) -> Iterator[tuple[EmbeddedDatabase, Path]]:
    """A cluster in a new temporary directory, and the directory (the cluster's data is in its
    `postgres`; the rest is free for the run's files); stopped and removed at the end.
    Durable by default, as a server runs: a benchmark of commits measures their fsync."""
    directory = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield start_embedded(directory, durable=durable), directory
    finally:
        stop_embedded(directory)
        shutil.rmtree(directory, ignore_errors=True)

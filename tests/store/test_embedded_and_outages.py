"""The embedded server shared between processes, and what the store says when the database goes."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from eventstore import DatabaseUnavailable
from eventstore.embedded import CLUSTER_DIR, start_embedded, stop_embedded
from eventstore.migrations import migrate
from eventstore.provision import provision
from eventstore.seeds import SeedKeys
from eventstore.store import open_store
from tests.store.helpers import events, make_stream


@pytest.fixture
def throwaway_data_dir() -> Iterator[Path]:
    """A data directory for a second embedded server that the test may stop."""
    data_dir = Path(tempfile.mkdtemp(prefix="referee-throwaway-"))
    yield data_dir
    stop_embedded(data_dir)
    shutil.rmtree(data_dir, ignore_errors=True)


def answers(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            return conn.execute("SELECT current_database()").fetchone() == ("referee",)
    except psycopg.OperationalError:
        return False


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        cwd=Path(__file__).parents[2],
    )
    return done.stdout.strip()


def test_the_test_servers_url_works_from_another_process(database_url: str) -> None:
    code = (
        "import psycopg\n"
        f"conn = psycopg.connect({database_url!r})\n"
        "print(conn.execute('SELECT current_database()').fetchone()[0])"
    )
    assert run_python(code) == psycopg.conninfo.conninfo_to_dict(database_url)["dbname"]


def test_processes_share_one_server_and_the_last_one_stops_it(throwaway_data_dir: Path) -> None:
    url = start_embedded(throwaway_data_dir, durable=False).owner_url
    # Joining again is harmless
    assert start_embedded(throwaway_data_dir, durable=False).owner_url == url
    # Another process (as `referee migrate` beside `referee serve`) joins, then exits ...
    joined = run_python(
        "from pathlib import Path\n"
        "from eventstore.embedded import start_embedded\n"
        f"print(start_embedded(Path({str(throwaway_data_dir)!r}), durable=False).owner_url)"
    )
    assert joined == url
    assert answers(url)  # ... and leaves the server running for us.
    stop_embedded(throwaway_data_dir)
    assert not answers(url)  # we were the last: it stopped


def test_a_process_that_died_holding_the_server_does_not_keep_it_alive(
    throwaway_data_dir: Path,
) -> None:
    url = start_embedded(throwaway_data_dir, durable=False).owner_url
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead_pid = int(dead.stdout)
    handles = throwaway_data_dir / CLUSTER_DIR / ".handle_pids.json"
    handles.write_text(json.dumps([*json.loads(handles.read_text()), dead_pid]))
    # As a restarted server does:
    assert start_embedded(throwaway_data_dir, durable=False).owner_url == url
    assert dead_pid not in json.loads(handles.read_text())
    stop_embedded(throwaway_data_dir)
    assert not answers(url)


async def test_the_database_going_away_is_database_unavailable(
    throwaway_data_dir: Path, seed_keys: SeedKeys
) -> None:
    embedded = start_embedded(throwaway_data_dir, durable=False)
    url = embedded.owner_url
    await provision(url, embedded.app_url, seed_keys, set_password=True)
    options = {"min_size": 1, "max_size": 2, "timeout": 0.3}
    async with open_store(embedded.app_url, seed_keys, **options) as store:
        await make_stream(store, "doomed", opening=1)
        await store.ping()
        stop_embedded(throwaway_data_dir)
        assert not answers(url)
        # The pooled connection breaks first; later calls find no connection at all.
        with pytest.raises(DatabaseUnavailable):
            await store.append(
                "doomed", expected_version=1, events=events("a", 1), seat=0, command_body=b""
            )
        with pytest.raises(DatabaseUnavailable):
            await store.read("doomed")
        with pytest.raises(DatabaseUnavailable):
            await store.info("doomed")
        with pytest.raises(DatabaseUnavailable):
            await store.ping(timeout=0.1)
        with pytest.raises(DatabaseUnavailable):
            await store.list_streams(kind=None, status=None, after=None, limit=5)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # free once closed: nothing listens there


async def test_a_database_that_is_not_there_is_database_unavailable(seed_keys: SeedKeys) -> None:
    url = f"postgresql://postgres@127.0.0.1:{closed_port()}/referee?connect_timeout=2"
    with pytest.raises(DatabaseUnavailable):
        await migrate(url)
    async with open_store(url, seed_keys, min_size=0, max_size=1, timeout=0.5) as store:
        with pytest.raises(DatabaseUnavailable):
            await store.ping()
        with pytest.raises(DatabaseUnavailable):
            await store.seed("any")

"""`referee serve --workers` defaults to the cores the process may use: its CPU affinity,
bounded by its container's CPU quota (cgroup v2 `cpu.max`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from api.cli import available_cores

AFFINITY = len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [
        ("max 100000\n", AFFINITY),  # no quota
        ("50000 100000\n", 1),  # half a core: still one process
        ("100000 100000\n", 1),
        ("150000 100000\n", min(AFFINITY, 2)),  # a core and a half: two, if there are two
        ("6400000 100000\n", min(AFFINITY, 64)),  # more quota than cores: the cores
        ("garbage\n", AFFINITY),
        (None, AFFINITY),  # no cgroup v2 file
    ],
)
def test_the_default_number_of_workers(tmp_path: Path, cpu_max: str | None, expected: int) -> None:
    path = tmp_path / "cpu.max"
    if cpu_max is not None:
        path.write_text(cpu_max)
    assert available_cores(path) == expected

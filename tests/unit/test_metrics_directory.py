"""`referee serve --workers N` gives its workers one directory for their metrics."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from api.metrics import MULTIPROCESS_DIRECTORY, shared_metrics_directory


def test_an_empty_directory_of_its_own_for_the_duration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MULTIPROCESS_DIRECTORY, raising=False)
    with shared_metrics_directory():
        directory = Path(os.environ[MULTIPROCESS_DIRECTORY])
        assert directory.is_dir() and not any(directory.iterdir())
        (directory / "counter_123.db").write_bytes(b"a worker's values")
    assert MULTIPROCESS_DIRECTORY not in os.environ
    assert not directory.exists(), "removed, with what the workers wrote"


def test_the_operators_directory_is_used_and_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(MULTIPROCESS_DIRECTORY, str(tmp_path))
    with shared_metrics_directory():
        assert os.environ[MULTIPROCESS_DIRECTORY] == str(tmp_path)
    assert os.environ[MULTIPROCESS_DIRECTORY] == str(tmp_path)
    assert tmp_path.is_dir()

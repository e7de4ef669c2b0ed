"""The compose files as the tests read and run them: the stand-ins for their secrets, their
services, dclint (from the npm registry, tests/spec) and Docker's compose plugin."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.deploy.files import COMPOSE, ROOT, yaml_documents

LINTER = ROOT / "tests" / "spec" / "node_modules" / ".bin" / "dclint"
# dclint's rules on the order of keys and services are taste: the files read in the order their
# services start (the database, migrate, the API). Every other rule, warnings included, must pass.
TASTE_RULES = ["service-keys-order", "services-alphabetical-order", "top-level-properties-order"]

# Stand-ins for the secrets compose reads from the environment (or deploy/.env).
SECRETS = {
    "REFEREE_OWNER_PASSWORD": "owner-secret",
    "REFEREE_API_PASSWORD": "api-secret",
    "REFEREE_SEED_KEYS": "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    "REFEREE_SIGNING_KEYS": "s1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
}
# A secret as the files write it: read from the environment, required (`${NAME:?message}`).
REQUIRED_VARIABLE = re.compile(r"^\$\{(\w+):\?[^}]*\}$")

Service = dict[str, Any]


def compose(path: Path = COMPOSE) -> dict[str, Any]:
    [document] = yaml_documents(path)
    return document


def service(name: str, path: Path = COMPOSE) -> Service:
    found: Service = compose(path)["services"][name]
    return found


def interpolated(text: str) -> str:
    """`text` with compose's `${NAME}` and `${NAME:?message}` replaced by SECRETS."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda found: SECRETS[found.group(1)], text)


def login_of(url: str) -> tuple[str, str]:
    """The user and password of a database URL of a compose file."""
    parts = psycopg.conninfo.conninfo_to_dict(interpolated(url))
    return str(parts["user"]), str(parts["password"])


def host_of(url: str) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(interpolated(url))["host"])


def dclint(path: Path) -> subprocess.CompletedProcess[str]:
    if not LINTER.exists():
        pytest.fail("dclint is not installed: run `make test` (it runs npm ci in tests/spec)")
    disabled = [argument for rule in TASTE_RULES for argument in ("--disable-rule", rule)]
    return subprocess.run(
        [str(LINTER), str(path), *disabled, "--max-warnings", "0", "--no-color"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def compose_command(path: Path) -> list[str] | None:
    """Docker's compose plugin (`docker compose`) on `path`, reading no deploy/.env, or None.
    (The old standalone `docker-compose` 1.x predates the specification's top-level `name`.)"""
    docker = shutil.which("docker")
    if docker is None:
        return None
    plugin = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=60)
    if plugin.returncode != 0:
        return None
    return [docker, "compose", "--env-file", os.devnull, "--file", str(path)]

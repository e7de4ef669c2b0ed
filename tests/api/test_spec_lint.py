"""The committed OpenAPI document passes a strict OpenAPI 3.1 validator and two maintained
linters (Redocly and Spectral's `oas` rules) with no error and no warning.

The linters are installed by `make test` (tests/spec/package.json, from the npm registry).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

ROOT = Path(__file__).parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
LINTERS = ROOT / "tests" / "spec"
BIN = LINTERS / "node_modules" / ".bin"


def test_a_strict_openapi_3_1_validator_finds_nothing() -> None:
    document = json.loads(COMMITTED.read_text())
    assert document["openapi"].startswith("3.1")
    errors = [error.message for error in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []


def lint(*command: str) -> subprocess.CompletedProcess[str]:
    if not (BIN / command[0]).exists():
        pytest.fail(f"{command[0]} is not installed: run `make test` (it runs npm ci in {LINTERS})")
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]],
        cwd=LINTERS,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_redocly_finds_no_error_and_no_warning() -> None:
    done = lint("redocly", "lint", "--format=json", str(COMMITTED))
    report = json.loads(done.stdout)
    problems = [(p["ruleId"], p["severity"], p["message"]) for p in report["problems"]]
    assert problems == [], problems
    assert done.returncode == 0, done.stderr


def test_spectral_finds_no_error_and_no_warning() -> None:
    done = lint(
        "spectral",
        "lint",
        "--quiet",
        "--format=json",
        "--fail-severity=hint",
        "--ruleset=.spectral.yaml",
        str(COMMITTED),
    )
    findings = json.loads(done.stdout or "[]")
    problems = [(f["code"], f["severity"], f["message"], f["path"]) for f in findings]
    assert problems == [], problems
    assert done.returncode == 0, done.stderr

"""The committed OpenAPI document: what the app generates, byte for byte, and complete."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.config import Settings
from api.openapi import openapi_document, render
from api.unions import members
from referee.games import REGISTRY
from referee.kernel.lifecycle import SEAT_COMMANDS, KernelEvent
from tests.api.helpers import Client

COMMITTED = Path(__file__).parents[2] / "openapi" / "openapi.json"
REGENERATE = "referee openapi --output openapi/openapi.json"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(COMMITTED.read_text())
    return loaded


def tags(types: list[Any]) -> set[str]:
    return {member.__struct_config__.tag for kind in types for member in members(kind)}


def schema_at(document: dict[str, Any], *path: str) -> dict[str, Any]:
    node: Any = document
    for key in path:
        node = node[key]
    assert isinstance(node, dict)
    return node


def test_the_committed_document_is_what_the_app_generates() -> None:
    generated = render(openapi_document(create_app(Settings())))
    assert COMMITTED.read_text() == generated, f"openapi/openapi.json is stale: run {REGENERATE}"


def test_the_export_is_the_same_in_every_process(tmp_path: Path) -> None:
    outputs = []
    for hash_seed in ("1", "2"):
        output = tmp_path / f"openapi-{hash_seed}.json"
        subprocess.run(
            [sys.executable, "-m", "api.cli", "openapi", "--output", str(output)],
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        outputs.append(output.read_text())
    assert outputs[0] == outputs[1] == COMMITTED.read_text()


def test_the_cli_check_fails_on_drift(tmp_path: Path) -> None:
    stale = tmp_path / "openapi.json"
    stale.write_text(COMMITTED.read_text().replace('"Referee"', '"Something else"'))
    check = [sys.executable, "-m", "api.cli", "openapi", "--check", "--output"]
    assert subprocess.run([*check, str(stale)], capture_output=True).returncode == 1
    assert subprocess.run([*check, str(COMMITTED)], capture_output=True).returncode == 0


async def test_the_app_serves_the_committed_document(client: Client) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    assert response.text == COMMITTED.read_text()


def test_unions_have_explicit_discriminators(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    games = list(REGISTRY)
    expected = {
        ("CommandRequest", "command"): tags(
            [*SEAT_COMMANDS, *(game.command_type for game in games)]
        ),
        ("EventRecord", "event"): tags([KernelEvent, *(game.event_type for game in games)]),
        ("GameDetail", "view"): tags([game.view_type for game in games]),
        ("StateAt", "view"): tags([game.view_type for game in games]),
        ("CommandResult", "view"): tags([game.view_type for game in games]),
    }
    for (component, field), tag_set in expected.items():
        union = schemas[component]["properties"][field]
        if len(tag_set) == 1:  # a single type is a plain reference
            continue
        discriminator = union["discriminator"]
        assert discriminator["propertyName"] == "type"
        assert set(discriminator["mapping"]) == tag_set
        refs = {option["$ref"] for option in union["oneOf"]}
        assert set(discriminator["mapping"].values()) == refs
    body = schema_at(document, "paths", "/v1/games", "post", "requestBody", "content")
    new_game = body["application/json"]["schema"]
    assert new_game["discriminator"]["propertyName"] == "kind"
    assert set(new_game["discriminator"]["mapping"]) == set(REGISTRY.kinds())


def test_request_bodies_forbid_unknown_fields(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name in ("CommandRequest", "NewCoyoteGame", "CoyoteOptions"):
        assert schemas[name]["additionalProperties"] is False, name
    for name in ("GameDetail", "CommandResult", "ProblemDetails"):
        assert "additionalProperties" not in schemas[name], name


def test_every_error_is_documented_as_problem_json(document: dict[str, Any]) -> None:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            errors = {code for code in operation["responses"] if code >= "400"}
            if path.startswith("/v1/games"):
                assert {"400", "503"} <= errors, (method, path)
            if "{game_id}" in path:  # a token of another game is 403, a wrong one 401
                takes_token = operation["security"] or operation.get("x-optional-security")
                assert {"401", "403"} <= errors or not takes_token, (method, path)
                assert "404" in errors, (method, path)
            for code in errors:
                content = operation["responses"][code]["content"]
                assert list(content) == ["application/problem+json"], (method, path, code)
                ref = content["application/problem+json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/ProblemDetails"


def test_bearer_security_is_declared_where_it_is_enforced(document: dict[str, Any]) -> None:
    assert "security" not in document
    assert document["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    required = {
        (path, method)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if operation.get("security") == [{"seatToken": []}]
    }
    assert required == {
        ("/v1/games/{game_id}/commands", "post"),
        ("/v1/games/{game_id}/legal-commands", "get"),
        ("/v1/games/{game_id}/stream-tickets", "post"),
        ("/v1/games/{game_id}/seats/{seat_number}", "delete"),
    }
    # Where a token is optional, generators must let spectators call without credentials.
    reading = document["paths"]["/v1/games/{game_id}"]["get"]
    assert reading["security"] == [] and reading["x-optional-security"] == [{"seatToken": []}]
    assert "A seat token is optional here" in reading["description"]
    every = [op for ops in document["paths"].values() for op in ops.values()]
    assert all("security" in operation for operation in every)


def test_no_examples_are_generated(document: dict[str, Any]) -> None:
    assert '"examples"' not in COMMITTED.read_text()
    assert document["info"]["title"] == "Referee"

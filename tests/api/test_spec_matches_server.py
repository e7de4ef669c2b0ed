"""The published schema of every request body says exactly what the server enforces.

The server decodes request bodies with msgspec; msgspec's own JSON Schema of those types
(`msgspec.json.schema_components`) states every constraint it enforces: types, bounds, patterns,
enums, required fields, additionalProperties. The committed openapi/openapi.json must state the
same, body by body and field by field, at every depth: a constraint the document lacks lets a
client send what the server refuses (big-manitou's `first_dealer: -1`, once); an alternative
the document adds, the same; a constraint it adds refuses what the server accepts.

The two schemas are compared after normalization, since they spell the same things differently
(`anyOf` or `oneOf`, `const` or a one-value `enum`, `type: [string, null]`, a bound beside a
`oneOf` rather than inside its string member, `allOf` around a `$ref`); annotations
(descriptions, titles, defaults, discriminators) are not compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from api.bundle import Bundle
from api.schemas import AnyNewGame, CommandRequest, SitRequest

COMMITTED = Path(__file__).parents[2] / "openapi" / "openapi.json"
REF = "#/components/schemas/"

# Every operation that takes a body, and the type the server decodes it as.
BODIES: dict[tuple[str, str], Any] = {
    ("post", "/v1/games"): AnyNewGame,
    ("post", "/v1/games/{game_id}/commands"): CommandRequest,
    ("post", "/v1/games/{game_id}/seats"): SitRequest,
    ("post", "/v1/audits"): Bundle,
}

ANNOTATIONS = {"description", "title", "default", "examples", "discriminator", "deprecated"}
APPLIES = {  # the keywords that constrain each JSON type
    "string": {"enum", "minLength", "maxLength", "pattern", "format", "contentEncoding"},
    "integer": {"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "number": {"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"},
    "boolean": {"enum"},
    "null": set(),
    "array": {"items", "prefixItems", "minItems", "maxItems", "uniqueItems"},
    "object": {"properties", "required", "additionalProperties", "minProperties", "maxProperties"},
    "any": set(),
}
# What the document may say beyond msgspec's schema, because the server enforces it all the
# same: msgspec refuses a `bytes` field that is not base64, the document says so with a pattern.
ENFORCED_BEYOND_MSGSPEC = {("string", "pattern")}


class Side:
    """One of the two schemas: its components, to follow `$ref`s."""

    def __init__(self, name: str, components: dict[str, Any]) -> None:
        self.name = name
        self.components = components

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            target = self.components[schema["$ref"].removeprefix(REF)]
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return schema


def json_type(value: Any) -> str:
    match value:
        case None:
            return "null"
        case bool():
            return "boolean"
        case int():
            return "integer"
        case float():
            return "number"
        case str():
            return "string"
    raise AssertionError(f"an enum value of no JSON scalar type: {value!r}")


def alternatives(schema: dict[str, Any], side: Side) -> list[dict[str, Any]]:
    """The schema as a list of alternatives, each of one JSON type (`"type"`) with only the
    keywords that constrain that type."""
    schema = side.resolve(schema)
    constraints = {k: v for k, v in schema.items() if k not in ANNOTATIONS}
    for union in ("anyOf", "oneOf"):
        if union in constraints:
            shared = {k: v for k, v in constraints.items() if k != union}
            return [
                alternative
                for member in constraints[union]
                for alternative in alternatives({**shared, **side.resolve(member)}, side)
            ]
    if "allOf" in constraints:
        (only,) = constraints.pop("allOf")  # a lone `$ref` wrapped to carry a description
        return alternatives({**constraints, **side.resolve(only)}, side)
    if "const" in constraints:
        constraints["enum"] = [constraints.pop("const")]
    declared = constraints.get("type")
    if declared is None and "enum" in constraints:
        declared = sorted({json_type(value) for value in constraints["enum"]})
    if declared is None:
        assert not constraints, f"{side.name}: constraints without a type: {constraints}"
        return [{"type": "any"}]
    result = []
    for kind in [declared] if isinstance(declared, str) else declared:
        alternative = {k: v for k, v in constraints.items() if k in APPLIES[kind]}
        alternative["type"] = kind
        if "enum" in alternative:
            values = [value for value in alternative["enum"] if json_type(value) == kind]
            alternative["enum"] = sorted(values, key=repr)
        for bound in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if isinstance(alternative.get(bound), float) and alternative[bound].is_integer():
                alternative[bound] = int(alternative[bound])
        if kind == "object":
            alternative.setdefault("properties", {})
            alternative["required"] = sorted(alternative.get("required", []))
            alternative.setdefault("additionalProperties", True)
        result.append(alternative)
    return result


def key(alternative: dict[str, Any]) -> str:
    """What tells an alternative apart from the others of its union: its type, and the tag of
    a tagged object."""
    if alternative["type"] == "object":
        for tag in ("type", "kind"):
            enum = alternative["properties"].get(tag, {}).get("enum") or [
                alternative["properties"].get(tag, {}).get("const")
            ]
            if len(enum) == 1 and enum[0] is not None:
                return f"object {tag}={enum[0]}"
    return alternative["type"]


def differences(
    own: dict[str, Any], document: dict[str, Any], sides: tuple[Side, Side], path: str
) -> Iterator[str]:
    """Where the document does not say what msgspec enforces, as readable lines."""
    own_side, document_side = sides
    mine = {key(alternative): alternative for alternative in alternatives(own, own_side)}
    theirs = {
        key(alternative): alternative for alternative in alternatives(document, document_side)
    }
    for name in mine.keys() - theirs.keys():
        yield f"{path}: the document lacks the alternative {name} ({mine[name]})"
    for name in theirs.keys() - mine.keys():
        yield f"{path}: the document allows {name}, which the server refuses ({theirs[name]})"
    for name in sorted(mine.keys() & theirs.keys()):
        yield from same_alternative(mine[name], theirs[name], sides, f"{path} ({name})")


def same_alternative(
    own: dict[str, Any], document: dict[str, Any], sides: tuple[Side, Side], path: str
) -> Iterator[str]:
    kind = own["type"]
    for keyword in sorted((own.keys() | document.keys()) - {"type", "items", "properties"}):
        if keyword not in own and (kind, keyword) in ENFORCED_BEYOND_MSGSPEC:
            continue
        if own.get(keyword) != document.get(keyword):
            yield (
                f"{path}: {keyword} is {document.get(keyword)!r} in the document, "
                f"{own.get(keyword)!r} on the server"
            )
    if kind == "array":
        yield from differences(own["items"], document.get("items", {}), sides, f"{path}[]")
    if kind == "object":
        fields, documented = own["properties"], document["properties"]
        for name in sorted(fields.keys() ^ documented.keys()):
            where = "the document only" if name in documented else "the server only"
            yield f"{path}.{name}: a field of {where}"
        for name in sorted(fields.keys() & documented.keys()):
            yield from differences(fields[name], documented[name], sides, f"{path}.{name}")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(COMMITTED.read_text())
    return loaded


def test_every_operation_that_takes_a_body_is_compared(document: dict[str, Any]) -> None:
    with_bodies = {
        (method, path)
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "requestBody" in operation
    }
    assert with_bodies == set(BODIES)


@pytest.mark.parametrize(("method", "path"), list(BODIES), ids=lambda value: str(value))
def test_the_document_states_every_constraint_the_server_enforces_on_a_body(
    document: dict[str, Any], method: str, path: str
) -> None:
    (own,), own_components = msgspec.json.schema_components(
        [BODIES[(method, path)]], ref_template=REF + "{name}"
    )
    operation = document["paths"][path][method]
    if path == "/v1/audits":
        # A bundle is uploaded as the file's bytes; what they must hold is the `Bundle` schema,
        # the one the export answers with.
        content = operation["requestBody"]["content"]
        assert content == {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
        }
        exported = document["paths"]["/v1/games/{game_id}/export"]["get"]["responses"]["200"]
        published = exported["content"]["application/json"]["schema"]
    else:
        content = operation["requestBody"]["content"]
        assert list(content) == ["application/json"]
        published = content["application/json"]["schema"]
    sides = (Side("msgspec", own_components), Side("document", document["components"]["schemas"]))
    found = list(differences(own, published, sides, "body"))
    assert found == [], "\n".join(found)


def test_the_comparison_finds_what_the_document_would_lack() -> None:
    """The comparison itself, on the bug it was written for: a bound dropped from an optional
    value, and on the other faults it must see."""
    own = {"type": "object", "properties": {"n": {"anyOf": [{"type": "integer", "minimum": 0}]}}}
    sides = (Side("msgspec", {}), Side("document", {}))

    def found(document: dict[str, Any]) -> list[str]:
        return list(differences(own, document, sides, "body"))

    assert found({"type": "object", "properties": {"n": {"oneOf": [{"type": "integer"}]}}})
    assert found({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}})
    assert found({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}})
    assert found({"type": "object", "properties": {}})
    assert found(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0}},
            "additionalProperties": False,
        }
    )
    assert not found({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0.0}}})

"""Every member of every tagged union of an OpenAPI document, decoded by the Python client that
openapi-generator wrote from it (`referee_api`, beside this file): each must come back as its own
class. A game played through the client decodes the events, commands and views of that game;
this decodes the rest too (a resignation, a timeout, bots seated, a stand-in...).

    python decode_openapi_generator.py SPEC

Each member is decoded from a value made from its schema: every field present, the first of
every enum, the smallest number allowed. Prints one JSON line: the unions and members decoded,
and every failure.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

REF = "#/components/schemas/"
GENERATED = "referee_api"


def main(spec_path: str) -> dict[str, Any]:
    document = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    classes = union_classes()
    unions, failures, decoded = 0, [], 0
    for union in tagged_unions(document):
        members = [option["$ref"].removeprefix(REF) for option in union["oneOf"]]
        decoder = classes.get(frozenset(members))
        if decoder is None:
            failures.append(f"no class of the client decodes the union of {members}")
            continue
        unions += 1
        for member in members:
            value = example(schemas, {"$ref": REF + member})
            try:
                instance = decoder.from_dict(value).actual_instance
            except Exception as error:  # what a caller of the client would get
                failures.append(f"{member}: {type(error).__name__}: {str(error)[:300]}")
                continue
            if member not in [cls.__name__ for cls in type(instance).__mro__]:
                failures.append(f"{member} decoded as {type(instance).__name__}")
            decoded += 1
    return {"unions": unions, "members": decoded, "failures": failures}


def tagged_unions(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Each distinct `oneOf` of references with a discriminator, in the document's schemas."""
    found: dict[frozenset[str], dict[str, Any]] = {}
    stack: list[Any] = [document["components"]["schemas"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            options = node.get("oneOf")
            if "discriminator" in node and isinstance(options, list):
                found.setdefault(frozenset(o["$ref"] for o in options), node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return list(found.values())


def union_classes() -> dict[frozenset[str], Any]:
    """The client's union classes (those with `one_of_schemas`), by their members' names."""
    package = importlib.import_module(f"{GENERATED}.models")
    found = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{module_info.name}")
        for value in vars(module).values():
            fields = getattr(value, "model_fields", {})
            if isinstance(value, type) and "one_of_schemas" in fields:
                found[frozenset(fields["one_of_schemas"].default)] = value
    return found


def example(schemas: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A value of `schema`: every field present, never null where something else may be."""
    while "$ref" in schema:
        schema = schemas[schema["$ref"].removeprefix(REF)]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    options = schema.get("oneOf") or schema.get("anyOf")
    if options:
        not_null = [option for option in options if option.get("type") != "null"]
        return example(schemas, (not_null or options)[0])
    if "allOf" in schema:
        value: dict[str, Any] = {}
        for part in schema["allOf"]:
            value.update(example(schemas, part))
        return value
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: example(schemas, prop) for name, prop in schema.get("properties", {}).items()}
    if kind == "array":
        if "prefixItems" in schema:
            return [example(schemas, item) for item in schema["prefixItems"]]
        return [example(schemas, schema.get("items", {}))] * max(1, schema.get("minItems", 1))
    if kind in ("integer", "number"):
        return max(schema.get("minimum", 1), 1)
    if kind == "boolean":
        return True
    if kind == "string":
        return string(schema)
    return None


def string(schema: dict[str, Any]) -> str:
    formats = {"date-time": "2026-01-01T00:00:00Z", "uuid": "0f1e2d3c-4b5a-4968-8776-655443322110"}
    if schema.get("format") in formats:
        return formats[schema["format"]]
    pattern = schema.get("pattern")
    if pattern is None:
        return "x" * max(1, schema.get("minLength", 1))
    alternatives = re.fullmatch(r"\^\(\?:([^()]*)\)\$", pattern)
    candidates = [*(alternatives.group(1).split("|") if alternatives else []), "ab" * 16, "0" * 64]
    for candidate in [*candidates, "AAAA", "x"]:
        if re.search(pattern, candidate):
            return candidate
    raise SystemExit(f"no example of a string matching {pattern}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))

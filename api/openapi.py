"""The OpenAPI document: generated from the app, then completed deterministically.

Litestar renders each union of tagged Structs as a `oneOf` with a `const` tag but without a
`discriminator`, and does not render `forbid_unknown_fields` as `additionalProperties: false`.
Both are added here, from the schema and from the Structs themselves, so that client generators
get tagged unions and strict request bodies. Two shapes a generator decodes wrongly are published
in forms every generator reads (`_nested_enums_as_patterns`, `_tags_read_first`). The rendering
is byte-stable: sorted keys, no generated examples.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec
import msgspec.inspect
from litestar import Litestar, Request
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin
from litestar.openapi.spec import Components, Contact, License, SecurityScheme, Tag

from api.auth import SECURITY_SCHEME
from api.bundle import MAX_BUNDLE_BYTES
from api.config import Settings
from api.json_limits import MAX_DEPTH
from api.schemas import wire_types

DOCS = "/schema"  # the documentation page, and the document at {DOCS}/openapi.json
DISCRIMINATORS = ("type", "kind")  # the tag fields of the API's unions, in order of preference
_REF_PREFIX = "#/components/schemas/"


def openapi_document(app: Litestar) -> dict[str, Any]:
    """The app's OpenAPI document, completed (see the module docstring)."""
    return complete(app.openapi_schema.to_schema(), structs_of(wire_types()))


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def complete(document: dict[str, Any], structs: Iterable[type[msgspec.Struct]]) -> dict[str, Any]:
    structs = list(structs)
    result = copy.deepcopy(document)
    components: dict[str, Any] = result.get("components", {}).get("schemas", {})
    _forbid_unknown_fields(components, structs)
    _base64_bytes(components, structs)
    _nullable_bounds(components, structs)
    _extra_json_schema(components, structs)
    for node in _nodes(result):
        _add_discriminator(node, components)
        _integral_bounds(node)
        _tuple_items(node)
        _nested_enums_as_patterns(node)
    _public_operations(result)
    _games_named(result, structs)  # the passes above find components by Struct
    _tags_read_first(result)  # on the final names
    return result


def _tuple_items(node: dict[str, Any]) -> None:
    """A fixed-length tuple (`prefixItems`) also states its length and what any item may be, for
    the tools that read `items` only (msgspec refuses any other length)."""
    prefix = node.get("prefixItems")
    if node.get("type") != "array" or not isinstance(prefix, list) or "items" in node:
        return
    kinds = [schema for i, schema in enumerate(prefix) if schema not in prefix[:i]]
    node["items"] = copy.deepcopy(kinds[0] if len(kinds) == 1 else {"anyOf": kinds})
    node["minItems"] = node["maxItems"] = len(prefix)


OPTIONAL_SECURITY = "x-optional-security"  # what a caller may send, not must


def _public_operations(document: dict[str, Any]) -> None:
    """An operation that needs no token says so (`security: []`) rather than leaving it unsaid:
    the document has no global security requirement. One where a seat token is optional (a
    spectator's read, or a seat's view) is also `security: []`, since client generators take
    any listed requirement for a required one and would refuse spectators; the token it
    accepts is named in `x-optional-security` and in its description."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            security = operation.setdefault("security", [])
            if {} in security:
                operation[OPTIONAL_SECURITY] = [option for option in security if option]
                operation["security"] = []
                operation["description"] = (
                    operation.get("description", "").rstrip()
                    + "\n\nA seat token is optional here (Authorization: Bearer): with it, the "
                    "answer is as that seat may see it; without it, as a spectator may."
                ).lstrip()


# -- names ------------------------------------------------------------------------------------


def _games_named(document: dict[str, Any], structs: list[type[msgspec.Struct]]) -> None:
    """Each game's schemas carry the game's name (`Bid` is `CoyoteBid`), as component and title:
    names stay unique and stable whatever games are added, and generated clients get one class
    per schema. Litestar names a component after its Struct, or after its module when two
    Structs share a name; both are recognised here."""
    components: dict[str, Any] = document.get("components", {}).get("schemas", {})
    renamed = {}
    for key, schema in components.items():
        title = schema.get("title", key)
        owner = _game_struct(key, title, structs)
        if owner is not None:
            prefix = _game_prefix(owner)
            renamed[key] = title if title.startswith(prefix) else prefix + title
    if len(set(renamed.values())) != len(renamed):
        raise ValueError(f"two schemas of one game share a name: {sorted(renamed.values())}")
    document["components"]["schemas"] = {
        renamed.get(key, key): schema for key, schema in components.items()
    }
    for name in renamed.values():
        document["components"]["schemas"][name]["title"] = name
    refs = {_REF_PREFIX + key: _REF_PREFIX + name for key, name in renamed.items()}
    for node in _nodes(document):
        if isinstance(node.get("$ref"), str):
            node["$ref"] = refs.get(node["$ref"], node["$ref"])
        mapping = node.get("mapping")  # a discriminator's
        if isinstance(mapping, dict):
            node["mapping"] = {tag: refs.get(ref, ref) for tag, ref in mapping.items()}


def _game_struct(
    key: str, title: str, structs: list[type[msgspec.Struct]]
) -> type[msgspec.Struct] | None:
    """The game's Struct behind component `key`, if it is one of a game's."""
    named = [cls for cls in structs if cls.__name__ == title]
    if key != title:  # litestar's name for a Struct whose name another Struct shares
        path = key.removesuffix("_" + title)
        named = [cls for cls in named if cls.__module__.replace(".", "_").endswith(path)]
    games = [cls for cls in named if cls.__module__.startswith("referee.games.")]
    return games[0] if len(games) == 1 and len(named) == 1 else None


def _game_prefix(cls: type[msgspec.Struct]) -> str:
    package = cls.__module__.split(".")[2]  # referee.games.<package>.<module>
    return "".join(part.capitalize() for part in package.split("_"))


# -- discriminators ----------------------------------------------------------------------------


def _add_discriminator(node: dict[str, Any], components: dict[str, Any]) -> None:
    options = node.get("oneOf")
    if not isinstance(options, list) or not all(_is_ref(option) for option in options):
        return
    targets = [
        (option["$ref"], components.get(option["$ref"][len(_REF_PREFIX) :], {}))
        for option in options
    ]
    for field in DISCRIMINATORS:
        tags = [_const(schema, field) for _, schema in targets]
        if all(tag is not None for tag in tags) and len(set(tags)) == len(tags):
            mapping = {tag: ref for tag, (ref, _) in zip(tags, targets, strict=True)}
            node["discriminator"] = {"propertyName": field, "mapping": mapping}
            return


def _is_ref(option: Any) -> bool:
    return isinstance(option, dict) and str(option.get("$ref", "")).startswith(_REF_PREFIX)


def _const(schema: dict[str, Any], field: str) -> str | None:
    prop = schema.get("properties", {}).get(field, {})
    const = prop.get("const") if isinstance(prop, dict) else None
    if isinstance(const, str) and field in schema.get("required", []):
        return const
    return None


# -- enums nested in containers ---------------------------------------------------------------

ENUM_DEPTH = 2  # containers around an enum from which on it is published as a pattern


def _nested_enums_as_patterns(node: dict[str, Any]) -> None:
    """An enum of strings nested two containers deep in a field (Big Manitou's `grounds`, lists
    of tiles; the `hands` of Tribù's deal, optional lists of cards) is published as the pattern
    that matches exactly its values, which admits the same strings. openapi-generator's Python
    client cannot decode such an enum, inline or as a schema of its own: it checks each inner
    list as if it were one of the values (a TypeError), or decodes each value with a method
    its enum classes lack; every one of those events would fail. A pattern it decodes as a
    string, like every other reader."""
    for schema in node.get("properties", {}).values():
        for enum in _enums_within(schema, depth=0):
            values = enum.pop("enum")
            alternatives = "|".join(re.sub(r"([\\^$.|?*+()\[\]{}])", r"\\\1", v) for v in values)
            enum["pattern"] = f"^(?:{alternatives})$"


_CONTAINED = ("items", "prefixItems", "additionalProperties")  # one container deeper


def _enums_within(schema: Any, depth: int) -> Iterator[dict[str, Any]]:
    """The plain enums of strings (`type` and `enum` only) ENUM_DEPTH or more containers deep."""
    if isinstance(schema, list):
        for item in schema:
            yield from _enums_within(item, depth)
        return
    if not isinstance(schema, dict):
        return
    plain = set(schema) == {"type", "enum"} and schema["type"] == "string"
    if plain and depth >= ENUM_DEPTH and all(isinstance(v, str) for v in schema["enum"]):
        yield schema
    for key, value in schema.items():
        if key != "properties":  # the fields of a nested object are fields of their own
            yield from _enums_within(value, depth + (key in _CONTAINED))


# -- members decoded by their tag first -------------------------------------------------------

TAGGED = "Tagged"  # the suffix of the one subschema of a member decoded by its tag first


def _tags_read_first(document: dict[str, Any]) -> None:
    """openapi-generator's Python client decodes a `oneOf` by trying every member on the value
    and counting those that take it; a member's decoder builds its lists of objects before it
    checks anything, and fails with a TypeError (which it does not catch, so the whole union
    fails) where another member's field of the same name holds a number: `game.bots`'s `seats`
    (the bots) on every `game.created` (`seats`: how many). No spelling of the list changes
    that. The only schemas it decodes by their tag first are those with a discriminator and
    subschemas (`allOf`), so such a member is published as one: its discriminator maps its own
    tag to `<Member>Tagged`, which is the member and nothing more, and its `$defs` name that
    subschema with a `$ref` (linters count references, not a discriminator's mapping, as uses).
    The member validates what it did, and the union is unchanged: every other reader sees the
    same schemas as before."""
    components: dict[str, Any] = document.get("components", {}).get("schemas", {})
    tagged: dict[str, tuple[str, str]] = {}  # member -> (tag field, tag)
    for node in _nodes(document):
        discriminator = node.get("discriminator")
        if not isinstance(discriminator, dict) or not isinstance(node.get("oneOf"), list):
            continue
        field = discriminator["propertyName"]
        members = {ref[len(_REF_PREFIX) :]: tag for tag, ref in discriminator["mapping"].items()}
        for name, tag in members.items():
            others = [components[other] for other in members if other != name]
            if _fails_on_another(components[name], others, components):
                tagged[name] = (field, tag)
    for name, (field, tag) in sorted(tagged.items()):
        child = name + TAGGED
        if child in components:
            raise ValueError(f"{child} is already a schema")
        components[name]["discriminator"] = {
            "propertyName": field,
            "mapping": {tag: _REF_PREFIX + child},
        }
        components[name]["$defs"] = {child: {"$ref": _REF_PREFIX + child}}
        components[child] = {
            "allOf": [{"$ref": _REF_PREFIX + name}],
            "title": child,
            "description": f"A {name}, which is decoded by its `{field}` first.",
        }


def _fails_on_another(
    member: dict[str, Any], others: list[dict[str, Any]], components: dict[str, Any]
) -> bool:
    """Whether a field of `member` holds objects in a container (a list, a map) where another
    member's field of the same name may hold something else."""
    for prop, schema in member.get("properties", {}).items():
        container = _container_of_objects(schema, components)
        if container is None:
            continue
        for other in others:
            theirs = other.get("properties", {}).get(prop)
            if theirs is not None and _types(theirs, components) - {container, "null"}:
                return True
    return False


def _container_of_objects(schema: dict[str, Any], components: dict[str, Any]) -> str | None:
    """ "array" or "object" (a map) if the field is a container of objects with fields."""
    schema = _resolved(schema, components)
    if schema.get("type") == "array":
        inner, container = schema.get("items"), "array"
    elif schema.get("type") == "object" and "properties" not in schema:
        inner, container = schema.get("additionalProperties"), "object"
    else:
        return None
    return container if isinstance(inner, dict) and _is_object(inner, components) else None


def _is_object(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """A schema whose values are objects with fields (or null), which a decoder builds."""
    schema = _resolved(schema, components)
    options = schema.get("oneOf") or schema.get("anyOf")
    if options:
        return any(_is_object(option, components) for option in options)
    return "properties" in schema


def _types(schema: dict[str, Any], components: dict[str, Any]) -> set[str]:
    """The JSON types of a field's values."""
    schema = _resolved(schema, components)
    options = schema.get("oneOf") or schema.get("anyOf")
    if options:
        return set().union(*(_types(option, components) for option in options))
    kind = schema.get("type")
    return set(kind) if isinstance(kind, list) else {kind} if kind else set(JSON_TYPES)


JSON_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")


def _resolved(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while isinstance(schema.get("$ref"), str) and schema["$ref"].startswith(_REF_PREFIX):
        schema = components[schema["$ref"][len(_REF_PREFIX) :]]
    return schema


# -- strict request bodies ---------------------------------------------------------------------


def _forbid_unknown_fields(components: dict[str, Any], structs: list[type[msgspec.Struct]]) -> None:
    """`additionalProperties: false` on the components of Structs that forbid unknown fields."""
    by_tag = {
        (config.tag_field, config.tag): cls
        for cls in structs
        if (config := cls.__struct_config__).tag_field is not None
    }
    names = [cls.__name__ for cls in structs]
    by_name = {cls.__name__: cls for cls in structs if names.count(cls.__name__) == 1}
    for schema in components.values():
        cls = next(
            (
                by_tag[(field, tag)]
                for field in DISCRIMINATORS
                if (tag := _const(schema, field)) is not None and (field, tag) in by_tag
            ),
            None,
        ) or by_name.get(schema.get("title", ""))
        if cls is not None and cls.__struct_config__.forbid_unknown_fields:
            schema["additionalProperties"] = False


BASE64 = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


def _base64_bytes(components: dict[str, Any], structs: list[type[msgspec.Struct]]) -> None:
    """msgspec writes `bytes` as base64, which Litestar documents as a bare string: say so."""
    names = [cls.__name__ for cls in structs]
    for cls in structs:
        schema = components.get(cls.__name__)
        if schema is None or names.count(cls.__name__) != 1:
            continue
        for name in _bytes_fields(cls):
            schema["properties"][name].update(contentEncoding="base64", pattern=BASE64)


def _bytes_fields(cls: type[msgspec.Struct]) -> list[str]:
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return [
        field.encode_name
        for field in info.fields
        if isinstance(
            field.type.type if isinstance(field.type, msgspec.inspect.Metadata) else field.type,
            msgspec.inspect.BytesType,
        )
    ]


# -- bounds of optional values -----------------------------------------------------------------

BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength")


def _extra_json_schema(components: dict[str, Any], structs: list[type[msgspec.Struct]]) -> None:
    """Litestar drops a field's `Meta(extra_json_schema=...)` (the game id's `format: uuid`):
    copy it from the Struct's own fields."""
    for cls in structs:
        properties = components.get(cls.__name__, {}).get("properties", {})
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        for field in info.fields:
            extra = getattr(field.type, "extra_json_schema", None)
            if extra and field.encode_name in properties:
                properties[field.encode_name].update(extra)


def _nullable_bounds(components: dict[str, Any], structs: list[type[msgspec.Struct]]) -> None:
    """Litestar drops the bounds of an optional value (`Annotated[int, Meta(le=4)] | None`),
    so the document would accept what the server refuses: copy them from msgspec's own schema
    of the Struct, member by member of the union, matched by type."""
    names = [cls.__name__ for cls in structs]
    for cls in structs:
        schema = components.get(cls.__name__)
        if schema is None or names.count(cls.__name__) != 1:
            continue
        _, own = msgspec.json.schema_components([cls], ref_template="{name}")
        truth = own.get(cls.__name__, {}).get("properties", {})
        for name, prop in schema.get("properties", {}).items():
            members = truth.get(name, {}).get("anyOf", ())
            for option in prop.get("oneOf", ()):
                for member in members:
                    if option.get("type") is not None and option.get("type") == member.get("type"):
                        option.update({key: member[key] for key in BOUNDS if key in member})


def structs_of(types: Iterable[Any]) -> list[type[msgspec.Struct]]:
    """Every Struct class reachable from `types` (fields, unions, containers), in order."""
    found: dict[type[msgspec.Struct], None] = {}
    for info in msgspec.inspect.multi_type_info(list(types)):
        _collect(info, found)
    return list(found)


def _collect(info: Any, found: dict[type[msgspec.Struct], None]) -> None:
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in found:
            return
        found[info.cls] = None
    if isinstance(info, msgspec.Struct):
        for value in msgspec.structs.astuple(info):
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, msgspec.inspect.Type | msgspec.inspect.Field):
                    _collect(item, found)


# -- cosmetics ---------------------------------------------------------------------------------


def _integral_bounds(node: dict[str, Any]) -> None:
    """Litestar writes integer bounds as floats (`maximum: 6.0`); write them as integers."""
    if node.get("type") != "integer":
        return
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        value = node.get(key)
        if isinstance(value, float) and value.is_integer():
            node[key] = int(value)


def _nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every object of a JSON document, depth first."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _nodes(item)


class CompletedJsonRenderPlugin(JsonRenderPlugin):
    """Serves the completed document at `/schema/openapi.json`, byte for byte the committed one."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return render(complete(openapi_schema, structs_of(wire_types()))).encode()


# Files the service serves itself (`api.routes.pages`, under its STATIC_PATH: importing it here
# would be circular).
REDOC_JS = "/web/vendor/redoc/redoc.standalone.js"
FAVICON = "/web/favicon.svg"
DOCS_STYLE = "body { margin: 0; padding: 0 }"  # the page's own, allowed by its hash (DOCS_HEADERS)


class LocalRedocRenderPlugin(RedocRenderPlugin):
    """The documentation page: Redoc, whose one file the service serves itself
    (`api/web/vendor/redoc/`), so the page needs no network beyond this origin. It holds no
    inline script either (Litestar's own page calls `Redoc.init` inline): the bundle starts on
    the `<redoc>` element, which names the document to read (DOCS_HEADERS says the rest)."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        title = html.escape(openapi_schema["info"]["title"])
        document = html.escape(self.get_openapi_json_route(request))
        return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{FAVICON}" type="image/svg+xml">
<style>{DOCS_STYLE}</style>
</head>
<body>
<redoc spec-url="{document}"></redoc>
<script src="{REDOC_JS}"></script>
</body>
</html>
""".encode()


def openapi_config(version: str) -> OpenAPIConfig:
    return OpenAPIConfig(
        title="Referee",
        version=version,
        license=License(name="MIT", identifier="MIT"),
        contact=Contact(name="The referee's maintainers, through the project's issue tracker"),
        description=DESCRIPTION,
        path=DOCS,
        render_plugins=[LocalRedocRenderPlugin(path=["/", "/redoc"]), CompletedJsonRenderPlugin()],
        components=Components(
            security_schemes={
                SECURITY_SCHEME: SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A seat token, as returned once by createGame.",
                )
            }
        ),
        tags=[
            Tag(name="games", description="Kinds of game; creating, listing and reading games."),
            Tag(name="play", description="Commands, and the commands a seat may send now."),
            Tag(
                name="seats",
                description="Open tables: taking a seat under a name, and leaving it before the "
                "deal.",
            ),
            Tag(
                name="history",
                description="Past events and states, as the caller may see them, and the live "
                "stream of events.",
            ),
            Tag(
                name="audit",
                description="Proofs: the audit of a stored game, its export as a bundle, and the "
                "audit of an uploaded bundle.",
            ),
            Tag(
                name="proofs",
                description="Signed proofs for disputes: the referee's keys, a game's head "
                "receipt, the checkpoints of the log of every game's head and proofs against them.",
            ),
            Tag(name="health", description="Liveness and readiness."),
        ],
        use_handler_docstrings=True,
    )


_KIB = Settings().max_body_bytes // 1024
_MIB = MAX_BUNDLE_BYTES // 2**20
DESCRIPTION = f"""\
An event-sourced referee for tabletop games. Create a game (`createGame`): the answer holds one
secret token per seat, shown once. Send each seat's commands with its token as a bearer token
(`playCommand`); read the game, its events and its past states with a token (that seat's view)
or without (a spectator's view). Everything hidden becomes public once the game is over.

Follow a game live with `streamEvents` (Server-Sent Events, resumable with `Last-Event-ID`).
Prove a game with `auditGame` (every check, with the first failing event), `exportGame` (a
finished game as one self-contained bundle) and `verifyBundle` (the same checks on a bundle;
also offline: `referee verify FILE`).

Every error is an RFC 9457 `application/problem+json` document with a stable `type`
(`urn:referee:problem:...`); a command the rules refuse is a 422 whose `rule_id` names the rule.
A refused or malformed command changes nothing.

Request bodies are JSON in UTF-8, read as JSON whatever the `Content-Type` says; at most
{_KIB} KiB by default (`REFEREE_MAX_BODY_BYTES`), a bundle sent to `verifyBundle` {_MIB} MiB;
their arrays and objects nest at most {MAX_DEPTH} levels deep, and none holds a field its schema
does not name (`additionalProperties: false`). A body beyond these limits is refused before
anything is done: 413 `payload-too-large` when too large, else 400 `malformed-request`.
"""

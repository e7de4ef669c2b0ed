"""Open tables, attacked over real HTTP by a client that read only the issue and the OpenAPI
document: hostile names, codes, seats and bodies; every token's reach; retried sittings; tables
with bots; private tables kept out of every listing; guessing of invitation codes limited.

Everything runs against real `referee serve` processes on the test run's PostgreSQL
(tests/servers.py): one shared by the module, one of its own (a small bucket of guesses) for
the rate limit, and one with its sweeper on for the bots. Every refused request is shown to
change nothing: the game as anyone reads it (its detail, every event) and the seat tokens the
database holds for it are as they were.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from tests.servers import Server, start_server, stop_server

PROBLEM = "urn:referee:problem:"
NO_GAME = "00000000-0000-4000-8000-000000000000"  # a well-formed id of no game
GAME_PATIENCE = 60.0  # seconds for a table with bots to finish its game; never a measured time
WAITING_EVENTS = {"game.created", "game.table-opened", "game.bots", "game.seat-taken"}
WAITING_EVENTS |= {"game.seat-left", "game.time-control-set"}

Conn = AsyncConnection[TupleRow]


# -- servers and clients ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def server_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("open-tables-hostile")


@pytest.fixture(scope="module")
def server(database_url: str, server_log: Path) -> Iterator[Server]:
    """The module's server: guesses of codes are limited far beyond what the tests make (the
    rate limit has its own server, `stingy_server`)."""
    started = start_server(
        database_url,
        server_log / "server.log",
        invitation_guesses_per_minute=6000,
        invitation_guesses_burst=5000,
    )
    yield started
    stop_server(started)


@pytest.fixture(scope="module")
def stingy_server(database_url: str, server_log: Path) -> Iterator[Server]:
    """A server that allows 3 wrong guesses a client, and one more a minute."""
    started = start_server(
        database_url,
        server_log / "stingy.log",
        invitation_guesses_per_minute=1,
        invitation_guesses_burst=3,
    )
    yield started
    stop_server(started)


@pytest.fixture
def sweeping_server(database_url: str, server_log: Path) -> Iterator[Server]:
    """A server whose sweeper never sweeps, for the test of bots alone (stopped after it): a
    bot's move is made on a nudge alone, also one that comes while the bots of that game are
    still busy with the previous one (it is visited again)."""
    started = start_server(database_url, server_log / "sweeping.log", sweep_interval_seconds=0)
    yield started
    stop_server(started)


@pytest.fixture
async def http(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        yield client


@pytest.fixture
async def stingy_http(stingy_server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=stingy_server.url, timeout=30) as client:
        yield client


# -- the client's words ----------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(http: httpx.AsyncClient, body: dict[str, Any]) -> httpx.Response:
    return await http.post("/v1/games", json=body)


async def open_table(
    http: httpx.AsyncClient,
    *,
    kind: str = "coyote",
    seats: int = 3,
    visibility: str = "public",
    creator: dict[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    table = {"visibility": visibility, "creator": creator}
    response = await create(http, {"kind": kind, "seats": seats, "open_table": table, **fields})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert created["status"] == "waiting" and created["seating"] == "open", created
    return created


async def sit(
    http: httpx.AsyncClient,
    game_id: str,
    name: Any,
    *,
    key: str | None = None,
    **fields: Any,
) -> httpx.Response:
    headers = {} if key is None else {"Idempotency-Key": key}
    return await http.post(
        f"/v1/games/{game_id}/seats", json={"name": name, **fields}, headers=headers
    )


async def sat(http: httpx.AsyncClient, game_id: str, name: str, **fields: Any) -> dict[str, Any]:
    response = await sit(http, game_id, name, **fields)
    assert response.status_code == 201, response.text
    granted: dict[str, Any] = response.json()
    return granted


async def leave(http: httpx.AsyncClient, game_id: str, seat: Any, token: str) -> httpx.Response:
    return await http.delete(f"/v1/games/{game_id}/seats/{seat}", headers=bearer(token))


async def detail(http: httpx.AsyncClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = await http.get(f"/v1/games/{game_id}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def events(http: httpx.AsyncClient, game_id: str) -> list[dict[str, Any]]:
    response = await http.get(f"/v1/games/{game_id}/events", params={"limit": 1000})
    assert response.status_code == 200, response.text
    return [record["event"] for record in response.json()["events"]]


async def listed(http: httpx.AsyncClient, **params: Any) -> set[str]:
    response = await http.get("/v1/games", params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    return {game["game_id"] for game in response.json()["games"]}


def is_problem(
    response: httpx.Response, status: int, slug: str, rule_id: str | None = None
) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response
    body = response.json()
    assert body["type"] == PROBLEM + slug, body
    assert body["status"] == status and body["title"] and body["detail"], body
    if rule_id is not None:
        assert body.get("rule_id") == rule_id, body


def refused_without_harm(response: httpx.Response) -> None:
    """A refusal the OpenAPI document allows: a problem document, never a 5xx."""
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json"), response
    assert response.json()["type"].startswith(PROBLEM), response.text


class Unchanged:
    """What a refused request must leave as it was: the game as a spectator reads it (detail,
    every event) and the seat tokens the database holds for it."""

    def __init__(self, http: httpx.AsyncClient, conn: Conn, game_id: str) -> None:
        self.http, self.conn, self.game_id = http, conn, game_id

    async def snapshot(self) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
        cursor = await self.conn.execute(
            "SELECT count(*) FROM seat_tokens WHERE game_id = %s", [self.game_id]
        )
        row = await cursor.fetchone()
        tokens = int(row[0]) if row else -1
        return await detail(self.http, self.game_id), await events(self.http, self.game_id), tokens

    async def __aenter__(self) -> Unchanged:
        self.before = await self.snapshot()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if exc[0] is None:
            assert await self.snapshot() == self.before, "a refused request changed the game"


def without_ids(problem: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in problem.items() if key not in {"instance", "request_id"}}


# -- names -----------------------------------------------------------------------------------

NAME_REFUSALS = [
    # (name, rule_id) — each is a 422 rule-violation whose rule_id says which rule
    ("A" * 41, "kernel.name-length"),
    ("e\u0301" * 41, "kernel.name-length"),  # 82 code points, 41 after NFC
    ("\u0958" * 21, "kernel.name-length"),  # 21 code points that NFC makes 42
    ("Ann\u202eevil", "kernel.name-bidi"),  # RIGHT-TO-LEFT OVERRIDE
    ("\u2066Ann", "kernel.name-bidi"),  # LEFT-TO-RIGHT ISOLATE
    ("Ann\u200f", "kernel.name-bidi"),  # RIGHT-TO-LEFT MARK
    ("Ann\u0000", "kernel.name-control"),  # NUL
    ("Ann\tLee", "kernel.name-control"),
    ("Ann\nLee", "kernel.name-control"),
    ("Ann\r", "kernel.name-control"),
    ("Ann\u007f", "kernel.name-control"),  # DELETE
    ("Ann\u0085Lee", "kernel.name-control"),  # NEXT LINE, a C1 control
    (" ", "kernel.name-blank"),
    ("       ", "kernel.name-blank"),
    ("\u3000\u00a0 ", "kernel.name-blank"),  # ideographic and no-break spaces
]


@pytest.mark.parametrize(
    ("name", "rule_id"),
    NAME_REFUSALS,
    ids=[f"{rule.removeprefix('kernel.')}-{i}" for i, (_, rule) in enumerate(NAME_REFUSALS)],
)
async def test_a_bad_name_is_a_422_that_says_which_rule_and_changes_nothing(
    http: httpx.AsyncClient, superuser_conn: Conn, name: str, rule_id: str
) -> None:
    game_id = (await open_table(http, creator={"name": "Host"}))["game_id"]
    async with Unchanged(http, superuser_conn, game_id):
        is_problem(await sit(http, game_id, name), 422, "rule-violation", rule_id)
        is_problem(await sit(http, game_id, name, seat=2), 422, "rule-violation", rule_id)
    # The creator's name is held to the same rule, and nothing is created.
    before = await listed(http, status="waiting")
    body = {"kind": "coyote", "seats": 3, "open_table": {"creator": {"name": name}}}
    is_problem(await create(http, body), 422, "rule-violation", rule_id)
    assert await listed(http, status="waiting") <= before


@pytest.mark.parametrize(
    "name",
    ["", "A" * 161, "A" * 10_000, 42, None, ["Ann"], {"first": "Ann"}],
    ids=["empty", "161", "10k", "number", "null", "list", "object"],
)
async def test_a_name_beyond_the_schema_is_refused_before_anything(
    http: httpx.AsyncClient, superuser_conn: Conn, name: Any
) -> None:
    game_id = (await open_table(http))["game_id"]
    async with Unchanged(http, superuser_conn, game_id):
        response = await sit(http, game_id, name)
        refused_without_harm(response)
        if response.status_code == 422:  # the empty name may be read as the length rule
            assert response.json().get("rule_id") == "kernel.name-length", response.text
        else:
            is_problem(response, 400, "malformed-request")


async def test_huge_and_broken_bodies_are_refused_before_anything(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    game_id = (await open_table(http))["game_id"]
    url = f"/v1/games/{game_id}/seats"
    async with Unchanged(http, superuser_conn, game_id):
        huge = await sit(http, game_id, "A" * 200_000)
        is_problem(huge, 413, "payload-too-large")
        for raw in (
            b'{"name": "\\ud800"}',  # a lone surrogate
            b'{"name": "\\udfff\\ud800x"}',
            b'{"name": "Ann"',
            b"\xff\xfe{}",
            b"[]",
            b"null",
            b'{"name": "Ann\xff"}',  # not UTF-8
            b'{"name": ' + b"[" * 40 + b"]" * 40 + b"}",
        ):
            response = await http.post(url, content=raw)
            refused_without_harm(response)
            assert response.status_code in (400, 422), (raw, response.text)


async def test_names_that_fit_once_normalised_are_recorded_in_nfc(http: httpx.AsyncClient) -> None:
    game_id = (await open_table(http, seats=4))["game_id"]
    decomposed = "e\u0301" * 40  # 80 code points, 40 after NFC: it fits
    granted = await sat(http, game_id, decomposed)
    assert granted["name"] == "\u00e9" * 40 == unicodedata.normalize("NFC", decomposed)
    assert await sat(http, game_id, "A" * 40)
    assert (await sat(http, game_id, "Ann Lee"))["name"] == "Ann Lee"
    names = (await detail(http, game_id))["names"]
    assert names == ["\u00e9" * 40, "A" * 40, "Ann Lee", None]
    taken = [event for event in await events(http, game_id) if event["type"] == "game.seat-taken"]
    assert [event["name"] for event in taken] == names[:3]


@pytest.mark.parametrize(
    "name",
    ["ann", "ANN", "aNn", "Jose\u0301", "JOSÉ", "jos\u00c9", "STRASSE", "strasse"],
    ids=["lower", "upper", "mixed", "nfd", "upper-nfc", "upper-accent", "casefold", "casefold2"],
)
async def test_a_name_taken_in_another_case_or_form_is_refused(
    http: httpx.AsyncClient, superuser_conn: Conn, name: str
) -> None:
    game_id = (await open_table(http, seats=4, creator={"name": "Ann"}))["game_id"]
    await sat(http, game_id, "Jos\u00e9")  # NFC
    await sat(http, game_id, "Straße")
    async with Unchanged(http, superuser_conn, game_id):
        is_problem(await sit(http, game_id, name), 422, "rule-violation", "kernel.name-taken")


async def test_a_name_left_behind_may_be_taken_again(http: httpx.AsyncClient) -> None:
    game_id = (await open_table(http))["game_id"]
    bob = await sat(http, game_id, "Bob")
    assert (await leave(http, game_id, bob["seat"], bob["token"])).status_code == 200
    assert (await sat(http, game_id, "BOB"))["seat"] == bob["seat"]


# -- seats, entropy, unknown fields ----------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "statuses"),
    [
        # A seat the table does not have: the rules say so (kernel.no-such-seat).
        ({"seat": 3}, {422}),
        ({"seat": 1000}, {422}),
        ({"seat": 2**31}, {422}),
        # Beyond any integer a client may mean, or not a seat number at all.
        ({"seat": 2**63}, {400, 422}),
        ({"seat": 10**30}, {400, 422}),
        ({"seat": -1}, {400}),
        ({"seat": -(2**63)}, {400}),
        ({"seat": "1"}, {400}),
        ({"seat": 1.5}, {400}),
        ({"seat": True}, {400}),
        # Entropy beyond 256 characters, or not text.
        ({"entropy": "x" * 257}, {400}),
        ({"entropy": "\u00e9" * 257}, {400}),
        ({"entropy": 7}, {400}),
        ({"entropy": None}, {400}),
        # Fields the schema does not name (additionalProperties: false).
        ({"token": "x"}, {400}),
        ({"Name": "Ann"}, {400}),
        ({"seats": 1}, {400}),
        # A code that is no code at all.
        ({"invitation_code": 42}, {400}),
        ({"invitation_code": "a" * 65}, {400}),
    ],
    ids=lambda value: json.dumps(value)[:40] if isinstance(value, dict) else "",
)
async def test_bad_seats_entropy_and_unknown_fields_are_refused(
    http: httpx.AsyncClient, superuser_conn: Conn, fields: dict[str, Any], statuses: set[int]
) -> None:
    game_id = (await open_table(http, creator={"name": "Host"}))["game_id"]
    async with Unchanged(http, superuser_conn, game_id):
        response = await sit(http, game_id, "Bob", **fields)
        refused_without_harm(response)
        assert response.status_code in statuses, response.text
        if response.status_code == 422:
            is_problem(response, 422, "rule-violation", "kernel.no-such-seat")
        else:
            is_problem(response, 400, "malformed-request")


@pytest.mark.parametrize(
    "params",
    [
        {"status": "WAITING"},
        {"status": "open"},
        {"status": ""},
        {"kind": "k" * 65},
        {"limit": 0},
        {"limit": 101},
        {"limit": "many"},
        {"cursor": "c" * 201},
        {"cursor": "not-a-cursor"},
    ],
    ids=lambda params: json.dumps(params)[:40],
)
async def test_listing_parameters_are_bounded(
    http: httpx.AsyncClient, params: dict[str, Any]
) -> None:
    response = await http.get("/v1/games", params=params)
    if params == {"status": ""}:  # an empty parameter may count as none
        assert response.status_code in (200, 400), response.text
        return
    refused_without_harm(response)
    assert response.status_code == 400, response.text


async def test_entropy_of_256_characters_is_kept_and_public(http: httpx.AsyncClient) -> None:
    game_id = (await open_table(http))["game_id"]
    entropy = "\u00e9" * 255 + "\u0000"  # 256 characters; NUL is text too
    response = await sit(http, game_id, "Bob", entropy=entropy)
    assert response.status_code in (201, 422), response.text  # never a 500
    if response.status_code == 201:
        taken = [e for e in await events(http, game_id) if e["type"] == "game.seat-taken"]
        assert taken[-1]["entropy"] == entropy
    assert (await sat(http, game_id, "Cy", entropy="z" * 256))["status"] in ("waiting", "active")


@pytest.mark.parametrize(
    "open_table_field",
    [
        {"visibility": "secret"},
        {"visibility": None},
        {"visibility": "public", "listed": False},
        {"creator": {"name": "Ann", "token": "x"}},
        {"creator": {"name": "Ann", "seat": 3}},
        {"creator": {"name": "Ann", "seat": -1}},
        {"creator": {"name": "Ann", "entropy": "x" * 257}},
        {"creator": {"name": "A" * 41}},
        {"creator": {}},
        {"creator": "Ann"},
        [],
        "public",
        True,
    ],
    ids=lambda value: json.dumps(value)[:40],
)
async def test_a_bad_open_table_creates_nothing(
    http: httpx.AsyncClient, open_table_field: Any
) -> None:
    before = await listed(http)
    response = await create(http, {"kind": "coyote", "seats": 3, "open_table": open_table_field})
    refused_without_harm(response)
    assert response.status_code in (400, 422), response.text
    assert await listed(http) <= before


@pytest.mark.parametrize(
    "fields",
    [
        {"seed": "5e" * 32},
        {"seed": "5e" * 32, "open_table": {"visibility": "private"}},
        {"seed": "5e" * 32, "open_table": {"creator": {"name": "Ann", "seat": 2}}},
    ],
)
async def test_a_chosen_seed_is_refused_for_an_open_table(
    http: httpx.AsyncClient, fields: dict[str, Any]
) -> None:
    before = await listed(http)
    body = {"kind": "coyote", "seats": 3, "open_table": {}, **fields}
    response = await create(http, body)
    is_problem(response, 422, "rule-violation", "kernel.open-table-seed")
    assert await listed(http) <= before


# -- a waiting table -------------------------------------------------------------------------


async def test_a_waiting_table_deals_nothing_and_nobody_acts(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    created = await open_table(http, creator={"name": "Ann", "entropy": "ann's dice"})
    game_id, ann = created["game_id"], created["seat_tokens"][0]["token"]
    assert [item["seat"] for item in created["seat_tokens"]] == [0]
    assert created["to_act"] == [] and created["names"] == ["Ann", None, None]
    bob = await sat(http, game_id, "Bob", entropy="bob's dice")
    assert bob["status"] == "waiting" and bob["to_act"] == [] and bob["seat"] == 1
    game = await detail(http, game_id, ann)
    assert game["status"] == "waiting" and game["to_act"] == [] and game["open_seats"] == [2]
    assert game["names"] == ["Ann", "Bob", None]
    assert {event["type"] for event in await events(http, game_id)} <= WAITING_EVENTS
    async with Unchanged(http, superuser_conn, game_id):
        for token in (ann, bob["token"]):
            legal = await http.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(token))
            if legal.status_code == 200:
                assert legal.json()["total"] == 0, legal.text
            else:
                refused_without_harm(legal)
            for command in ({"type": "coyote.bid", "number": 1}, {"type": "game.resign"}):
                played = await http.post(
                    f"/v1/games/{game_id}/commands",
                    json={"command": command},
                    headers=bearer(token),
                )
                refused_without_harm(played)
    taken = [e for e in await events(http, game_id) if e["type"] == "game.seat-taken"]
    assert [(e["seat"], e["name"], e["entropy"]) for e in taken] == [
        (0, "Ann", "ann's dice"),
        (1, "Bob", "bob's dice"),
    ]


async def test_leaving_reopens_the_seat_and_is_an_event(http: httpx.AsyncClient) -> None:
    created = await open_table(http, creator={"name": "Ann"})
    game_id, ann = created["game_id"], created["seat_tokens"][0]["token"]
    bob = await sat(http, game_id, "Bob")
    left = await leave(http, game_id, 0, ann)
    assert left.status_code == 200, left.text
    assert left.json()["names"] == [None, "Bob", None] and left.json()["open_seats"] == [0, 2]
    types = [event["type"] for event in await events(http, game_id)]
    assert types[-2:] == ["game.seat-taken", "game.seat-left"]
    assert (await sat(http, game_id, "Ann"))["seat"] == 0  # the first open seat
    cy = await sat(http, game_id, "Cy")
    assert cy["status"] == "active" and cy["names"] == ["Ann", "Bob", "Cy"]
    # A full table is left by resigning, not by getting up.
    refused = await leave(http, game_id, bob["seat"], bob["token"])
    is_problem(refused, 422, "rule-violation", "kernel.table-not-waiting")


# -- every token's reach ---------------------------------------------------------------------


async def test_a_token_reaches_its_own_table_and_seat_only(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    one = await open_table(http, creator={"name": "Ann"})
    other = await open_table(http, creator={"name": "Zed"})
    game_id, ann = one["game_id"], one["seat_tokens"][0]["token"]
    other_id = other["game_id"]
    bob = await sat(http, game_id, "Bob")
    async with Unchanged(http, superuser_conn, other_id):
        # The creator's (or a sitter's) token at another game: 403 on every seat endpoint.
        for token in (ann, bob["token"]):
            is_problem(
                await http.get(f"/v1/games/{other_id}", headers=bearer(token)), 403, "forbidden"
            )
            is_problem(await leave(http, other_id, 0, token), 403, "forbidden")
            is_problem(
                await http.get(f"/v1/games/{other_id}/legal-commands", headers=bearer(token)),
                403,
                "forbidden",
            )
    async with Unchanged(http, superuser_conn, game_id):
        # A sitter cannot get another seat up, nor one that nobody holds.
        for seat in (0, 2, 3, -1, 99, 10**30, "x", "1.0"):
            refused_without_harm(await leave(http, game_id, seat, bob["token"]))
        # A token made over for another seat (the seat in it changed) is no token.
        forged = bob["token"].replace(f"{game_id}.1.", f"{game_id}.0.")
        assert forged != bob["token"]
        is_problem(
            await http.get(f"/v1/games/{game_id}", headers=bearer(forged)), 401, "unauthorized"
        )
        is_problem(await leave(http, game_id, 0, forged), 401, "unauthorized")
        # No token: nobody may leave.
        no_token = await http.delete(f"/v1/games/{game_id}/seats/1")
        is_problem(no_token, 401, "unauthorized")
    assert (await detail(http, game_id, bob["token"]))["seat"] == 1
    assert (await detail(http, game_id, ann))["seat"] == 0


async def test_the_token_of_a_player_who_left_is_refused_everywhere(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    game_id = (await open_table(http, creator={"name": "Ann"}))["game_id"]
    bob = await sat(http, game_id, "Bob")
    token, seat = bob["token"], bob["seat"]
    assert (await leave(http, game_id, seat, token)).status_code == 200

    async def every_use() -> None:
        auth = bearer(token)
        for response in (
            await http.get(f"/v1/games/{game_id}", headers=auth),
            await http.get(f"/v1/games/{game_id}/events", headers=auth),
            await http.get(f"/v1/games/{game_id}/states/1", headers=auth),
            await http.get(f"/v1/games/{game_id}/legal-commands", headers=auth),
            await http.post(
                f"/v1/games/{game_id}/commands",
                json={"command": {"type": "game.resign"}},
                headers=auth,
            ),
            await http.post(f"/v1/games/{game_id}/stream-tickets", headers=auth),
            await leave(http, game_id, seat, token),
        ):
            is_problem(response, 401, "unauthorized")

    async with Unchanged(http, superuser_conn, game_id):
        await every_use()
    cy = await sat(http, game_id, "Cy", seat=seat)  # someone else holds the seat now
    assert cy["token"] != token
    async with Unchanged(http, superuser_conn, game_id):
        await every_use()
    await sat(http, game_id, "Dee")  # the table fills: the game is dealt
    async with Unchanged(http, superuser_conn, game_id):
        await every_use()
    assert (await detail(http, game_id, cy["token"]))["seat"] == seat


async def test_a_sitter_acts_for_their_own_seat_only(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    created = await open_table(http, creator={"name": "Ann"})
    game_id = created["game_id"]
    tokens = {0: created["seat_tokens"][0]["token"]}
    for name in ("Bob", "Cy"):
        granted = await sat(http, game_id, name)
        tokens[granted["seat"]] = granted["token"]
    game = await detail(http, game_id)
    assert game["status"] == "active" and len(game["to_act"]) == 1
    to_act = game["to_act"][0]
    url = f"/v1/games/{game_id}/legal-commands"
    command = (await http.get(url, headers=bearer(tokens[to_act]))).json()["commands"][0]
    async with Unchanged(http, superuser_conn, game_id):
        for seat, token in tokens.items():
            if seat == to_act:
                continue
            mine = await http.get(url, headers=bearer(token))
            assert mine.status_code == 200 and mine.json()["total"] == 0, mine.text
            played = await http.post(
                f"/v1/games/{game_id}/commands",
                json={"command": command, "expected_version": game["version"]},
                headers=bearer(token),
            )
            is_problem(played, 422, "rule-violation")
    played = await http.post(
        f"/v1/games/{game_id}/commands", json={"command": command}, headers=bearer(tokens[to_act])
    )
    assert played.status_code == 200, played.text


async def test_the_invitation_code_is_no_token(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    created = await open_table(http, visibility="private", creator={"name": "Ann"})
    game_id, code = created["game_id"], created["invitation_code"]
    assert code and all(code != item["token"] for item in created["seat_tokens"])
    bob = await sat(http, game_id, "Bob", invitation_code=code)
    async with Unchanged(http, superuser_conn, game_id):
        for seat in (0, 1, 2):
            is_problem(await leave(http, game_id, seat, code), 401, "unauthorized")
        for path in ("", "/legal-commands"):
            response = await http.get(f"/v1/games/{game_id}{path}", headers=bearer(code))
            is_problem(response, 401, "unauthorized")
        response = await http.post(
            f"/v1/games/{game_id}/commands",
            json={"command": {"type": "game.resign"}},
            headers=bearer(code),
        )
        is_problem(response, 401, "unauthorized")
    # The creator learns only their own seat's token: nothing they are shown holds Bob's.
    shown = await detail(http, game_id, created["seat_tokens"][0]["token"])
    assert bob["token"] not in json.dumps(shown) + json.dumps(created)
    assert bob["token"] not in json.dumps(await events(http, game_id))


async def test_a_table_its_creator_seated_takes_no_one(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    response = await create(http, {"kind": "coyote", "seats": 3})
    assert response.status_code == 201, response.text
    game_id = response.json()["game_id"]
    async with Unchanged(http, superuser_conn, game_id):
        for refused in (await sit(http, game_id, "Bob"), await sit(http, game_id, "Bo", seat=1)):
            refused_without_harm(refused)
            assert refused.status_code in (409, 422), refused.text
        token = response.json()["seat_tokens"][1]["token"]
        refused_without_harm(await leave(http, game_id, 1, token))


async def test_an_open_creation_retried_with_its_key_answers_the_same_table(
    http: httpx.AsyncClient,
) -> None:
    key = f"create-{uuid.uuid4()}"
    body = {
        "kind": "coyote",
        "seats": 3,
        "open_table": {"visibility": "private", "creator": {"name": "Ann", "seat": 2}},
    }
    first = await http.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == 201, first.text
    created = first.json()
    assert [item["seat"] for item in created["seat_tokens"]] == [2] and created["invitation_code"]
    await sat(http, created["game_id"], "Bob", invitation_code=created["invitation_code"])
    again = await http.post("/v1/games", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 201, again.text
    assert {**again.json(), "replayed": False} == created
    for other in (
        {**body, "open_table": {"visibility": "public", "creator": {"name": "Ann", "seat": 2}}},
        {**body, "open_table": {"visibility": "private", "creator": {"name": "Ann"}}},
        {**body, "open_table": {"visibility": "private", "creator": {"name": "Bea", "seat": 2}}},
        {**body, "open_table": None},
    ):
        refused = await http.post("/v1/games", json=other, headers={"Idempotency-Key": key})
        is_problem(refused, 422, "idempotency-key-reused")


# -- private tables and their codes ----------------------------------------------------------


async def test_a_wrong_code_reads_exactly_as_no_game(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    created = await open_table(http, visibility="private", creator={"name": "Ann"})
    game_id, code = created["game_id"], created["invitation_code"]
    another = (await open_table(http, visibility="private"))["invitation_code"]
    flipped = code.swapcase() if code.swapcase() != code else code[:-1] + "A"
    async with Unchanged(http, superuser_conn, game_id):
        for fields in (
            {},
            {"invitation_code": None},
            {"invitation_code": "nope"},
            {"invitation_code": another},
            {"invitation_code": flipped},
            {"invitation_code": code[:-1]},
            {"invitation_code": code + "A"},
            {"invitation_code": "A" * 64},
            {"invitation_code": "A" * 65},
            {"invitation_code": ""},
            {"invitation_code": code + " "},
            {"invitation_code": "../" + code},
            {"invitation_code": code, "seat": 7},  # the seat is not looked at before the code
        ):
            if fields.get("seat") == 7:
                continue  # a right code: covered below
            wrong = await sit(http, game_id, "Bob", **fields)
            missing = await sit(http, NO_GAME, "Bob", **fields)
            assert wrong.status_code == missing.status_code, (fields, wrong.text, missing.text)
            assert wrong.status_code in (400, 404), (fields, wrong.text)
            assert without_ids(wrong.json()) == without_ids(missing.json()), fields
            assert wrong.headers["content-type"] == missing.headers["content-type"]
            if wrong.status_code == 404:
                assert wrong.json()["type"] == PROBLEM + "not-found"
                assert game_id not in json.dumps(without_ids(wrong.json()))
    granted = await sat(http, game_id, "Bob", invitation_code=code)
    assert granted["seat"] == 1 and granted["names"] == ["Ann", "Bob", None]


async def test_a_private_table_never_appears_in_a_listing(http: httpx.AsyncClient) -> None:
    created = await open_table(http, visibility="private", creator={"name": "Ann"})
    game_id, code = created["game_id"], created["invitation_code"]
    public = (await open_table(http, creator={"name": "Ann"}))["game_id"]

    async def every_listing() -> set[str]:
        seen: set[str] = set()
        for params in (
            {},
            {"status": "waiting"},
            {"status": "waiting", "kind": "coyote"},
            {"kind": "coyote"},
            {"status": "active"},
            {"status": "finished"},
            {"status": "cancelled"},
        ):
            seen |= await listed(http, **params)
        return seen

    seen = await every_listing()
    assert public in seen and game_id not in seen
    page = (await http.get("/v1/games", params={"status": "waiting", "limit": 100})).json()
    (summary,) = [game for game in page["games"] if game["game_id"] == public]
    assert summary["names"] == ["Ann", None, None] and summary["open_seats"] == [1, 2]
    assert summary["status"] == "waiting" and summary["seating"] == "open"
    tokens = {0: created["seat_tokens"][0]["token"]}
    for name in ("Bob", "Cy"):
        granted = await sat(http, game_id, name, invitation_code=code)
        tokens[granted["seat"]] = granted["token"]
    assert (await detail(http, game_id))["status"] == "active"
    assert game_id not in await every_listing()
    # Played out (every seat but one resigns, each with its own token): still never listed.
    for seat in (1, 2):
        resigned = await http.post(
            f"/v1/games/{game_id}/commands",
            json={"command": {"type": "game.resign"}},
            headers=bearer(tokens[seat]),
        )
        assert resigned.status_code == 200, resigned.text
    assert (await detail(http, game_id))["status"] == "finished"
    assert game_id not in await every_listing()


# -- retried sittings ------------------------------------------------------------------------


async def test_a_sitting_retried_with_its_key_gets_the_same_seat_and_token(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    game_id = (await open_table(http, creator={"name": "Ann"}))["game_id"]
    key = f"sit-{uuid.uuid4()}"
    first = await sit(http, game_id, "Bob", key=key, entropy="b")
    assert first.status_code == 201, first.text
    original = first.json()
    assert original["replayed"] is False
    async with Unchanged(http, superuser_conn, game_id):
        again = await sit(http, game_id, "Bob", key=key, entropy="b")
        assert again.status_code in (200, 201), again.text
        replayed = again.json()
        assert replayed["replayed"] is True
        assert (replayed["seat"], replayed["token"]) == (original["seat"], original["token"])
        assert {**replayed, "replayed": False} == original
    # Concurrent retries: still one sitting.
    retries = await asyncio.gather(
        *(sit(http, game_id, "Bob", key=key, entropy="b") for _ in range(6))
    )
    assert {response.json()["token"] for response in retries} == {original["token"]}
    assert (await detail(http, game_id))["names"] == ["Ann", "Bob", None]
    assert (await detail(http, game_id, original["token"]))["seat"] == original["seat"]
    # Another table, the same key: a sitting of its own.
    other = (await open_table(http))["game_id"]
    elsewhere = await sit(http, other, "Bob", key=key, entropy="b")
    assert elsewhere.status_code == 201 and elsewhere.json()["replayed"] is False
    assert elsewhere.json()["token"] != original["token"]


async def test_a_replayed_sitting_still_answers_its_first_answer_after_the_deal(
    http: httpx.AsyncClient,
) -> None:
    game_id = (await open_table(http, creator={"name": "Ann"}))["game_id"]
    key = f"sit-{uuid.uuid4()}"
    first = (await sit(http, game_id, "Bob", key=key)).json()
    await sat(http, game_id, "Cy")
    again = await sit(http, game_id, "Bob", key=key)
    assert again.status_code in (200, 201), again.text
    assert {**again.json(), "replayed": False} == first
    assert (await detail(http, game_id, first["token"]))["seat"] == first["seat"]


async def test_a_replayed_sitting_is_answered_with_a_documented_status(
    http: httpx.AsyncClient,
) -> None:
    spec = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text())
    documented = set(spec["paths"]["/v1/games/{game_id}/seats"]["post"]["responses"])
    game_id = (await open_table(http))["game_id"]
    key = f"sit-{uuid.uuid4()}"
    first = await sit(http, game_id, "Bob", key=key)
    again = await sit(http, game_id, "Bob", key=key)
    assert str(first.status_code) in documented
    assert str(again.status_code) in documented, (again.status_code, sorted(documented))
    assert again.status_code == first.status_code  # the same answer


@pytest.mark.parametrize(
    ("first", "retry"),
    [
        ({"name": "Bob"}, {"name": "Bobby"}),
        ({"name": "Bob"}, {"name": "bob"}),
        ({"name": "Bob", "entropy": "b"}, {"name": "Bob", "entropy": "c"}),
        ({"name": "Bob", "entropy": "b"}, {"name": "Bob"}),
    ],
    ids=["name", "name-case", "entropy", "entropy-dropped"],
)
async def test_the_same_key_with_another_sitting_is_refused(
    http: httpx.AsyncClient, superuser_conn: Conn, first: dict[str, Any], retry: dict[str, Any]
) -> None:
    game_id = (await open_table(http))["game_id"]
    key = f"sit-{uuid.uuid4()}"
    assert (await sit(http, game_id, key=key, **first)).status_code == 201
    async with Unchanged(http, superuser_conn, game_id):
        refused = await sit(http, game_id, key=key, **retry)
        is_problem(refused, 422, "idempotency-key-reused")


async def test_the_same_key_asking_for_another_seat_is_refused(
    http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    game_id = (await open_table(http, seats=4))["game_id"]
    key = f"sit-{uuid.uuid4()}"
    first = await sit(http, game_id, "Bob", key=key, seat=2)
    assert first.status_code == 201 and first.json()["seat"] == 2
    async with Unchanged(http, superuser_conn, game_id):
        refused = await sit(http, game_id, "Bob", key=key, seat=1)
        is_problem(refused, 422, "idempotency-key-reused")


@pytest.mark.parametrize(
    "key",
    [b"", b"a b", "é".encode(), b"\xe9", b"x" * 256],
    ids=["empty", "space", "utf8", "latin1", "256"],
)
async def test_a_bad_key_is_refused_and_changes_nothing(
    http: httpx.AsyncClient, superuser_conn: Conn, key: bytes
) -> None:
    game_id = (await open_table(http))["game_id"]
    async with Unchanged(http, superuser_conn, game_id):
        response = await http.post(
            f"/v1/games/{game_id}/seats",
            json={"name": "Bob"},
            headers={b"Idempotency-Key": key},
        )
        is_problem(response, 400, "malformed-request")


# -- tables with bots ------------------------------------------------------------------------


async def test_bots_hold_their_seats_from_the_start_and_play_once_the_table_fills(
    sweeping_server: Server, superuser_conn: Conn
) -> None:
    async with httpx.AsyncClient(base_url=sweeping_server.url, timeout=30) as http:
        await bots_at_an_open_table(http, superuser_conn)


async def bots_at_an_open_table(http: httpx.AsyncClient, superuser_conn: Conn) -> None:
    bots = [{"seat": 0, "strategy": "random"}, {"seat": 2, "strategy": "random"}]
    created = await open_table(http, seats=4, creator={"name": "Ann"}, bots=bots)
    game_id = created["game_id"]
    # The creator is seated at the first seat no bot plays, and holds that seat's token alone.
    assert [item["seat"] for item in created["seat_tokens"]] == [1]
    names = created["names"]
    assert names[1] == "Ann" and names[3] is None and names[0] and names[2]
    game = await detail(http, game_id)
    assert game["open_seats"] == [3] and game["to_act"] == [] and game["status"] == "waiting"
    async with Unchanged(http, superuser_conn, game_id):
        for seat in (0, 1, 2):
            is_problem(await sit(http, game_id, "Bob", seat=seat), 409, "seat-taken")
        for bot_name in (names[0], names[2].upper()):
            refused = await sit(http, game_id, bot_name)
            is_problem(refused, 422, "rule-violation", "kernel.name-taken")
        await asyncio.sleep(0.5)  # bots wait for the table like everyone else
    bob = await sat(http, game_id, "Bob")
    assert bob["seat"] == 3 and bob["status"] == "active"
    tokens = {1: created["seat_tokens"][0]["token"], 3: bob["token"]}
    final = await play_with_bots(http, game_id, tokens)
    assert final["status"] == "finished" and final["outcome"]["finished"] is True
    seats_moved = {event.get("seat") for event in await events(http, game_id) if "seat" in event}
    assert {0, 2} <= seats_moved  # the bots did play


async def play_with_bots(
    http: httpx.AsyncClient, game_id: str, tokens: dict[int, str]
) -> dict[str, Any]:
    """Each player plays their own seat when it is to act (a legal command of its own list);
    the server's bots play theirs. Returns the finished game."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_PATIENCE
    while loop.time() < deadline:
        game = await detail(http, game_id)
        if game["status"] == "finished":
            return game
        mine = [seat for seat in game["to_act"] if seat in tokens]
        if not mine:
            await asyncio.sleep(0.05)  # a bot is to move
            continue
        seat = mine[0]
        url = f"/v1/games/{game_id}/legal-commands"
        legal = await http.get(url, params={"limit": 1}, headers=bearer(tokens[seat]))
        assert legal.status_code == 200, legal.text
        if not legal.json()["commands"]:
            continue  # a bot moved meanwhile
        played = await http.post(
            f"/v1/games/{game_id}/commands",
            json={"command": legal.json()["commands"][0], "expected_version": game["version"]},
            headers=bearer(tokens[seat]),
        )
        assert played.status_code in (200, 409), played.text  # 409: a bot moved first
    pytest.fail(f"the game with bots did not end within {GAME_PATIENCE} s")


async def test_an_open_table_of_bots_only_is_refused_or_dealt_at_once(
    http: httpx.AsyncClient,
) -> None:
    bots = [{"seat": seat, "strategy": "random"} for seat in range(3)]
    body = {"kind": "coyote", "seats": 3, "bots": bots, "open_table": {}}
    response = await create(http, body)
    assert response.status_code in (201, 422), response.text
    if response.status_code == 201:
        assert response.json()["seat_tokens"] == []
        assert response.json()["status"] == "active", response.text


async def test_a_creator_cannot_sit_on_a_bots_seat(http: httpx.AsyncClient) -> None:
    before = await listed(http)
    body = {
        "kind": "coyote",
        "seats": 3,
        "bots": [{"seat": 1}],
        "open_table": {"creator": {"name": "Ann", "seat": 1}},
    }
    response = await create(http, body)
    refused_without_harm(response)
    assert await listed(http) <= before


# -- guessing codes is limited ---------------------------------------------------------------


async def test_wrong_codes_are_limited_per_client(stingy_http: httpx.AsyncClient) -> None:
    created = await open_table(stingy_http, visibility="private", creator={"name": "Ann"})
    game_id = created["game_id"]
    for guess in ("aaaa", "bbbb"):
        is_problem(await sit(stingy_http, game_id, "Bob", invitation_code=guess), 404, "not-found")
    is_problem(await sit(stingy_http, NO_GAME, "Bob"), 404, "not-found")  # a miss is a guess
    for attempt in (
        await sit(stingy_http, game_id, "Bob", invitation_code="cccc"),
        await sit(stingy_http, NO_GAME, "Bob"),
        await sit(stingy_http, str(uuid.uuid4()), "Bob", invitation_code="dddd"),
    ):
        is_problem(attempt, 429, "rate-limited")
        assert 1 <= int(attempt.headers["Retry-After"]) <= 60, attempt.headers
    assert (await detail(stingy_http, game_id))["names"] == ["Ann", None, None]
    # Sitting at a public table guesses nothing: it is not limited.
    public = (await open_table(stingy_http))["game_id"]
    assert (await sat(stingy_http, public, "Bob"))["seat"] == 0


async def test_past_the_limit_no_guess_is_checked(
    stingy_http: httpx.AsyncClient, superuser_conn: Conn
) -> None:
    created = await open_table(stingy_http, visibility="private", creator={"name": "Ann"})
    game_id, code = created["game_id"], created["invitation_code"]
    for _ in range(4):  # whatever is left of the bucket, and one more
        await sit(stingy_http, game_id, "Bob", invitation_code="wrong")
    is_problem(await sit(stingy_http, game_id, "Bob", invitation_code="wrong"), 429, "rate-limited")
    async with Unchanged(stingy_http, superuser_conn, game_id):
        right = await sit(stingy_http, game_id, "Bob", invitation_code=code)
        is_problem(right, 429, "rate-limited")  # a right guess must not be told from a wrong one

"""Open tables through two `referee serve` processes on one database, as a client developer who
read the issue and the OpenAPI document would try them:

- many players fill open tables of every kind, at every seat count, at once, each through
  whichever process; every table ends up with exactly its players' names, each holding the one
  token of their own seat;
- players race for the last seat of a table through both processes: exactly one sits, the
  others are refused, and nobody but the winner holds that seat;
- tables left unfilled expire: the sweeper of one process or the other cancels each exactly
  once, and the seed is revealed and matches the commitment;
- once full, every game is played to its end, each player with their own token only, choosing
  among the legal commands their own seat is given.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.reliability.conftest import Serve

PROBLEM = "urn:referee:problem:"
MOVES_BEFORE_RESIGNING = 80  # then every seat but one resigns: Tribù takes a thousand or more
RACERS = 8  # players racing for one last seat
EXPIRY_SECONDS = 2.0  # REFEREE_OPEN_TABLE_SECONDS of the sweeping servers
EXPIRY_PATIENCE = 30.0  # seconds for the sweepers to cancel; never a measured time
COMMON = {
    "expensive_reads_per_minute": 0,
    "invitation_guesses_per_minute": 6000,
    "invitation_guesses_burst": 5000,
}

Clients = tuple[httpx.AsyncClient, httpx.AsyncClient]


@pytest.fixture(scope="module")
def urls(serve: Serve) -> tuple[str, str]:
    """Two processes on the test run's database, without sweepers."""
    return serve(**COMMON).url, serve(**COMMON).url


@pytest.fixture(scope="module")
def sweeping_urls(serve: Serve) -> tuple[str, str]:
    """Two processes whose open tables expire after EXPIRY_SECONDS, each sweeping often."""
    settings = {**COMMON, "open_table_seconds": EXPIRY_SECONDS, "sweep_interval_seconds": 0.25}
    return serve(**settings).url, serve(**settings).url


async def clients_of(urls: tuple[str, str]) -> AsyncIterator[Clients]:
    limits = httpx.Limits(max_connections=64)
    async with (
        httpx.AsyncClient(base_url=urls[0], timeout=60, limits=limits) as one,
        httpx.AsyncClient(base_url=urls[1], timeout=60, limits=limits) as other,
    ):
        yield one, other


@pytest.fixture
async def clients(urls: tuple[str, str]) -> AsyncIterator[Clients]:
    async for pair in clients_of(urls):
        yield pair


@pytest.fixture
async def sweeping_clients(sweeping_urls: tuple[str, str]) -> AsyncIterator[Clients]:
    async for pair in clients_of(sweeping_urls):
        yield pair


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """An open table as its players know it: what its creator was answered, and each seat's
    token as its own player was given it."""

    created: dict[str, Any]
    tokens: dict[int, str] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return str(self.created["game_id"])

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"

    @property
    def code(self) -> str | None:
        code: str | None = self.created["invitation_code"]
        return code


async def open_table(
    http: httpx.AsyncClient,
    kind: str,
    seats: int,
    *,
    visibility: str = "public",
    creator: str | None = None,
    bots: list[dict[str, Any]] | None = None,
) -> Table:
    table: dict[str, Any] = {"visibility": visibility}
    if creator is not None:
        table["creator"] = {"name": creator, "entropy": f"{creator}'s dice"}
    body = {"kind": kind, "seats": seats, "open_table": table, "bots": bots or []}
    response = await http.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["status"] == "waiting" and created["to_act"] == [], created
    assert (created["invitation_code"] is not None) == (visibility == "private"), created
    opened = Table(created)
    for item in created["seat_tokens"]:
        assert creator is not None
        opened.tokens[item["seat"]], opened.names[item["seat"]] = item["token"], creator
    return opened


async def sit(http: httpx.AsyncClient, table: Table, name: str, **fields: Any) -> httpx.Response:
    body = {"name": name, "entropy": f"{name}'s dice", **fields}
    if table.code is not None:
        body["invitation_code"] = table.code
    return await http.post(f"{table.url}/seats", json=body)


async def catalogue(http: httpx.AsyncClient) -> list[tuple[str, int]]:
    response = await http.get("/v1/kinds")
    assert response.status_code == 200, response.text
    return [
        (kind["kind"], seats) for kind in response.json()["kinds"] for seats in kind["seat_counts"]
    ]


async def detail(http: httpx.AsyncClient, table: Table, seat: int | None = None) -> dict[str, Any]:
    headers = {} if seat is None else bearer(table.tokens[seat])
    response = await http.get(table.url, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def all_events(http: httpx.AsyncClient, table: Table) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        page = await http.get(f"{table.url}/events", params={"after": len(found), "limit": 1000})
        assert page.status_code == 200, page.text
        records = page.json()["events"]
        found += [record["event"] for record in records]
        if not records:
            return found


def check_problem(response: httpx.Response, status: int, slug: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == PROBLEM + slug, response.text


async def check_reveal(http: httpx.AsyncClient, table: Table, last_before: str) -> None:
    """The game is over: its last events are `last_before` (or any, if empty), then the seed,
    which is the one the creation committed to; the audit of either process passes."""
    events = await all_events(http, table)
    assert events[-1]["type"] == "game.seed-revealed", events[-3:]
    assert [e["type"] for e in events].count("game.seed-revealed") == 1
    if last_before:
        assert events[-2]["type"] == last_before, events[-3:]
    seed = bytes.fromhex(events[-1]["seed"])
    assert hashlib.sha256(seed).hexdigest() == table.created["commitment"]
    audit = await http.get(f"{table.url}/audit")
    assert audit.status_code == 200, audit.text
    assert audit.json()["verdict"] == "passed", audit.text


# -- filling tables of every kind at once ---------------------------------------------------


async def fill_every_kind(clients: Clients, rng: random.Random) -> list[Table]:
    """Open a table of every kind at every seat count (half of them private, some with their
    creator seated), then let all their players sit at once through either process."""
    tables = []
    for number, (kind, seats) in enumerate(await catalogue(clients[0])):
        tables.append(
            await open_table(
                clients[number % 2],
                kind,
                seats,
                visibility="private" if number % 2 else "public",
                creator=f"Host {number}" if number % 3 else None,
            )
        )
    names = (f"Player {n}" for n in itertools.count())
    sittings: list[tuple[Table, str, httpx.AsyncClient]] = []
    for table in tables:
        for _ in range(table.created["seats"] - len(table.tokens)):
            sittings.append((table, next(names), rng.choice(clients)))
    rng.shuffle(sittings)
    answers = await asyncio.gather(*(sit(http, table, name) for table, name, http in sittings))
    for (table, name, _), answer in zip(sittings, answers, strict=True):
        assert answer.status_code == 201, answer.text
        granted = answer.json()
        assert granted["name"] == name and granted["replayed"] is False
        assert granted["seat"] not in table.tokens, "two players were given one seat"
        table.tokens[granted["seat"]], table.names[granted["seat"]] = granted["token"], name
    return tables


async def test_many_players_fill_tables_of_every_kind_at_once_through_two_processes(
    clients: Clients,
) -> None:
    rng = random.Random(20240611)
    tables = await fill_every_kind(clients, rng)
    assert len(tables) >= 10
    every_token = [token for table in tables for token in table.tokens.values()]
    assert len(set(every_token)) == len(every_token)
    for table in tables:
        seats = table.created["seats"]
        assert sorted(table.tokens) == list(range(seats))
        for http in clients:
            game = await detail(http, table)
            assert game["status"] == "active" and game["open_seats"] == [], game
            assert game["names"] == [table.names[seat] for seat in range(seats)]
            assert game["to_act"], "a dealt game has someone to act"
            for seat in table.tokens:
                assert (await detail(http, table, seat))["seat"] == seat
        taken = [e for e in await all_events(clients[0], table) if e["type"] == "game.seat-taken"]
        assert sorted((e["seat"], e["name"]) for e in taken) == sorted(table.names.items())
    # A token opens its own table only, on either process.
    for one, other in itertools.pairwise(tables):
        token = one.tokens[0]
        for http in clients:
            check_problem(await http.get(other.url, headers=bearer(token)), 403, "forbidden")


async def test_a_seat_left_through_one_process_is_left_on_the_other(clients: Clients) -> None:
    """Both processes have let the token in; the player leaves through one: neither lets it in
    again, not after someone else took the seat, nor once the game is dealt."""
    table = await open_table(clients[0], "coyote", 3, creator="Ann")
    bob = (await sit(clients[0], table, "Bob")).json()
    token, seat = bob["token"], bob["seat"]
    for http in clients:
        assert (await http.get(table.url, headers=bearer(token))).json()["seat"] == seat
    left = await clients[1].delete(f"{table.url}/seats/{seat}", headers=bearer(token))
    assert left.status_code == 200, left.text

    async def refused_everywhere() -> None:
        for http in clients:
            check_problem(await http.get(table.url, headers=bearer(token)), 401, "unauthorized")
            resign = await http.post(
                f"{table.url}/commands",
                json={"command": {"type": "game.resign"}},
                headers=bearer(token),
            )
            check_problem(resign, 401, "unauthorized")

    await refused_everywhere()
    cy = await sit(clients[1], table, "Cy", seat=seat)
    assert cy.status_code == 201, cy.text
    await refused_everywhere()
    assert (await sit(clients[0], table, "Dee")).json()["status"] == "active"
    await refused_everywhere()
    for http in clients:
        assert (await http.get(table.url, headers=bearer(cy.json()["token"]))).json()[
            "seat"
        ] == seat


# -- games played to the end, each player with their own token ------------------------------


async def play_to_the_end(clients: Clients, table: Table, rng: random.Random) -> int:
    """Each seat to act plays the last of its own legal commands with its own token, through
    either process; after MOVES_BEFORE_RESIGNING moves every seat but one resigns (each with its
    own token). Returns the moves made."""
    game = await detail(clients[0], table)
    moves = 0
    while game["status"] != "finished":
        if moves >= MOVES_BEFORE_RESIGNING:
            return moves + await resign_all_but_one(clients, table, rng)
        http = clients[moves % 2]
        seat = rng.choice(game["to_act"])
        token = table.tokens[seat]
        url = f"{table.url}/legal-commands"
        first = await http.get(url, params={"limit": 1}, headers=bearer(token))
        assert first.status_code == 200, first.text
        total = first.json()["total"]
        assert total > 0, f"seat {seat} is to act but has no legal command"
        offset = total - 1  # the last legal command: it ends most games within a few dozen
        page = await http.get(url, params={"offset": offset, "limit": 1}, headers=bearer(token))
        (command,) = page.json()["commands"]
        body = {"command": command, "expected_version": game["version"]}
        if moves == 0:  # another seat's token cannot send this seat's move
            idle = [other for other in table.tokens if other not in game["to_act"]]
            if idle:
                wrong = await http.post(
                    f"{table.url}/commands", json=body, headers=bearer(table.tokens[idle[0]])
                )
                check_problem(wrong, 422, "rule-violation")
        played = await http.post(f"{table.url}/commands", json=body, headers=bearer(token))
        assert played.status_code == 200, (command, played.text)
        game = played.json()
        moves += 1
    return moves


async def resign_all_but_one(clients: Clients, table: Table, rng: random.Random) -> int:
    seats = sorted(table.tokens)
    rng.shuffle(seats)
    for number, seat in enumerate(seats[:-1]):
        resigned = await clients[number % 2].post(
            f"{table.url}/commands",
            json={"command": {"type": "game.resign"}},
            headers=bearer(table.tokens[seat]),
        )
        assert resigned.status_code == 200, resigned.text
        if resigned.json()["status"] == "finished":
            return number + 1
    pytest.fail("every seat but one resigned and the game goes on")


async def test_every_filled_table_is_played_to_its_end_with_each_players_own_token(
    clients: Clients,
) -> None:
    rng = random.Random(7)
    tables = await fill_every_kind(clients, rng)
    moves = await asyncio.gather(
        *(play_to_the_end(clients, table, random.Random(n)) for n, table in enumerate(tables))
    )
    assert all(count > 0 for count in moves)
    for number, table in enumerate(tables):
        http = clients[number % 2]
        final = await detail(http, table)
        assert final["status"] == "finished" and final["outcome"]["finished"] is True
        assert final["names"] == [table.names[seat] for seat in range(len(table.names))]
        await check_reveal(http, table, last_before="")
        if table.created["kind"] == "coyote":  # short enough to end by its own rules
            types = [event["type"] for event in await all_events(http, table)]
            assert "game.resigned" not in types and moves[number] < MOVES_BEFORE_RESIGNING


# -- races for the last seat ----------------------------------------------------------------


async def tables_one_seat_from_full(clients: Clients, count: int) -> list[Table]:
    kinds = await catalogue(clients[0])
    tables = []
    for number in range(count):
        kind, seats = kinds[number % len(kinds)]
        table = await open_table(
            clients[number % 2],
            kind,
            seats,
            visibility="private" if number % 2 else "public",
            creator="Host",
        )
        for n in range(seats - 2):
            answer = await sit(clients[n % 2], table, f"Early {n}")
            assert answer.status_code == 201, answer.text
            granted = answer.json()
            table.tokens[granted["seat"]], table.names[granted["seat"]] = (
                granted["token"],
                granted["name"],
            )
        tables.append(table)
    return tables


async def race(clients: Clients, tables: list[Table], **fields: Any) -> list[list[httpx.Response]]:
    """RACERS players at once for every table, through both processes."""
    racers = [(table, f"Racer {n}", clients[n % 2]) for table in tables for n in range(RACERS)]
    answers = await asyncio.gather(
        *(sit(http, table, name, **fields) for table, name, http in racers)
    )
    return [answers[i * RACERS : (i + 1) * RACERS] for i in range(len(tables))]


async def test_a_race_for_the_last_seat_has_exactly_one_winner(clients: Clients) -> None:
    tables = await tables_one_seat_from_full(clients, 6)
    for table, answers in zip(tables, await race(clients, tables), strict=True):
        won = [answer for answer in answers if answer.status_code == 201]
        assert len(won) == 1, [answer.text for answer in answers]
        for answer in answers:  # every loser is told clearly that the seat is gone
            if answer.status_code != 201:
                check_problem(answer, 409, "seat-taken")
        winner = won[0].json()
        seat = winner["seat"]
        assert seat not in table.tokens and winner["status"] == "active"
        table.tokens[seat], table.names[seat] = winner["token"], winner["name"]
        for http in clients:
            game = await detail(http, table)
            assert game["status"] == "active"
            assert game["names"] == [table.names[n] for n in range(table.created["seats"])]
            for holder, token in table.tokens.items():  # each token works for its seat only
                assert (await http.get(table.url, headers=bearer(token))).json()["seat"] == holder
        taken = [e for e in await all_events(clients[1], table) if e["type"] == "game.seat-taken"]
        assert len(taken) == table.created["seats"]
        assert [e["seat"] for e in taken].count(seat) == 1
    # The winner's token reaches no other table.
    for one, other in itertools.pairwise(tables):
        forbidden = await clients[1].get(other.url, headers=bearer(max(one.tokens.items())[1]))
        check_problem(forbidden, 403, "forbidden")


async def test_racers_for_one_named_seat_of_a_waiting_table_lose_with_409(
    clients: Clients,
) -> None:
    table = await open_table(clients[0], "coyote", 5, creator="Host")
    answers = (await race(clients, [table], seat=3))[0]
    won = [answer for answer in answers if answer.status_code == 201]
    assert len(won) == 1 and won[0].json()["seat"] == 3, [a.text for a in answers]
    for answer in answers:
        if answer.status_code != 201:
            check_problem(answer, 409, "seat-taken")
    game = await detail(clients[1], table)
    assert game["status"] == "waiting" and game["open_seats"] == [1, 2, 4]
    assert game["names"] == ["Host", None, None, won[0].json()["name"], None]


async def test_a_retried_sitting_races_itself_across_processes_and_sits_once(
    clients: Clients,
) -> None:
    table = await open_table(clients[0], "coyote", 3, visibility="private")
    key = f"sit-{uuid.uuid4()}"
    body = {"name": "Ann", "invitation_code": table.code}
    answers = await asyncio.gather(
        *(
            clients[n % 2].post(f"{table.url}/seats", json=body, headers={"Idempotency-Key": key})
            for n in range(RACERS)
        )
    )
    assert all(answer.status_code in (200, 201) for answer in answers), [a.text for a in answers]
    assert len({answer.json()["token"] for answer in answers}) == 1
    assert sorted(answer.json()["replayed"] for answer in answers) == [False] + [True] * (
        RACERS - 1
    )
    game = await detail(clients[1], table)
    assert game["names"] == ["Ann", None, None] and game["open_seats"] == [1, 2]


# -- tables left to expire ------------------------------------------------------------------


async def test_unfilled_tables_are_cancelled_once_by_either_sweeper_and_reveal_their_seed(
    sweeping_clients: Clients,
) -> None:
    one, other = sweeping_clients
    public = await open_table(one, "coyote", 3)
    private = await open_table(other, "tribu", 2, visibility="private", creator="Ann")
    deserted = await open_table(one, "wind-river", 4, creator="Ann")
    bob = (await sit(other, deserted, "Bob")).json()
    assert (
        await other.delete(f"{deserted.url}/seats/{bob['seat']}", headers=bearer(bob["token"]))
    ).status_code == 200
    with_bots = await open_table(
        other, "big-manitou", 3, creator="Ann", bots=[{"seat": 2, "strategy": "random"}]
    )
    filled = await open_table(one, "coyote", 3, creator="Ann")
    for n, name in enumerate(("Bob", "Cy")):
        assert (await sit(sweeping_clients[n], filled, name)).status_code == 201
    waiting = [public, private, deserted, with_bots]
    for table in waiting:
        game = await detail(one, table)
        assert game["status"] == "waiting" and game["expires_at"], game

    deadline = asyncio.get_running_loop().time() + EXPIRY_PATIENCE
    while True:
        statuses = [(await detail(other, table))["status"] for table in waiting]
        if set(statuses) == {"cancelled"}:
            break
        assert asyncio.get_running_loop().time() < deadline, statuses
        await asyncio.sleep(0.25)
    await asyncio.sleep(1.0)  # both sweepers have swept again since: nothing more is appended

    expected_open = {public.id: [0, 1, 2], private.id: [1], deserted.id: [1, 2, 3]}
    expected_open[with_bots.id] = [1]
    for table in waiting:
        events = await all_events(one, table)
        types = [event["type"] for event in events]
        assert types.count("game.table-cancelled") == 1, types
        cancelled = events[types.index("game.table-cancelled")]
        assert cancelled["open_seats"] == expected_open[table.id], cancelled
        await check_reveal(other, table, last_before="game.table-cancelled")
        game = await detail(other, table)
        assert game["status"] == "cancelled" and game["to_act"] == []
        for seat in table.tokens:  # the creator still reads the table, with their own token
            assert (await detail(one, table, seat))["seat"] == seat
        version = game["version"]
        late = await sit(one, table, "Late")
        assert 400 <= late.status_code < 500, late.text
        assert late.json()["type"].startswith(PROBLEM)
        for seat, token in table.tokens.items():
            gone = await other.delete(f"{table.url}/seats/{seat}", headers=bearer(token))
            assert 400 <= gone.status_code < 500, gone.text
        assert (await detail(one, table))["version"] == version
    assert public.id in {
        game["game_id"]
        for game in (
            await one.get("/v1/games", params={"status": "cancelled", "limit": 100})
        ).json()["games"]
    }
    still_waiting = (
        await other.get("/v1/games", params={"status": "waiting", "limit": 100})
    ).json()
    assert not {table.id for table in waiting} & {
        game["game_id"] for game in still_waiting["games"]
    }
    # The table filled in time is not cancelled: it is being played.
    game = await detail(other, filled)
    assert game["status"] == "active" and len(game["to_act"]) == 1
    types = [event["type"] for event in await all_events(one, filled)]
    assert "game.table-cancelled" not in types and "game.seed-revealed" not in types

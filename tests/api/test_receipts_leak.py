"""The hidden-card differential over receipts: a receipt of a running game tells nothing hidden.

Everything a receipt states besides its pins (`head`, `command`) is what a spectator sees: the
version, when its last event was recorded, the command's id, seat and events, the status, the
creation's settings and commitment. The pins are HMACs under a key derived from the seed: two
Coyote games with the same public moves but other seeds (other deals) get receipts that agree on
every other field and differ in their pins; no receipt holds an event hash (whose preimage, an
event holding a hidden card, could be found by trying every card) nor anything computed from
public data alone; and trying every card for a hidden one gives candidate hashes that only the
pin key, which no receipt carries, can hold against a pin.

Each assertion is paired with a control that shows it could fail: the pins do open with the key
derived from the seed, and trying the cards does find the real one once the key is known.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar
from psycopg import AsyncConnection
from psycopg.rows import TupleRow

from api.app import create_app
from api.config import Settings
from api.receipts import command_pin, decode, head_pin, pin_key
from eventstore.chain import event_hash
from eventstore.store import EventStore
from referee.games.coyote.data import DECK
from referee.games.coyote.events import CardDealt
from referee.kernel import Codec
from tests.api.conftest import running_app
from tests.api.helpers import Client, Game, create_game, detail, play

Conn = AsyncConnection[TupleRow]
PINS = ("head", "command")
FIELDS = {  # every field a receipt of each kind carries: nothing else may appear
    "creation": {"kind", "rules_version", "seats", "options", "seating", "commitment"},
    "command": {"command_id", "seat", "first_seq", "command"},
    "head": {"status"},
}
COMMON = {"receipt", "game_id", "version", "head", "recorded_at"}


class Clock:
    """The app's clock, set by the test: two games played at the same moments record the same
    times, so that their public histories can be the same to the microsecond. It starts at the
    real time and moves a millisecond a step (it stays behind the real clock): the games of
    this run stay neither the newest of the list nor idle for the sweepers of other tests."""

    def __init__(self) -> None:
        self.at = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.at

    def tick(self) -> None:
        self.at += timedelta(milliseconds=1)


@dataclass
class Served:
    app: Litestar
    http: Client
    clock: Clock


@pytest.fixture(scope="module")
async def served(settings: Settings) -> AsyncIterator[Served]:
    clock = Clock()
    async for app in running_app(create_app(settings, clock=clock)):
        transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]  # an ASGI app
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield Served(app, http, clock)


# -- a table whose seats keep their receipts ----------------------------------------------------


@dataclass
class Table:
    """A Coyote game for three and what each seat was given: its receipts (the creation for the
    creator, at seat 0; its accepted commands), and a head receipt for each version it saw."""

    game: Game
    receipts: dict[int, list[dict[str, Any]]] = field(
        default_factory=lambda: {seat: [] for seat in range(3)}
    )
    head_status: dict[int, str] = field(default_factory=dict)  # the status a spectator saw

    async def saw(self, http: Client) -> None:
        """Every seat asks for a head receipt of the version it now sees."""
        public = await detail(http, self.game)
        self.head_status[public["version"]] = public["status"]
        for seat in range(3):
            response = await http.get(f"{self.game.url}/receipt", headers=self.game.auth(seat))
            assert response.status_code == 200, response.text
            self.receipts[seat].append(response.json())

    async def send(self, http: Client, command: dict[str, Any]) -> None:
        seat = (await detail(http, self.game))["to_act"][0]
        response = await play(http, self.game, seat, command)
        assert response.status_code == 200, response.text
        self.receipts[seat].append(response.json()["receipt"])
        await self.saw(http)

    def statements(self, seat: int) -> list[dict[str, Any]]:
        return [payload(receipt) for receipt in self.receipts[seat]]

    def every_payload(self) -> Iterator[bytes]:
        for receipts in self.receipts.values():
            for receipt in receipts:
                yield base64.b64decode(receipt["payload"])


def payload(receipt: dict[str, Any]) -> dict[str, Any]:
    """A receipt's statement as JSON, checked to decode as a receipt."""
    data = base64.b64decode(receipt["payload"])
    decode(data)
    statement: dict[str, Any] = msgspec.json.decode(data)
    return statement


async def new_table(served: Served, seed: str | None = None) -> Table:
    fields = {} if seed is None else {"seed": seed}
    table = Table(await create_game(served.http, kind="coyote", seats=3, **fields))
    table.receipts[0].append(table.game.created["receipt"])
    await table.saw(served.http)
    return table


BIDS = [{"type": "coyote.bid", "number": number} for number in (2, 3, 5, 7)]


async def played(served: Served, table: Table, commands: list[dict[str, Any]]) -> None:
    for command in commands:
        served.clock.tick()
        await table.send(served.http, command)


# -- what a spectator sees ----------------------------------------------------------------------


@dataclass
class Public:
    detail: dict[str, Any]
    events: list[dict[str, Any]]  # as a spectator reads them

    def recorded_at(self, seq: int) -> datetime:
        return datetime.fromisoformat(self.events[seq - 1]["recorded_at"])

    def commands(self) -> list[tuple[int, int | None, int, int]]:
        """(id, seat, first seq, last seq) of each command, counted from the public events: the
        events after the opening, those of one command sharing its seat and time."""
        opening = next(
            index for index, record in enumerate(self.events) if record["seat"] is not None
        )
        found: list[tuple[int, int | None, int, int]] = []
        for record in self.events[opening:]:
            cause = (record["seat"], record["recorded_at"])
            if found and cause == (found[-1][1], self.events[found[-1][3] - 1]["recorded_at"]):
                number, seat, first, _ = found[-1]
                found[-1] = (number, seat, first, record["seq"])
            else:
                found.append((len(found) + 1, record["seat"], record["seq"], record["seq"]))
        return found


async def public(http: Client, game: Game) -> Public:
    response = await http.get(f"{game.url}/events", params={"limit": 1000})
    assert response.status_code == 200, response.text
    return Public(await detail(http, game), response.json()["events"])


# -- the tests ----------------------------------------------------------------------------------


async def test_a_receipt_states_only_what_a_spectator_sees(served: Served) -> None:
    """Every field of every receipt a seat is given, pins aside, is read off the spectator's
    view of the game: its settings, its events (seq, time, seat) and its status."""
    table = await new_table(served)
    await played(served, table, [*BIDS, {"type": "coyote.challenge"}, BIDS[0]])
    seen = await public(served.http, table.game)
    assert seen.detail["status"] == "active"
    commands = seen.commands()
    assert len(commands) == len(BIDS) + 2
    created = seen.events[0]["event"]
    checked = 0
    for seat in range(3):
        for statement in table.statements(seat):
            kind = statement["receipt"]
            assert set(statement) == COMMON | FIELDS[kind], statement
            assert statement["game_id"] == table.game.id
            version = statement["version"]
            assert 1 <= version <= seen.detail["version"]
            assert datetime.fromisoformat(statement["recorded_at"]) == seen.recorded_at(version)
            if kind == "creation":
                assert version == commands[0][2] - 1  # the opening, as the spectator sees it
                stated = {name: statement[name] for name in FIELDS[kind] - {"options"}}
                assert stated == {name: seen.detail[name] for name in stated}
                assert statement["options"] == created["options"]
                assert statement["commitment"] == created["commitment"]
            elif kind == "command":
                command = (
                    statement["command_id"],
                    statement["seat"],
                    statement["first_seq"],
                    version,
                )
                assert command in commands and statement["seat"] == seat, (command, commands)
            else:
                assert statement["status"] == table.head_status[version] == "active"
            checked += 1
    assert checked == sum(len(receipts) for receipts in table.receipts.values()) > 20


async def test_two_deals_with_the_same_public_moves_are_receipted_alike_but_pinned_apart(
    served: Served, event_store: EventStore
) -> None:
    """Two games with other seeds (other deals, other hidden histories), created and played at
    the same moments with the same bids: the same public histories, hence the same receipts to
    each seat but for the pins (and the game's id and commitment, public and different by
    design); and the pins all differ."""
    first, second = await same_starter(served)
    for command in BIDS:
        served.clock.tick()
        for table in (first, second):
            await table.send(served.http, command)
    seen = [await public(served.http, table.game) for table in (first, second)]
    assert strip_game(seen[0]) == strip_game(seen[1])  # one public history
    hidden = [await event_store.read(table.game.id) for table in (first, second)]
    assert [event.seq for event in hidden[0]] == [event.seq for event in hidden[1]]
    assert hidden[0][1].body != hidden[1][1].body  # the deck's order: other deals
    assert all(a.hash != b.hash for a, b in zip(hidden[0], hidden[1], strict=True))
    compared = 0
    for seat in range(3):
        ours, theirs = first.statements(seat), second.statements(seat)
        assert len(ours) == len(theirs) > 1
        for one, other in zip(ours, theirs, strict=True):
            assert strip(one) == strip(other), (seat, one, other)
            for pin in PINS:
                assert (pin in one) == (pin in other)
                if pin in one:
                    assert one[pin] != other[pin], (seat, pin)
            compared += 1
    assert compared == sum(len(receipts) for receipts in first.receipts.values())


def strip(statement: dict[str, Any]) -> dict[str, Any]:
    """What must agree between the two games: all but the pins, the id and the commitment."""
    return {
        name: value
        for name, value in statement.items()
        if name not in {*PINS, "game_id", "commitment"}
    }


def strip_game(seen: Public) -> tuple[Any, ...]:
    """A spectator's view of a game, but for its id and commitment (which differ by design)."""
    events = [dict(record) for record in seen.events]
    events[0] = {**events[0], "event": {**events[0]["event"], "commitment": None}}
    view = {
        name: value
        for name, value in seen.detail.items()
        if name not in {"game_id", "commitment", "created_at", "updated_at"}
    }
    return (view, events)


async def same_starter(served: Served) -> tuple[Table, Table]:
    """Two games created at the same moment with other seeds, whose first player is the same
    seat (the draw depends on the seed and the game's id, so a pair may take a few tries)."""
    for attempt in range(60):
        tables = [
            await new_table(served, hashlib.sha256(f"leak {attempt} {side}".encode()).hexdigest())
            for side in ("a", "b")
        ]
        if tables[0].game.created["to_act"] == tables[1].game.created["to_act"]:
            return tables[0], tables[1]
    pytest.fail("no two games with the same first player in 60 pairs")


async def test_no_receipt_holds_an_event_hash_or_a_pin_computed_from_public_data(
    served: Served, event_store: EventStore, superuser_conn: Conn
) -> None:
    """The game's event hashes, read as the database's owner, are in no receipt (hex or
    base64), nor the seed nor the pin key; no pin is a hash or an HMAC of an event hash under
    anything public. Control: every pin is the HMAC under the key derived from the seed."""
    table = await new_table(served)
    await played(served, table, [*BIDS, {"type": "coyote.challenge"}])
    game_id = table.game.id
    cursor = await superuser_conn.execute(
        "SELECT seq, hash FROM events WHERE game_id = %s ORDER BY seq", [game_id]
    )
    hashes = {seq: bytes(digest) for seq, digest in await cursor.fetchall()}
    version = (await detail(served.http, table.game))["version"]
    assert len(hashes) == version  # the head hash is among them
    seed = await event_store.seed(game_id)
    key = pin_key(seed, game_id)
    secrets = [*hashes.values(), seed, key]
    payloads = list(table.every_payload())
    for payload_ in payloads:
        for secret in secrets:
            for spelling in spellings(secret):
                assert spelling not in payload_, (spelling, payload_)

    public_keys = keys_from_public_data(table.game)
    guesses = set()
    for digest in hashes.values():
        guesses |= {hashlib.sha256(digest).hexdigest(), digest.hex()}
        guesses |= {hashlib.sha256(b"head\x00" + digest).hexdigest()}
        guesses |= {head_pin(public_key, digest) for public_key in public_keys}
    bodies = {command.id: command.body for command in await event_store.commands(game_id)}
    for body in bodies.values():
        guesses |= {command_pin(public_key, body) for public_key in public_keys}
        guesses |= {hashlib.sha256(b"command\x00" + body).hexdigest()}

    opened = 0
    for seat in range(3):
        for statement in table.statements(seat):
            assert not {statement[pin] for pin in PINS if pin in statement} & guesses
            # Control: the pins are what the seed's key makes of the very hashes tried above.
            assert statement["head"] == head_pin(key, hashes[statement["version"]])
            if "command" in statement:
                assert statement["command"] == command_pin(key, bodies[statement["command_id"]])
            opened += 1
    assert opened == len(payloads) > 20


def keys_from_public_data(game: Game) -> list[bytes]:
    """Keys anyone could make: from nothing, the game's id, its commitment; and the pin key
    derived from each as if it were the seed."""
    commitment = bytes.fromhex(game.created["commitment"])
    made = [b"", game.id.encode(), commitment, commitment.hex().encode()]
    return made + [pin_key(key, game.id) for key in made]


def spellings(secret: bytes) -> list[bytes]:
    return [
        secret,
        secret.hex().encode(),
        secret.hex().upper().encode(),
        base64.b64encode(secret),
        base64.urlsafe_b64encode(secret),
        base64.b64encode(secret).rstrip(b"="),
    ]


async def test_trying_every_card_for_a_hidden_one_needs_the_pin_key(
    served: Served, event_store: EventStore, superuser_conn: Conn
) -> None:
    """The head receipt of the opening pins a card dealt to the last seat, which neither that
    seat nor a spectator sees. Given even the hash before it (which no receipt tells), each of
    the 36 cards makes a candidate event and hash: none is in any receipt, and no key computed
    from public data makes a candidate's pin match. Control: with the pin key, exactly one
    candidate matches, the card really dealt."""
    table = await new_table(served)
    await played(served, table, BIDS[:2])
    game_id = table.game.id
    opening = table.game.created["version"]
    stored = (await event_store.read(game_id))[opening - 1]  # its plain body
    cursor = await superuser_conn.execute(
        "SELECT prev_hash, hash, sealed FROM events WHERE game_id = %s AND seq = %s",
        [game_id, opening],
    )
    row = await cursor.fetchone()
    assert row is not None
    prev_hash, stored_hash, sealed = bytes(row[0]), bytes(row[1]), row[2]
    assert sealed  # hidden from spectators: stored sealed
    real = msgspec.json.decode(stored.body, type=CardDealt)
    assert real.card is not None
    holder = real.seat
    spectator = await public(served.http, table.game)
    assert spectator.events[opening - 1]["event"] == {**msgspec.to_builtins(real), "card": None}
    blind = await served.http.get(f"{table.game.url}/events", headers=table.game.auth(holder))
    assert blind.json()["events"][opening - 1]["event"]["card"] is None  # nor its own seat

    heads = [
        statement
        for seat in range(3)
        for statement in table.statements(seat)
        if statement["version"] == opening
    ]
    assert heads and all(statement["receipt"] in ("creation", "head") for statement in heads)
    candidates = {
        card.id: event_hash(prev_hash, Codec.encode(CardDealt(seat=holder, card=card)))
        for card in DECK
    }
    assert len(set(candidates.values())) == len(DECK) == 36
    assert candidates[real.card.id] == stored_hash  # the candidates are built as the store does

    fields = {
        str(value)
        for seat in range(3)
        for statement in table.statements(seat)
        for value in statement.values()
    }
    for digest in candidates.values():
        for spelling in spellings(digest):
            assert spelling.decode(errors="replace") not in fields
            assert all(spelling not in data for data in table.every_payload())

    public_keys = keys_from_public_data(table.game)
    pins = {statement["head"] for statement in heads}
    assert len(pins) == 1  # one history, one pin, whoever asked
    for digest in candidates.values():
        assert not {head_pin(public_key, digest) for public_key in public_keys} & pins

    key = pin_key(await event_store.seed(game_id), game_id)
    for data in table.every_payload():
        for spelling in spellings(key):
            assert spelling not in data
    matching = [card for card, digest in candidates.items() if head_pin(key, digest) in pins]
    assert matching == [real.card.id]  # with the key, and only with it, the card is found

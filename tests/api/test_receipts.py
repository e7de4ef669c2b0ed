"""Receipts and checkpoints over HTTP: every answer that changes a game carries a receipt the
published keys verify; the head receipt and the checkpoint log pin the history the bundle then
holds, and the offline verifier says so (README, "Disputes")."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar import Litestar

from api.app import create_app
from api.checkpoints import Checkpointer, GameInLog, read_checkpoint, read_leaf
from api.cli import _check_database, _Database
from api.config import Settings
from api.merkle import leaf_hash, verify_consistency, verify_inclusion
from api.receipts import RECEIPT_TYPE, CommandReceipt, CreationReceipt, HeadReceipt, decode
from api.signing import BadSignature, Envelope, KeyList, SigningKeys, open_envelope, public_keys
from api.verify import cli as verify_cli
from eventstore.log import SigningKeyConflict
from tests.api.conftest import running_app, serve
from tests.api.helpers import (
    Client,
    assert_problem,
    create_game,
    last_legal_command,
    play,
    play_on,
)


@pytest.fixture(scope="module")
async def served(settings: Settings) -> AsyncIterator[tuple[Litestar, Client]]:
    """An app of its own (its checkpointer at hand), and a client of it."""
    async for app in running_app(create_app(settings)):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield app, client


async def keys_of(client: Client) -> dict[str, bytes]:
    response = await client.get("/v1/keys")
    assert response.status_code == 200, response.text
    return public_keys(msgspec.json.decode(response.content, type=KeyList))


def statement(envelope: dict[str, Any], keys: dict[str, bytes]) -> Any:
    signed = msgspec.convert(envelope, Envelope)
    return decode(open_envelope(signed, RECEIPT_TYPE, keys))


async def test_the_keys_list_the_signing_key_in_use(client: Client) -> None:
    response = await client.get("/v1/keys")
    assert response.status_code == 200, response.text
    listed = response.json()["keys"]
    current = [key for key in listed if key["current"]]
    assert [key["key_id"] for key in current] == ["sign-newer"]
    assert current[0]["algorithm"] == "Ed25519" and current[0]["retired"] is None
    assert len(base64.b64decode(current[0]["public_key"])) == 32


async def test_every_answer_that_changes_a_game_carries_a_receipt(client: Client) -> None:
    keys = await keys_of(client)
    game = await create_game(client, kind="coyote", seats=3)
    created = statement(game.created["receipt"], keys)
    assert isinstance(created, CreationReceipt)
    assert (created.game_id, created.version) == (game.id, game.created["version"])
    assert (created.kind, created.seats, created.seating) == ("coyote", 3, "creator")
    assert created.commitment == game.created["commitment"]
    seat = game.created["to_act"][0]
    command = await last_legal_command(client, game, seat)
    answer = await play(client, game, seat, command, headers={"Idempotency-Key": "r-1"})
    assert answer.status_code == 200, answer.text
    accepted = statement(answer.json()["receipt"], keys)
    assert isinstance(accepted, CommandReceipt)
    assert (accepted.seat, accepted.version) == (seat, answer.json()["version"])
    assert accepted.first_seq == created.version + 1 and accepted.command_id == 1
    again = await play(client, game, seat, command, headers={"Idempotency-Key": "r-1"})
    assert again.json()["replayed"] is True
    assert again.json()["receipt"] == answer.json()["receipt"]  # the same receipt, signed again


async def test_a_sitting_and_a_leaving_are_receipted(client: Client) -> None:
    keys = await keys_of(client)
    response = await client.post(
        "/v1/games",
        json={"kind": "coyote", "seats": 3, "open_table": {"visibility": "public"}},
    )
    assert response.status_code == 201, response.text
    game_id = response.json()["game_id"]
    assert statement(response.json()["receipt"], keys).seating == "open"
    sat = await client.post(f"/v1/games/{game_id}/seats", json={"name": "Ann"})
    assert sat.status_code == 201, sat.text
    sitting = statement(sat.json()["receipt"], keys)
    assert isinstance(sitting, CommandReceipt) and sitting.seat == sat.json()["seat"]
    left = await client.delete(
        f"/v1/games/{game_id}/seats/{sitting.seat}",
        headers={"Authorization": f"Bearer {sat.json()['token']}"},
    )
    assert left.status_code == 200, left.text
    leaving = statement(left.json()["receipt"], keys)
    assert isinstance(leaving, CommandReceipt) and leaving.version == sitting.version + 1


async def test_a_forged_receipt_does_not_verify(client: Client) -> None:
    keys = await keys_of(client)
    game = await create_game(client, kind="coyote", seats=3)
    envelope = dict(game.created["receipt"])
    payload = base64.b64decode(envelope["payload"]).replace(b'"seats":3', b'"seats":4')
    envelope["payload"] = base64.b64encode(payload).decode()
    with pytest.raises(BadSignature):
        statement(envelope, keys)


async def test_the_head_receipt_pins_the_history_anyone_then_reads(
    client: Client, tmp_path: Path
) -> None:
    keys = await keys_of(client)
    game = await create_game(client, kind="coyote", seats=3)
    running = await play_on(client, game, commands=5)
    response = await client.get(f"{game.url}/receipt")
    assert response.status_code == 200, response.text
    head = statement(response.json(), keys)
    assert isinstance(head, HeadReceipt)
    assert (head.version, head.status) == (running["version"], "active")
    assert (await play_on(client, game))["status"] == "finished"
    bundle = await client.get(f"{game.url}/export")
    assert bundle.status_code == 200
    paths = _files(
        tmp_path,
        bundle=bundle.content,
        keys=(await client.get("/v1/keys")).content,
        receipts=msgspec.json.encode([response.json(), game.created["receipt"]]),
    )
    assert _verify(paths, "--receipts", paths["receipts"]) == 0
    # A receipt of another game is no evidence about this one: refused as input.
    other = await create_game(client, kind="coyote", seats=3)
    paths["other"] = tmp_path / "other.json"
    paths["other"].write_bytes(msgspec.json.encode(other.created["receipt"]))
    assert _verify(paths, "--receipts", paths["other"]) == verify_cli.EXIT_UNREADABLE


async def test_a_head_receipt_of_no_game_is_a_404(client: Client) -> None:
    missing = await client.get("/v1/games/00000000-0000-4000-8000-000000000000/receipt")
    assert_problem(missing, 404, "not-found")


async def test_checkpoints_prove_a_games_heads_and_extend_each_other(
    served: tuple[Litestar, Client], tmp_path: Path
) -> None:
    app, client = served
    checkpointer: Checkpointer = app.state.checkpointer
    keys = await keys_of(client)
    game = await create_game(client, kind="coyote", seats=3)
    await play_on(client, game, commands=3)
    first = await checkpointer.checkpoint_now()
    assert first is not None
    assert (await play_on(client, game))["status"] == "finished"
    second = await checkpointer.checkpoint_now()
    assert second is not None and second.size > first.size
    latest = await client.get("/v1/checkpoints/latest")
    assert latest.status_code == 200, latest.text
    signed = read_checkpoint(
        open_envelope(
            msgspec.convert(latest.json(), Envelope),
            "application/vnd.referee.checkpoint+json",
            keys,
        )
    )
    assert signed.size >= second.size
    proof = await client.get(f"{game.url}/inclusion", params={"since": first.size})
    assert proof.status_code == 200, proof.text
    held = msgspec.convert(proof.json(), GameInLog)
    heads = [read_leaf(base64.b64decode(entry.leaf), game.id) for entry in held.entries]
    versions = [head.version for head in heads if head is not None]
    assert len(versions) == len(heads)  # each leaf a head of this game
    assert versions == sorted(versions) and len(versions) >= 2
    root = bytes.fromhex(read_checkpoint(base64.b64decode(held.checkpoint.payload)).root)
    for entry in held.entries:
        path = [bytes.fromhex(item) for item in entry.path]
        verify_inclusion(
            entry.index, signed.size, leaf_hash(base64.b64decode(entry.leaf)), path, root
        )
    assert held.consistency is not None
    verify_consistency(
        first.size,
        signed.size,
        [bytes.fromhex(item) for item in held.consistency.path],
        first.root,
        root,
    )
    pair = await client.get(
        "/v1/checkpoints/consistency", params={"first": first.size, "second": signed.size}
    )
    assert pair.status_code == 200, pair.text
    kept = await client.get(f"/v1/checkpoints/{first.size}")
    assert kept.status_code == 200
    paths = _files(
        tmp_path,
        bundle=(await client.get(f"{game.url}/export")).content,
        keys=(await client.get("/v1/keys")).content,
        log=proof.content,
        kept=kept.content,
        pair=pair.content,
    )
    assert _verify(paths, "--log", paths["log"], "--checkpoint", paths["kept"]) == 0
    assert verify_cli.main_pair([str(paths["pair"]), "--keys", str(paths["keys"])]) == 0


async def test_checkpoint_requests_out_of_bounds_are_clear_4xx(client: Client) -> None:
    assert_problem(await client.get("/v1/checkpoints/999999999"), 404, "not-found")
    assert_problem(
        await client.get("/v1/checkpoints/consistency", params={"first": 5, "second": 2}),
        400,
        "checkpoint-order",
    )
    assert_problem(await client.get("/v1/checkpoints/0"), 400, "malformed-request")


def _files(tmp_path: Path, **contents: bytes) -> dict[str, Path]:
    paths = {}
    for name, data in contents.items():
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_bytes(data)
    return paths


def _verify(paths: dict[str, Path], *extra: object) -> int:
    argv = [str(paths["bundle"]), "--keys", str(paths["keys"]), *map(str, extra)]
    return verify_cli.main(argv)


async def test_a_receipt_still_verifies_once_its_key_is_retired(settings: Settings) -> None:
    """Rotation: a new key first, the old one after it (or gone): new receipts are signed with
    the new key, and the list still holds the old one, retired when the new one first signed."""
    old, new = SigningKeys.generate(), SigningKeys.generate()
    async for client in serve(dataclasses.replace(settings, signing_keys=old)):
        game = await create_game(client, kind="coyote", seats=3)
    rotated = SigningKeys.parse(new.entries() + old.entries())
    async for client in serve(dataclasses.replace(settings, signing_keys=rotated)):
        later = await create_game(client, kind="coyote", seats=3)
        listed = {key["key_id"]: key for key in (await client.get("/v1/keys")).json()["keys"]}
        keys = await keys_of(client)
    assert later.created["receipt"]["signatures"][0]["keyid"] == new.current
    assert listed[new.current]["current"] and listed[new.current]["retired"] is None
    assert not listed[old.current]["current"]
    assert listed[old.current]["retired"] == listed[new.current]["first_used"]
    assert statement(game.created["receipt"], keys).game_id == game.id
    assert statement(later.created["receipt"], keys).game_id == later.id


async def keys_listed(client: Client) -> list[dict[str, Any]]:
    listed = await client.get("/v1/keys")
    assert listed.status_code == 200, listed.text
    keys: list[dict[str, Any]] = listed.json()["keys"]
    return keys


async def test_a_retired_key_whose_id_was_published_with_another_key_is_refused_at_start(
    settings: Settings, database_url: str
) -> None:
    """`referee serve` checks every key it is given, not only the one that signs: a retired
    key's id published with another public key would make old receipts contradict the list."""
    old, new = SigningKeys.generate(), SigningKeys.generate()
    async for client in serve(dataclasses.replace(settings, signing_keys=old)):
        assert old.current in {key["key_id"] for key in (await keys_listed(client))}
    another = SigningKeys.generate().entries().partition(":")[2]
    impostor = SigningKeys.parse(f"{old.current}:{another}")
    database = _Database(
        app_url=database_url,
        owner_url=None,
        seed_keys=settings.seed_keys,
        signing_keys=SigningKeys.parse(new.entries() + impostor.entries()),
        embedded=False,
    )
    with pytest.raises(SigningKeyConflict, match=f"signing key {old.current!r} was published"):
        await asyncio.to_thread(_check_database, database, 10)  # it runs its own loop
    rotated = SigningKeys.parse(new.entries() + old.entries())
    await asyncio.to_thread(
        _check_database, dataclasses.replace(database, signing_keys=rotated), 10
    )

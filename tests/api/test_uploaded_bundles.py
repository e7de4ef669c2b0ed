"""`POST /v1/audits` with bundles that were tampered with in their form: a game id that is not a
UUID is no bundle (400, never echoed); a bundle re-encoded after export fails the `bundle` check
and nothing else."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.api.helpers import Client, assert_problem

CORPUS_BUNDLE = Path(__file__).parents[1] / "corpus" / "games" / "coyote-4-shaman.json"
UUID_TEXT = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


def with_game_id(game_id: str) -> bytes:
    bundle: dict[str, Any] = json.loads(CORPUS_BUNDLE.read_bytes())
    bundle["game_id"] = game_id
    return json.dumps(bundle, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "game_id",
    [
        "not-a-uuid",
        "<img src=x onerror=alert(1)>",
        "../../v1/kinds",
        "",
        "E2515193-6579-5FD5-90B0-FEDD2D6D96B6",
        "e25151936579 5fd590b0fedd2d6d96b6",
    ],
)
async def test_a_bundle_whose_game_id_is_not_a_uuid_is_refused_unechoed(
    client: Client, game_id: str
) -> None:
    response = await client.post("/v1/audits", content=with_game_id(game_id))
    assert_problem(response, 400, "malformed-request")
    detail = response.json()["detail"]
    assert "game_id" in detail and "UUID" in detail
    assert game_id == "" or game_id not in response.text


async def test_a_bundle_with_another_uuid_is_checked_and_echoes_it(client: Client) -> None:
    game_id = str(uuid.uuid4())
    response = await client.post("/v1/audits", content=with_game_id(game_id))
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["game_id"] == game_id
    assert report["verdict"] == "failed"  # the digest, and the draws keyed by the game id


async def test_the_exported_bundle_passes_with_its_uuid(client: Client) -> None:
    response = await client.post("/v1/audits", content=CORPUS_BUNDLE.read_bytes())
    assert response.status_code == 200, response.text
    assert re.fullmatch(UUID_TEXT, response.json()["game_id"])
    assert response.json()["verdict"] == "passed"


@pytest.mark.parametrize("indent", [2, "\t"])
async def test_a_reindented_bundle_fails_the_bundle_check_and_no_event(
    client: Client, indent: int | str
) -> None:
    reindented = json.dumps(json.loads(CORPUS_BUNDLE.read_bytes()), indent=indent).encode()
    response = await client.post("/v1/audits", content=reindented)
    assert response.status_code == 200, response.text
    report = response.json()
    failed = [check["id"] for check in report["checks"] if check["verdict"] == "failed"]
    assert failed == ["bundle"], report["checks"]
    assert report["verdict"] == "failed" and report["first_bad_seq"] is None

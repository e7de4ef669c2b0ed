"""Reading a bundle file: its game id is a UUID or it is no bundle; a file re-encoded after export
(indented, keys reordered) fails the `bundle` check and nothing else, since every other check
compares values, not the bytes they were written in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from api.bundle import MalformedBundle, encode_bundle, read_bundle
from api.verify import AuditReport, verify_file
from referee.games import REGISTRY

CORPUS = sorted((Path(__file__).parents[1] / "corpus" / "games").glob("*.json"))
COYOTE = Path(__file__).parents[1] / "corpus" / "games" / "coyote-4-shaman.json"

NOT_UUIDS = [
    "not-a-uuid",
    "",
    "<img src=x onerror=alert(1)>",
    "../../v1/kinds",
    "javascript:alert(1)",
    "e2515193-6579-5fd5-90b0-fedd2d6d96b",  # one digit short
    "e2515193-6579-5fd5-90b0-fedd2d6d96b6 ",
    "g2515193-6579-5fd5-90b0-fedd2d6d96b6",
    "e25151936579 5fd590b0fedd2d6d96b6",
    "{e2515193-6579-5fd5-90b0-fedd2d6d96b6}",
    "urn:uuid:e2515193-6579-5fd5-90b0-fedd2d6d96b6",
    "e2515193657955fd590b0fedd2d6d96b6",
    "E2515193-6579-5FD5-90B0-FEDD2D6D96B6",  # a UUID, but not as a bundle writes it
    "e2515193-6579-5fd5-90b0-fedd2d6d96b6\u0000",
]


def with_game_id(data: bytes, game_id: str) -> bytes:
    bundle: dict[str, Any] = json.loads(data)
    bundle["game_id"] = game_id
    return json.dumps(bundle, separators=(",", ":")).encode()


@pytest.mark.parametrize("game_id", NOT_UUIDS)
def test_a_game_id_that_is_not_a_uuid_is_no_bundle(game_id: str) -> None:
    with pytest.raises(MalformedBundle) as refused:
        read_bundle(with_game_id(COYOTE.read_bytes(), game_id))
    message = str(refused.value)
    assert "game_id" in message and "UUID" in message
    assert game_id.strip() == "" or game_id not in message  # never echoed


def test_a_game_id_as_the_server_writes_it_is_read() -> None:
    game_id = "0f8fad5b-d9cb-469f-a165-70867728950e"
    assert read_bundle(with_game_id(COYOTE.read_bytes(), game_id)).game_id == game_id


def failed(report: AuditReport) -> dict[str, int | None]:
    return {check.id: check.first_bad_seq for check in report.checks if check.verdict == "failed"}


def verdicts(report: AuditReport) -> dict[str, str]:
    return {check.id: check.verdict for check in report.checks}


@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
@pytest.mark.parametrize(
    "reencode",
    [
        lambda value: json.dumps(value, indent=2),
        lambda value: json.dumps(value, indent="\t", sort_keys=True),
        lambda value: json.dumps(value, separators=(", ", ": "), sort_keys=True),
    ],
    ids=["indented", "tabs-sorted", "spaced-sorted"],
)
def test_a_reencoded_bundle_fails_the_bundle_check_only(path: Path, reencode: Any) -> None:
    data = path.read_bytes()
    exported = verify_file(data, REGISTRY)
    report = verify_file(reencode(json.loads(data)).encode(), REGISTRY)
    assert failed(report) == {"bundle": None}, [c for c in report.checks if c.verdict == "failed"]
    assert verdicts(report) == verdicts(exported) | {"bundle": "failed"}
    assert report.first_bad_seq is None


@pytest.mark.parametrize(
    "options",
    [
        b'{"feathers":3,"shaman":1}',  # 1 is not true
        b'{"feathers":3.0,"shaman":true}',  # nor 3.0 3
        b'{"feathers":3,"shaman":true,"x":null}',
        b'{"feathers":3}',
        b"null",
    ],
)
def test_options_of_another_value_still_disagree_with_event_1(options: bytes) -> None:
    bundle = read_bundle(COYOTE.read_bytes())
    forged = encode_bundle(msgspec.structs.replace(bundle, options=msgspec.Raw(options)))
    report = verify_file(forged, REGISTRY)
    creation = next(check for check in report.checks if check.id == "creation")
    assert creation.verdict == "failed" and creation.first_bad_seq == 1
    assert "options" in creation.detail


def test_options_written_otherwise_agree_with_event_1() -> None:
    bundle = read_bundle(COYOTE.read_bytes())
    spaced = msgspec.Raw(b'{ "shaman" : true,\n  "feathers" : 3 }')
    report = verify_file(encode_bundle(msgspec.structs.replace(bundle, options=spaced)), REGISTRY)
    assert verdicts(report)["creation"] == "passed"

"""Bundles checked offline: any changed byte fails; each kind of forgery (a re-sealed bundle,
so that only the deeper checks can see it) fails the check that should see it, at its event."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.bundle import (
    FORMAT_VERSION,
    MAX_BUNDLE_BYTES,
    Bundle,
    BundleEvent,
    MalformedBundle,
    canonical_bytes,
    encode_bundle,
    read_bundle,
    seal,
)
from api.verify import AuditReport, verify, verify_file
from eventstore.chain import event_hash
from referee.games import REGISTRY
from tests.audit.helpers import check, recorded, running, verdicts

BUNDLE = recorded()
DATA = encode_bundle(BUNDLE)
STRIDE = 5  # every fifth byte: the loop stays under a second
SEQ = BUNDLE.commands[1].first_seq  # an event caused by a command


def outcome_of(data: bytes) -> str:
    try:
        return verify_file(data, REGISTRY).verdict
    except MalformedBundle:
        return "malformed"


def test_the_bundle_as_exported_passes() -> None:
    assert outcome_of(DATA) == "passed"


def test_a_byte_changed_anywhere_fails() -> None:
    """Every fifth byte, each time a different bit of it flipped."""
    passed = []
    for position in range(0, len(DATA), STRIDE):
        flipped = DATA[position] ^ (1 << (position // STRIDE) % 8)
        if outcome_of(DATA[:position] + bytes([flipped]) + DATA[position + 1 :]) == "passed":
            passed.append(position)
    assert passed == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(0, len(DATA) - 1), value=st.integers(0, 255))
def test_any_byte_replaced_by_any_other_fails(position: int, value: int) -> None:
    if value == DATA[position]:
        value = (value + 1) % 256
    changed = DATA[:position] + bytes([value]) + DATA[position + 1 :]
    assert outcome_of(changed) in {"failed", "malformed"}


@pytest.mark.parametrize(
    "changed",
    [
        json.dumps(json.loads(DATA), indent=1).encode(),
        DATA + b"\n",
        b" " + DATA,
        DATA.replace(BUNDLE.events[3].hash.encode(), BUNDLE.events[3].hash.upper().encode()),
    ],
    ids=["pretty-printed", "trailing-newline", "leading-space", "upper-case-hex"],
)
def test_the_same_content_encoded_otherwise_fails_the_file_check(changed: bytes) -> None:
    report = verify_file(changed, REGISTRY)
    assert report.verdict == "failed"
    assert check(report, "bundle").verdict == "failed"


# -- forgeries that keep the file intact (re-sealed) --------------------------------------------


def resealed(bundle: Bundle) -> AuditReport:
    """The checks on a forged bundle whose digest was recomputed."""
    report = verify_file(encode_bundle(bundle), REGISTRY)
    assert check(report, "bundle").verdict == "passed"
    return report


def with_event(bundle: Bundle, seq: int, **changes: object) -> Bundle:
    events = list(bundle.events)
    events[seq - 1] = msgspec.structs.replace(events[seq - 1], **changes)
    return msgspec.structs.replace(bundle, events=tuple(events))


def rechained(bundle: Bundle) -> Bundle:
    """Every hash recomputed, as a forger would."""
    events: list[BundleEvent] = []
    previous = bytes(32)
    for event in bundle.events:
        digest = event_hash(previous, event.body)
        events.append(msgspec.structs.replace(event, prev_hash=previous.hex(), hash=digest.hex()))
        previous = digest
    return msgspec.structs.replace(bundle, events=tuple(events))


def a_bid(bundle: Bundle) -> int:
    return next(event.seq for event in bundle.events if event.type == "coyote.bid-made")


def raised_bid(body: bytes) -> bytes:
    event = json.loads(body)
    event["number"] += 1
    return json.dumps(event, separators=(",", ":")).encode()


def test_an_altered_event_breaks_the_chain_at_its_seq() -> None:
    seq = a_bid(BUNDLE)
    report = resealed(with_event(BUNDLE, seq, body=raised_bid(BUNDLE.events[seq - 1].body)))
    assert report.first_bad_seq == seq
    assert check(report, "hash-chain").first_bad_seq == seq


def test_an_altered_event_with_a_rebuilt_chain_fails_re_execution() -> None:
    seq = a_bid(BUNDLE)
    forged = rechained(with_event(BUNDLE, seq, body=raised_bid(BUNDLE.events[seq - 1].body)))
    report = resealed(forged)
    assert check(report, "hash-chain").verdict == "passed"
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq
    assert check(report, "chance").verdict == "partial"


def test_an_altered_command_fails_re_execution_at_its_first_event() -> None:
    command = BUNDLE.commands[1]
    commands = list(BUNDLE.commands)
    commands[1] = msgspec.structs.replace(command, body=b'{"type":"coyote.challenge"}')
    report = resealed(msgspec.structs.replace(BUNDLE, commands=tuple(commands)))
    assert report.first_bad_seq == command.first_seq
    assert check(report, "re-execution").first_bad_seq == command.first_seq


def test_a_command_that_is_not_a_command_fails_re_execution() -> None:
    commands = list(BUNDLE.commands)
    commands[0] = msgspec.structs.replace(commands[0], body=b"\xff not json")
    report = resealed(msgspec.structs.replace(BUNDLE, commands=tuple(commands)))
    assert check(report, "re-execution").first_bad_seq == commands[0].first_seq
    assert "not a command" in check(report, "re-execution").detail


def test_another_seed_fails_the_commitment() -> None:
    report = resealed(msgspec.structs.replace(BUNDLE, seed="00" * 32))
    assert check(report, "seed").verdict == "failed"
    assert report.verdict == "failed"


def test_another_game_id_changes_every_draw() -> None:
    """The game id is part of the chance key: event 1 still matches, the first shuffle not."""
    report = resealed(msgspec.structs.replace(BUNDLE, game_id=str(uuid.UUID(int=7))))
    assert report.first_bad_seq == 2
    assert check(report, "chance").first_bad_seq == 2
    assert check(report, "re-execution").first_bad_seq == 2


def test_other_entropy_in_event_1_and_the_header_changes_every_draw() -> None:
    created = json.loads(BUNDLE.events[0].body)
    created["entropy"] = "other words"
    body = json.dumps(created, separators=(",", ":")).encode()
    forged = rechained(
        with_event(msgspec.structs.replace(BUNDLE, entropy="other words"), 1, body=body)
    )
    report = resealed(forged)
    assert verdicts(report)["creation"] == verdicts(report)["hash-chain"] == "passed"
    assert report.first_bad_seq == 2
    assert check(report, "chance").first_bad_seq == 2


def test_a_header_that_disagrees_with_event_1() -> None:
    report = resealed(msgspec.structs.replace(BUNDLE, entropy="not what event 1 says"))
    assert check(report, "creation").first_bad_seq == 1
    assert "entropy" in check(report, "creation").detail


@pytest.mark.parametrize(
    "changes",
    [
        {"seat": 2},
        {"command_id": None},
        {"recorded_at": BUNDLE.events[SEQ - 1].recorded_at + timedelta(seconds=1)},
        {"type": "coyote.game-won"},
    ],
    ids=["seat", "command", "time", "type"],
)
def test_event_metadata_that_does_not_match_its_command(changes: dict[str, object]) -> None:
    report = resealed(with_event(BUNDLE, SEQ, **changes))
    assert report.first_bad_seq == SEQ
    assert check(report, "stream").first_bad_seq == SEQ


def test_a_missing_last_event() -> None:
    last = len(BUNDLE.events)
    forged = msgspec.structs.replace(BUNDLE, events=BUNDLE.events[:-1], version=last - 1)
    report = resealed(forged)
    assert report.first_bad_seq == last


def test_a_finished_game_said_to_be_running() -> None:
    report = resealed(msgspec.structs.replace(BUNDLE, status="active"))
    assert check(report, "replay").verdict == "failed"
    assert report.verdict == "failed"


def test_rules_this_referee_does_not_have() -> None:
    report = resealed(msgspec.structs.replace(BUNDLE, rules_version="0"))
    assert verdicts(report) | {"creation": "?"} == {
        "bundle": "passed",
        "rules-version": "failed",
        "creation": "?",  # event 1 says rules 1
        "stream": "passed",
        "hash-chain": "passed",
        "seed": "passed",
        "replay": "skipped",
        "chance": "skipped",
        "re-execution": "skipped",
    }


def test_a_running_game_passes_what_can_be_checked_without_its_seed() -> None:
    report = verify_file(encode_bundle(running(BUNDLE, 5)), REGISTRY)
    assert report.verdict == "partial"
    assert verdicts(report)["seed"] == verdicts(report)["chance"] == "skipped"
    assert verdicts(report)["re-execution"] == "partial"


def test_a_running_game_with_an_altered_bid_fails_without_its_seed() -> None:
    bundle = running(BUNDLE, 5)
    seq = a_bid(bundle)
    forged = rechained(with_event(bundle, seq, body=raised_bid(bundle.events[seq - 1].body)))
    report = verify(forged, REGISTRY)
    assert report.first_bad_seq == seq
    assert check(report, "re-execution").first_bad_seq == seq


# -- not bundles at all ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "not a game bundle"),
        (b"[1, 2]", "not a game bundle"),
        (b'{"format": "zip", "format_version": 1}', "format"),
        (DATA.replace(b'"format_version":2', b'"format_version":3'), "version 3"),
        (DATA.replace(b'"seats":3', b'"seats":"3"'), "malformed"),
        (DATA[: len(DATA) // 2], "truncated"),
        (b" " * (MAX_BUNDLE_BYTES + 1), "at most"),
    ],
    ids=["empty", "array", "other-format", "newer-version", "wrong-type", "truncated", "too-big"],
)
def test_what_is_not_a_bundle_is_refused_with_a_reason(data: bytes, words: str) -> None:
    with pytest.raises(MalformedBundle, match=words):
        read_bundle(data)


def test_the_format_version_is_the_documented_one() -> None:
    assert json.loads(DATA)["format_version"] == FORMAT_VERSION == 2
    assert canonical_bytes(read_bundle(DATA)) == DATA
    assert read_bundle(DATA) == seal(BUNDLE)


def test_a_forged_seat_count_fails_without_building_the_state() -> None:
    # Ten million seats, resealed and rechained: the opening is refused like a new game's would
    # be, instead of building a state for every seat (which exhausted memory before).
    created = BUNDLE.events[0]
    forged_body = created.body.replace(b'"seats":3', b'"seats":10000000', 1)
    assert forged_body != created.body
    forged = rechained(with_event(BUNDLE, 1, body=forged_body))
    report = resealed(msgspec.structs.replace(forged, seats=10_000_000))
    assert report.verdict == "failed"
    assert "passed" not in {check(report, "replay").verdict, check(report, "re-execution").verdict}

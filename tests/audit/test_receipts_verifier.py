"""The offline verifier's receipts and log checks on recorded games (the corpus), with receipts,
leaves and checkpoints signed here by the test run's key: what it counts as proof that the record
or the log was changed, and what it refuses as no evidence at all."""

from __future__ import annotations

import base64
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import msgspec
import pytest

from api.bundle import Bundle, read_bundle
from api.checkpoints import (
    CHECKPOINT_TYPE,
    Checkpoint,
    CheckpointPair,
    ConsistencyPath,
    GameInLog,
    LogEntry,
    logged_head,
    read_leaf,
)
from api.merkle import MerkleTree, leaf_hash
from api.receipts import GameStatus, HeadReceipt, Notary, encode, head_pin, pin_key
from api.signing import Envelope, SigningKeys
from api.verify.receipts import (
    UnusableProof,
    check_log,
    check_pair,
    check_receipts,
    read_leaves,
    signed_receipts,
)
from tests.servers import TEST_SIGNING_KEYS

CORPUS = Path(__file__).parent.parent / "corpus" / "games"
KEYS = SigningKeys.parse(TEST_SIGNING_KEYS)
PUBLIC = {key_id: KEYS.public_key(key_id) for key_id in KEYS.ids}


@pytest.fixture(scope="module")
def bundle() -> Bundle:
    return read_bundle((CORPUS / "coyote-3-shaman-feathers-4.json").read_bytes())


def head(bundle: Bundle, version: int) -> HeadReceipt:
    """The head receipt the referee would have signed at `version`."""
    assert bundle.seed is not None
    event = bundle.events[version - 1]
    key = pin_key(bytes.fromhex(bundle.seed), bundle.game_id)
    status: GameStatus = "finished" if version == bundle.version else "active"
    return HeadReceipt(
        game_id=bundle.game_id,
        version=version,
        head=head_pin(key, bytes.fromhex(event.hash)),
        recorded_at=event.recorded_at,
        status=status,
    )


def checkpoint(tree: MerkleTree, at: datetime) -> Envelope:
    statement = Checkpoint(size=tree.size, root=tree.root().hex(), signed_at=at)
    return KEYS.sign(CHECKPOINT_TYPE, msgspec.json.encode(statement))


def logged(
    bundle: Bundle, versions: list[int], *, leaf: Callable[[HeadReceipt], bytes] = logged_head
) -> tuple[MerkleTree, list[LogEntry]]:
    leaves = [leaf(head(bundle, version)) for version in versions]
    tree = MerkleTree(leaf_hash(leaf) for leaf in leaves)
    entries = [
        LogEntry(
            index=index,
            leaf=base64.b64encode(leaf).decode(),
            path=[item.hex() for item in tree.inclusion_proof(index)],
        )
        for index, leaf in enumerate(leaves)
    ]
    return tree, entries


def test_receipts_at_every_version_name_the_one_event_that_differs(bundle: Bundle) -> None:
    notary = Notary(KEYS)
    envelopes = [notary.sign(head(bundle, version)) for version in range(1, bundle.version + 1)]
    receipts = signed_receipts([("kept.json", envelopes)], PUBLIC, bundle.game_id)
    assert check_receipts(bundle, receipts).verdict == "passed"
    changed = bundle.version // 2
    events = list(bundle.events)
    events[changed - 1] = msgspec.structs.replace(events[changed - 1], hash="00" * 32)
    forged = msgspec.structs.replace(bundle, events=tuple(events))
    result = check_receipts(forged, receipts)
    assert result.verdict == "failed" and result.first_bad_seq == changed
    assert f"kept.json #{changed} (head, active, version {changed})" in result.detail
    assert f"the first event that differs is {changed}." in result.detail


def test_a_receipt_signed_by_no_listed_key_is_no_evidence(bundle: Bundle) -> None:
    stranger = Notary(SigningKeys.generate("sign-newer"))  # the same id, another key
    envelope = stranger.sign(head(bundle, 3))
    with pytest.raises(UnusableProof, match="does not verify"):
        signed_receipts([("forged.json", [envelope])], PUBLIC, bundle.game_id)


def test_a_log_that_hides_a_head_it_was_signed_over_is_caught(bundle: Bundle) -> None:
    versions = [4, bundle.version]
    tree, entries = logged(bundle, versions)
    last = bundle.events[-1].recorded_at
    signed = checkpoint(tree, last + timedelta(minutes=5))
    whole = GameInLog(game_id=bundle.game_id, checkpoint=signed, entries=entries)
    assert check_log(bundle, whole, PUBLIC, None, "log.json").verdict == "passed"
    hidden = msgspec.structs.replace(whole, entries=entries[:1])
    result = check_log(bundle, hidden, PUBLIC, None, "log.json")
    assert result.verdict == "failed", result.detail
    assert "removed or hidden" in result.detail
    # Signed within a minute of the game's end: it need not hold the final head yet.
    early = msgspec.structs.replace(
        hidden, checkpoint=checkpoint(tree, last + timedelta(seconds=5))
    )
    assert check_log(bundle, early, PUBLIC, None, "log.json").verdict == "passed"


def test_two_checkpoints_of_one_size_are_a_rewritten_log(bundle: Bundle) -> None:
    tree, _ = logged(bundle, [2, 3])
    bigger, _ = logged(bundle, [2, 3, 5])
    at = bundle.events[-1].recorded_at
    honest = CheckpointPair(
        first=checkpoint(tree, at),
        second=checkpoint(bigger, at),
        consistency=ConsistencyPath(
            first=2, second=3, path=[item.hex() for item in bigger.consistency_proof(2, 3)]
        ),
    )
    assert check_pair(honest, PUBLIC, "pair.json", honest.first)[0]
    rewritten, _ = logged(bundle, [2, 4])
    kept = checkpoint(rewritten, at)
    extends, detail = check_pair(honest, PUBLIC, "pair.json", kept)
    assert not extends and "Two different checkpoints of size 2" in detail
    with pytest.raises(UnusableProof, match=r"\?first=3"):
        check_pair(honest, PUBLIC, "pair.json", checkpoint(bigger, at))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "not pages of the log's leaves"),
        (b'{"start": -1, "leaves": []}', "a page starts at leaf -1"),
        (b'{"start": 2, "leaves": ["AA=="]}', "leaves 0..1 are missing"),
        (b'{"start": 0, "leaves": ["not base64!"]}', "a leaf is not base64"),
        (b'{"start": 0, "leaves": []} nonsense', "not pages of the log's leaves"),
    ],
)
def test_a_file_that_is_not_the_logs_leaves_is_no_evidence(data: bytes, said: str) -> None:
    with pytest.raises(UnusableProof, match=said):
        read_leaves(data, "leaves.json")


def test_pages_read_in_any_order_and_overlapping_give_the_leaves_once() -> None:
    later = b'{"start": 2, "leaves": ["Ag==", "Aw=="]}'
    pages = later + b'\n{"start": 0, "leaves": ["AA==", "AQ==", "Ag=="]}'
    assert read_leaves(pages, "leaves.json") == [b"\0", b"\1", b"\2", b"\3"]


def test_a_log_begun_before_leaves_named_games_by_a_hash_still_verifies(bundle: Bundle) -> None:
    """Leaves that are head receipts' payloads (naming the game by its id) are read as well as
    the leaves of today, which name it by a hash; a leaf of another game is no head of it."""
    versions = [4, bundle.version]
    for leaf in (encode, logged_head):
        tree, entries = logged(bundle, versions, leaf=leaf)
        signed = checkpoint(tree, bundle.events[-1].recorded_at + timedelta(minutes=5))
        whole = GameInLog(game_id=bundle.game_id, checkpoint=signed, entries=entries)
        assert check_log(bundle, whole, PUBLIC, None, "log.json").verdict == "passed"
    other = msgspec.structs.replace(head(bundle, 4), game_id=str(uuid.uuid4()))
    assert read_leaf(logged_head(other), bundle.game_id) is None
    assert read_leaf(encode(other), bundle.game_id) is None
    assert bundle.game_id.encode() not in logged_head(head(bundle, 4))

"""Receipts and checkpoint proofs held against a bundle: was the record changed after the
referee signed for it?

A receipt (api/receipts.py) pins the history up to its version with an HMAC keyed by the game's
seed; once the seed is revealed the bundle either holds that history or it does not. A receipt
whose signature does not verify, or that is of another game, proves nothing either way: it is
refused as input (`UnusableProof`), never counted as evidence. A valid receipt the bundle
contradicts proves that the record was changed after the receipt was given.

Where the record differs: receipts only pin versions, so the first event that differs lies after
the last version a matching receipt confirms and at or before the contradicted one; with a
receipt for every version (a client that asks at each turn) that is one event.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

import msgspec

from api.bundle import Bundle
from api.checkpoints import (
    CHECKPOINT_TYPE,
    Checkpoint,
    CheckpointPair,
    GameInLog,
    LeafPage,
    read_leaf,
)
from api.merkle import ProofError, leaf_hash, root_of, verify_consistency, verify_inclusion
from api.receipts import (
    RECEIPT_TYPE,
    CommandReceipt,
    CreationReceipt,
    HeadReceipt,
    Receipt,
    command_pin,
    decode,
    head_pin,
    pin_key,
)
from api.signing import BadSignature, Envelope, KeyList, open_envelope, public_keys
from api.verify.report import Check, CheckResult
from referee.kernel.wording import counted

# A head is in every checkpoint that began after it was recorded; signing follows the start of a
# checkpoint within this (its own transaction, and the clocks of two processes).
LOGGED_WITHIN = timedelta(seconds=60)

RECEIPTS = Check(
    "receipts",
    "Every receipt the referee signed for this game pins a history this bundle holds: the same "
    "events up to its version, recorded at the same times, the same commands.",
)
LOG = Check(
    "checkpoint-log",
    "The game's heads in the signed checkpoint are in its Merkle tree and pin the history this "
    "bundle holds; the checkpoint extends the one you kept.",
)

LEAVES = Check(
    "checkpoint-leaves",
    "The log's leaves up to the checkpoint you kept rebuild its signed root, and every head of "
    "this game among them, found by what the leaves say, pins the history this bundle holds.",
)


class UnusableProof(ValueError):
    """A receipt, key list or proof that cannot serve as evidence: malformed, of another game,
    or not signed by a listed key. The message names the file."""


@dataclass(frozen=True)
class Signed:
    """A receipt whose signature verified, and where it came from."""

    label: str  # "FILE #n"
    statement: Receipt


@dataclass(frozen=True)
class Contradiction:
    reason: str
    seq: int  # the first event it shows differs (or may differ)
    command: bool = False  # the command's record differs, not (necessarily) an event


# -- reading --------------------------------------------------------------------------------------

_ENVELOPES = msgspec.json.Decoder(Envelope | list[Envelope])


class _ReceiptsFile(msgspec.Struct):
    receipts: list[Envelope]


def read_keys(data: bytes, name: str) -> dict[str, bytes]:
    """The public keys of a key list (GET /v1/keys) by id."""
    try:
        return public_keys(msgspec.json.decode(data, type=KeyList))
    except (ValueError, BadSignature) as error:
        raise UnusableProof(f"{name}: not a key list (GET /v1/keys): {error}") from None


def read_receipts(data: bytes, name: str) -> list[Envelope]:
    """The envelopes of a receipts file: one receipt, a list of them, or `{"receipts": [...]}`
    (what `referee bot` keeps)."""
    try:
        found = _ENVELOPES.decode(data)
    except ValueError:
        try:
            found = msgspec.json.decode(data, type=_ReceiptsFile).receipts
        except ValueError as error:
            raise UnusableProof(f"{name}: not a receipt or a list of receipts: {error}") from None
    return [found] if isinstance(found, Envelope) else list(found)


def signed_receipts(
    files: Sequence[tuple[str, list[Envelope]]], keys: dict[str, bytes], game_id: str
) -> list[Signed]:
    """Every receipt of `files`, its signature checked and its game the bundle's."""
    signed = []
    for name, envelopes in files:
        for number, envelope in enumerate(envelopes, start=1):
            label = f"{name} #{number}" if len(envelopes) > 1 else name
            try:
                statement = decode(open_envelope(envelope, RECEIPT_TYPE, keys))
            except BadSignature as error:
                raise UnusableProof(f"{label}: not a receipt of this referee: {error}") from None
            except ValueError as error:
                raise UnusableProof(
                    f"{label}: a signed statement that is no receipt: {error}"
                ) from None
            if statement.game_id != game_id:
                raise UnusableProof(
                    f"{label}: a receipt of game {statement.game_id}, not of {game_id}"
                )
            signed.append(Signed(label, statement))
    return signed


# -- holding receipts against the bundle ----------------------------------------------------------


def check_receipts(bundle: Bundle, receipts: Sequence[Signed]) -> CheckResult:
    """RECEIPTS: each receipt against the bundle, the first contradicted one reported with
    where the record differs."""
    if not receipts:
        return RECEIPTS.skipped("No receipt was given.")
    seed = None if bundle.seed is None else bytes.fromhex(bundle.seed)
    ordered = sorted(receipts, key=lambda item: item.statement.version)
    confirmed = 0
    for item in ordered:
        found = contradiction(bundle, item.statement, seed)
        if found is None:
            confirmed = max(confirmed, item.statement.version)
            continue
        where = _where(found, confirmed, item.statement.version, bundle.version)
        return RECEIPTS.failed(
            f"{item.label} ({_kind(item.statement)}, version {item.statement.version}) is "
            f"contradicted: {found.reason} The record was changed after this receipt was given; "
            f"{where}",
            _exactly(found, confirmed, item.statement.version, bundle.version),
        )
    held = counted(len(ordered), "receipt")
    if seed is None:
        return RECEIPTS.partial(
            f"{held}: their times, commands and versions agree with the bundle; their pins open "
            "with the seed, which this bundle of a running game does not reveal."
        )
    return RECEIPTS.passed(f"{held}, up to version {confirmed}: each pins this very history.")


def contradiction(bundle: Bundle, statement: Receipt, seed: bytes | None) -> Contradiction | None:
    """How the bundle contradicts `statement`, if it does."""
    version = statement.version
    if version > bundle.version or version < 1:
        return Contradiction(
            f"the referee had accepted {version} events, and the bundle holds {bundle.version}.",
            bundle.version + 1,
        )
    event = bundle.events[version - 1]
    if event.seq != version:  # a bundle whose numbering is broken: the stream check says more
        return Contradiction(f"the bundle has no event numbered {version} in its place.", version)
    if seed is not None:
        key = pin_key(seed, bundle.game_id)
        if head_pin(key, bytes.fromhex(event.hash)) != statement.head:
            return Contradiction(
                f"the history up to event {version} is not the one it pins.", version
            )
    if event.recorded_at != statement.recorded_at:
        return Contradiction(
            f"event {version} was recorded at {statement.recorded_at.isoformat()}, the bundle "
            f"says {event.recorded_at.isoformat()}.",
            version,
        )
    match statement:
        case CreationReceipt():
            return _creation_differs(bundle, statement)
        case CommandReceipt():
            return _command_differs(bundle, statement, seed)
        case HeadReceipt():
            return _head_differs(bundle, statement)
    return None  # pragma: no cover - the three kinds above


def _creation_differs(bundle: Bundle, statement: CreationReceipt) -> Contradiction | None:
    stated = {
        "kind": (statement.kind, bundle.kind),
        "rules version": (statement.rules_version, bundle.rules_version),
        "seats": (statement.seats, bundle.seats),
        "options": (bytes(statement.options), bytes(bundle.options)),
        "seating": (statement.seating, bundle.seating),
        "commitment": (statement.commitment, bundle.commitment),
    }
    differ = [name for name, (signed, held) in stated.items() if signed != held]
    if differ:
        return Contradiction(f"the game was created with another {', '.join(differ)}.", 1)
    return None


def _command_differs(
    bundle: Bundle, statement: CommandReceipt, seed: bytes | None
) -> Contradiction | None:
    command = next((item for item in bundle.commands if item.id == statement.command_id), None)
    first = statement.first_seq
    if command is None:
        return Contradiction(f"command {statement.command_id} is missing.", first, command=True)
    if (command.seat, command.first_seq, command.last_seq) != (
        statement.seat,
        first,
        statement.version,
    ):
        return Contradiction(
            f"command {statement.command_id} was seat {statement.seat}'s and produced events "
            f"{first}..{statement.version}; the bundle says seat {command.seat}, events "
            f"{command.first_seq}..{command.last_seq}.",
            min(first, command.first_seq),
            command=True,
        )
    if seed is not None:
        key = pin_key(seed, bundle.game_id)
        if command_pin(key, command.body) != statement.command:
            return Contradiction(
                f"command {statement.command_id} is not the command that was accepted.",
                first,
                command=True,
            )
    return None


def _head_differs(bundle: Bundle, statement: HeadReceipt) -> Contradiction | None:
    over = statement.status in ("finished", "cancelled")
    if over and bundle.version != statement.version:
        return Contradiction(
            f"the game was over at event {statement.version}; the bundle goes on to event "
            f"{bundle.version}.",
            statement.version + 1,
        )
    return None


def _kind(statement: Receipt) -> str:
    match statement:
        case CreationReceipt():
            return "creation"
        case CommandReceipt():
            return f"command {statement.command_id}"
        case HeadReceipt():
            return f"head, {statement.status}"
    return "receipt"  # pragma: no cover


def _span(found: Contradiction, confirmed: int, version: int, held: int) -> tuple[int, int]:
    """The events among which the record first differs, as far as the pins held say."""
    if found.command:
        return found.seq, found.seq
    first, last = confirmed + 1, min(version, held + 1)
    return (found.seq, found.seq) if found.seq < first else (first, last)


def _exactly(found: Contradiction, confirmed: int, version: int, held: int) -> int | None:
    """The first event that differs, if the pins say which; None when they give a span (the
    report's headline then names none rather than the span's first)."""
    first, last = _span(found, confirmed, version, held)
    return first if first >= last else None


def _where(
    found: Contradiction, confirmed: int, version: int, held: int, pins: str = "receipts"
) -> str:
    """Where the record first differs, as far as the pins held say."""
    if found.command:
        return f"the first event that differs is {found.seq} (the command's record changed)."
    first, last = _span(found, confirmed, version, held)
    missing = f" (the bundle stops at event {held})" if last > held else ""
    if first >= last:
        return f"the first event that differs is {first}{missing}."
    confirming = (
        f"the {pins} confirm events 1..{confirmed} unchanged"
        if confirmed
        else f"no {pins} confirm an earlier version"
    )
    return f"the first event that differs is one of {first}..{last}{missing}; {confirming}."


# -- the checkpoint log ---------------------------------------------------------------------------


def check_log(
    bundle: Bundle,
    proof: GameInLog,
    keys: dict[str, bytes],
    kept: Envelope | None,
    name: str,
) -> CheckResult:
    """LOG: the game's leaves in a signed checkpoint, each proven in its tree and held against
    the bundle; and, with a checkpoint kept earlier, that the proof's checkpoint extends it."""
    checkpoint = signed_checkpoint(proof.checkpoint, keys, name)
    if proof.game_id != bundle.game_id:
        raise UnusableProof(f"{name}: a proof for game {proof.game_id}, not {bundle.game_id}")
    root = bytes.fromhex(checkpoint.root)
    extended, older = "", None
    if kept is not None:
        older = signed_checkpoint(kept, keys, "the kept checkpoint")
        failure = _consistency_failure(older, checkpoint, proof, name)
        if failure is not None:
            return LOG.failed(failure)
        extended = f" It extends the checkpoint you kept (size {older.size})."
    seed = None if bundle.seed is None else bytes.fromhex(bundle.seed)
    confirmed = in_kept = 0  # the versions the leaves confirm: all of them, the kept ones'
    for entry in proof.entries:
        leaf = _b64(entry.leaf, name)
        try:
            path = _hashes(entry.path, name)
            verify_inclusion(entry.index, checkpoint.size, leaf_hash(leaf), path, root)
        except ProofError as error:
            return LOG.failed(
                f"Leaf {entry.index} is not in the signed tree of size {checkpoint.size}: "
                f"{error} The log was changed after the checkpoint was signed."
            )
        statement = read_leaf(leaf, bundle.game_id)
        if statement is None:
            return LOG.failed(f"Leaf {entry.index} is not a head of this game.")
        found = contradiction(bundle, statement, seed)
        if found is not None:
            where = _where(found, confirmed, statement.version, bundle.version, "leaves")
            return LOG.failed(
                f"Leaf {entry.index} (version {statement.version}, in checkpoint "
                f"{checkpoint.size}) is contradicted: {found.reason} The record was changed "
                f"after the checkpoint was signed; {where}",
                _exactly(found, confirmed, statement.version, bundle.version),
            )
        confirmed = max(confirmed, statement.version)
        if older is not None and entry.index < older.size:
            in_kept = max(in_kept, statement.version)
    if (missing := _missing_head(bundle, checkpoint, confirmed)) is not None:
        return LOG.failed(missing)  # the events after `confirmed`: a span, no one event
    # What the kept checkpoint held must be among its own leaves.
    if older is not None and (missing := _missing_head(bundle, older, in_kept)) is not None:
        return LOG.failed(missing)
    if not proof.entries:
        return LOG.partial(
            f"Checkpoint {checkpoint.size} holds no head of this game yet.{extended}"
        )
    heads = counted(len(proof.entries), "head")
    if seed is None:
        return LOG.partial(
            f"{heads} in checkpoint {checkpoint.size}, proven in its tree; their pins open with "
            f"the seed, which this bundle does not reveal.{extended}"
        )
    return LOG.passed(
        f"{heads} of this game in checkpoint {checkpoint.size}, up to version {confirmed}: each "
        f"proven in the signed tree, each pinning this very history.{extended}"
    )


def _missing_head(bundle: Bundle, checkpoint: Checkpoint, logged: int) -> str | None:
    """Every head recorded before a checkpoint began is in it (api/checkpoints.py): a head
    recorded well before the checkpoint was signed and not among its leaves was taken out."""
    if not bundle.events or logged >= bundle.version:
        return None
    last = bundle.events[-1].recorded_at
    if checkpoint.signed_at - last <= LOGGED_WITHIN:
        return None
    shown = f"only up to version {logged}" if logged else "no head of it"
    return (
        f"Checkpoint {checkpoint.size} was signed {checkpoint.signed_at.isoformat()}, after the "
        f"game's event {bundle.version} (recorded {last.isoformat()}), so it holds that head; "
        f"the proof shows {shown}. The log's leaves were removed or hidden after the checkpoint "
        "was signed."
    )


def check_pair(
    pair: CheckpointPair, keys: dict[str, bytes], name: str, kept: Envelope | None = None
) -> tuple[bool, str]:
    """Whether the second checkpoint of `pair` extends the first (which must be the `kept`
    one, if given), and what was found."""
    first = signed_checkpoint(pair.first, keys, f"{name}: the first checkpoint")
    second = signed_checkpoint(pair.second, keys, f"{name}: the second checkpoint")
    if kept is not None:
        mine = signed_checkpoint(kept, keys, "the kept checkpoint")
        if mine.size != first.size:
            raise UnusableProof(
                f"{name}: it starts from checkpoint {first.size}, not the one you kept "
                f"({mine.size}): ask for ?first={mine.size}"
            )
        if mine.root != first.root:
            return False, (
                f"Two different checkpoints of size {mine.size} are signed: yours and the one "
                "the server serves now. The log was rewritten after you kept yours."
            )
    path = pair.consistency
    if (path.first, path.second) != (first.size, second.size):
        raise UnusableProof(f"{name}: its proof is for sizes {path.first} and {path.second}")
    if (error := _not_extending(first, second, path.path, name)) is not None:
        return False, (
            f"Checkpoint {second.size} does not extend checkpoint {first.size}: {error} The log "
            "was rewritten between them, or the two were signed over different logs."
        )
    return True, (
        f"Checkpoint {second.size} extends checkpoint {first.size}: the log's first {first.size} "
        "leaves are as they were. (Which games they hold: referee verify-log.)"
    )


def signed_checkpoint(envelope: Envelope, keys: dict[str, bytes], name: str) -> Checkpoint:
    try:
        payload = open_envelope(envelope, CHECKPOINT_TYPE, keys)
        checkpoint = msgspec.json.decode(payload, type=Checkpoint)
    except BadSignature as error:
        raise UnusableProof(f"{name}: not a checkpoint of this referee: {error}") from None
    except ValueError as error:
        raise UnusableProof(f"{name}: a signed statement that is no checkpoint: {error}") from None
    return checkpoint


def _consistency_failure(
    older: Checkpoint, newer: Checkpoint, proof: GameInLog, name: str
) -> str | None:
    if older.size > newer.size:
        raise UnusableProof(
            f"{name}: its checkpoint ({newer.size}) is older than the one you kept "
            f"({older.size}): ask for the proof again with ?size={older.size} or later"
        )
    path = proof.consistency
    if path is None or (path.first, path.second) != (older.size, newer.size):
        raise UnusableProof(
            f"{name}: it has no consistency proof from your checkpoint: ask for it with "
            f"?since={older.size}"
        )
    if (error := _not_extending(older, newer, path.path, name)) is not None:
        return (
            f"Checkpoint {newer.size} does not extend the checkpoint you kept ({older.size}): "
            f"{error} The log was rewritten after you kept it."
        )
    return None


def _not_extending(
    older: Checkpoint, newer: Checkpoint, path: Sequence[str], name: str
) -> str | None:
    """Why the consistency proof `path` fails to show that `newer` extends `older`, if it does."""
    try:
        verify_consistency(
            older.size,
            newer.size,
            _hashes(path, name),
            bytes.fromhex(older.root),
            bytes.fromhex(newer.root),
        )
    except ProofError as error:
        return str(error)
    return None


def _b64(text: str, name: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise UnusableProof(f"{name}: a leaf is not base64") from None


def _hashes(path: Sequence[str], name: str) -> list[bytes]:
    try:
        return [bytes.fromhex(item) for item in path]
    except ValueError:
        raise UnusableProof(f"{name}: a proof's hash is not hex") from None


# -- the whole log, up to a kept checkpoint ------------------------------------------------------


@dataclass(frozen=True)
class LeafOfGame:
    index: int  # the leaf's number
    statement: HeadReceipt


_BETWEEN = re.compile(r"[ \t\n\r]*")  # JSON's whitespace, between one page and the next


def read_leaves(data: bytes, name: str) -> list[bytes]:
    """The leaves of a file of leaf pages (GET /v1/checkpoints/leaves, one page or several one
    after another), from leaf 0 on without a gap."""
    try:
        text, decoder, at, pages = data.decode(), json.JSONDecoder(), 0, []
        while (at := _BETWEEN.match(text, at).end()) < len(text):  # type: ignore[union-attr]
            document, at = decoder.raw_decode(text, at)
            pages.append(msgspec.convert(document, LeafPage))
    except (ValueError, RecursionError, msgspec.ValidationError) as error:
        raise UnusableProof(f"{name}: not pages of the log's leaves: {error}") from None
    leaves: list[bytes] = []
    for page in sorted(pages, key=lambda page: page.start):
        if page.start < 0:
            raise UnusableProof(f"{name}: a page starts at leaf {page.start}")
        if page.start > len(leaves):
            raise UnusableProof(f"{name}: leaves {len(leaves)}..{page.start - 1} are missing")
        leaves += [_b64(leaf, name) for leaf in page.leaves[len(leaves) - page.start :]]
    return leaves


def rebuilds(leaves: Sequence[bytes], checkpoint: Checkpoint, name: str) -> bool:
    """Whether the log's first `checkpoint.size` leaves give the checkpoint's signed root."""
    if len(leaves) < checkpoint.size:
        raise UnusableProof(
            f"{name}: {len(leaves)} leaves, and the checkpoint holds {checkpoint.size}: read the "
            f"pages up to ?end={checkpoint.size}"
        )
    root = root_of(leaf_hash(leaf) for leaf in leaves[: checkpoint.size])
    return root == bytes.fromhex(checkpoint.root)


def heads_in(leaves: Sequence[bytes], game_id: str) -> list[LeafOfGame]:
    """Every leaf that is a head statement of `game_id`, by what it says, oldest first."""
    heads = []
    for index, leaf in enumerate(leaves):
        if (statement := read_leaf(leaf, game_id)) is not None:
            heads.append(LeafOfGame(index, statement))
    return heads


def not_rebuilt(checkpoint: Checkpoint) -> str:
    return (
        f"The leaves do not rebuild the root of checkpoint {checkpoint.size}, which you kept: "
        "the log was rewritten after you kept it."
    )


def check_leaves(bundle: Bundle, leaves: Sequence[bytes], kept: Checkpoint) -> CheckResult:
    """LEAVES: the log up to the kept checkpoint, and every head of the game in it (however the
    server files its leaves) held against the bundle."""
    logged = leaves[: kept.size]
    if not rebuilds(leaves, kept, "the leaves"):
        return LEAVES.failed(not_rebuilt(kept))
    seed = None if bundle.seed is None else bytes.fromhex(bundle.seed)
    heads = heads_in(logged, bundle.game_id)
    confirmed = 0
    for head in heads:
        found = contradiction(bundle, head.statement, seed)
        if found is not None:
            where = _where(found, confirmed, head.statement.version, bundle.version, "leaves")
            return LEAVES.failed(
                f"Leaf {head.index} (version {head.statement.version}, in the checkpoint you "
                f"kept, size {kept.size}) is contradicted: {found.reason} The record was changed "
                f"after the checkpoint was signed; {where}",
                _exactly(found, confirmed, head.statement.version, bundle.version),
            )
        confirmed = max(confirmed, head.statement.version)
    if (missing := _missing_head(bundle, kept, confirmed)) is not None:
        return LEAVES.failed(missing)
    if not heads:
        return LEAVES.partial(f"The {kept.size} leaves of your checkpoint hold no head of it.")
    held = counted(len(heads), "head")
    if seed is None:
        return LEAVES.partial(
            f"{held} of this game among the {kept.size} leaves of your checkpoint; their pins "
            "open with the seed, which this bundle does not reveal."
        )
    return LEAVES.passed(
        f"{held} of this game among the {kept.size} leaves of your checkpoint, up to version "
        f"{confirmed}: the leaves rebuild its root, and each head pins this very history."
    )

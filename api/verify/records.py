"""Checks on the record itself, which need no rules: the file, the opening, the numbering of the
events, the hash chain and the seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import msgspec

from api.bundle import Bundle, BundleCommand, canonical_bytes, digest_of
from api.verify.report import Check, CheckResult
from eventstore.chain import GENESIS_HASH, event_hash
from referee.kernel import GameCreated, SeedRevealed, commitment
from referee.kernel.lifecycle import BotsSeated, TableOpened, TimeControlSet
from referee.kernel.wording import counted

FILE = Check(
    "bundle",
    "The file is the bundle exactly as exported: its canonical encoding, with an intact digest.",
)
CREATION = Check(
    "creation",
    "Event 1 opens the game and agrees with the bundle on kind, rules version, seats, options, "
    "entropy and commitment; the table was seated as the bundle says (open iff "
    "game.table-opened follows event 1).",
)
STREAM = Check(
    "stream",
    "The events are numbered 1, 2, 3 ... with no gap, and each is attributed to the command "
    "(seat, time) that caused it.",
)
CHAIN = Check(
    "hash-chain",
    "Each event's hash is sha256(previous hash || body): no event was altered, removed, "
    "reordered or inserted.",
)
SEED = Check(
    "seed", "The seed is the one committed to in event 1, and the one revealed at the end."
)


class _Tagged(msgspec.Struct):
    """Only the `type` of an event body."""

    type: str


_TAG = msgspec.json.Decoder(_Tagged)
_CREATED = msgspec.json.Decoder(GameCreated)
_SORTED = msgspec.json.Encoder(order="sorted")
_REVEALED = msgspec.json.Decoder(SeedRevealed)
_CREATED_TAG = GameCreated.__struct_config__.tag
_REVEALED_TAG = SeedRevealed.__struct_config__.tag
_OPENED_TAG = TableOpened.__struct_config__.tag
# The table's settings, which follow event 1 in this order, each at most once.
_SETTING_TAGS = tuple(
    setting.__struct_config__.tag for setting in (TimeControlSet, BotsSeated, TableOpened)
)


def check_file(data: bytes, bundle: Bundle) -> CheckResult:
    if canonical_bytes(bundle) != data:
        return FILE.failed(
            "The file is not the bundle's canonical encoding: it was edited or re-encoded "
            "after export."
        )
    if digest_of(bundle) != bundle.digest:
        return FILE.failed("The digest does not match the content: the file changed after export.")
    return FILE.passed(f"Canonical encoding; digest {bundle.digest}.")


def check_creation(bundle: Bundle) -> CheckResult:
    if not bundle.events:
        return CREATION.failed("The bundle holds no event.", 1)
    first = bundle.events[0]
    try:
        created = _CREATED.decode(first.body)
    except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
        return CREATION.failed("Event 1 is not a game.created event.", 1)
    pairs = {
        "kind": (created.kind, bundle.kind),
        "rules_version": (created.rules_version, bundle.rules_version),
        "seats": (created.seats, bundle.seats),
        "options": (_canonical(created.options), _canonical(bundle.options)),
        "entropy": (created.entropy, bundle.entropy),
        "commitment": (created.commitment, bundle.commitment),
        "seed_chosen_by_creator": (created.seed_chosen_by_creator, bundle.seed_chosen_by_creator),
    }
    disagree = [name for name, (recorded, stated) in pairs.items() if recorded != stated]
    if first.type != _CREATED_TAG:
        disagree.insert(0, "type")
    if disagree:
        return CREATION.failed(f"Event 1 and the bundle disagree on {', '.join(disagree)}.", 1)
    opened = _table_opened(bundle)
    if (opened is not None) != (bundle.seating == "open"):
        if opened is None:
            return CREATION.failed(
                "The bundle says the table was open to players; no game.table-opened follows "
                "event 1.",
                2,
            )
        return CREATION.failed(
            f"The bundle says the table's creator seated it; event {opened} opens it to players "
            "(game.table-opened).",
            opened,
        )
    chosen = "; the seed was chosen by the creator" if created.seed_chosen_by_creator else ""
    seated = "its players took their own seats" if opened else "its creator seated it"
    return CREATION.passed(
        f"Event 1 creates a {created.kind} game for {created.seats} seats under rules "
        f"{created.rules_version}, committed to seed {created.commitment}{chosen}; {seated}."
    )


def _table_opened(bundle: Bundle) -> int | None:
    """The seq of the game.table-opened among the settings that follow event 1, if any."""
    settings = bundle.events[1 : 1 + len(_SETTING_TAGS)]
    for seq, event in enumerate(settings, start=2):
        try:
            tag = _TAG.decode(event.body).type
        except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
            return None
        if tag == _OPENED_TAG:
            return seq
        if tag not in _SETTING_TAGS:
            return None
    return None


def _canonical(value: msgspec.Raw) -> bytes:
    """A JSON value in one spelling: compact, object keys sorted (the file's own bytes are the
    `bundle` check's to judge). `true` stays other than `1`, and `3.0` other than `3`."""
    try:
        return _SORTED.encode(msgspec.json.decode(value))
    except ValueError:  # not JSON (a decoded bundle's never is): its bytes as they are
        return bytes(value)


# -- numbering and attribution ---------------------------------------------------------------


@dataclass
class _Findings:
    """Problems found, each at a seq; the check reports the earliest."""

    found: list[tuple[int, str]]

    def add(self, seq: int, message: str) -> None:
        self.found.append((max(seq, 1), message))

    def result(self, ok: str) -> CheckResult:
        if not self.found:
            return STREAM.passed(ok)
        seq, message = min(self.found, key=lambda item: item[0])
        more = len(self.found) - 1
        suffix = f" ({more} more problem{'s' if more > 1 else ''} after it.)" if more else ""
        return STREAM.failed(message + suffix, seq)


def check_stream(bundle: Bundle) -> CheckResult:
    findings = _Findings([])
    events = bundle.events
    for index, event in enumerate(events):
        if event.seq != index + 1:
            findings.add(index + 1, f"Event {event.seq} stands where event {index + 1} should.")
            break
    if bundle.version != len(events):
        findings.add(
            min(bundle.version, len(events)) + 1,
            f"The game is at version {bundle.version} but {counted(len(events), 'event')} "
            f"{'is' if len(events) == 1 else 'are'} recorded.",
        )
    owners = _check_commands(bundle.commands, len(events), findings)
    for seq in range(1, len(events) + 1):
        _check_attribution(bundle, seq, owners.get(seq), findings)
    return findings.result(
        f"{counted(len(events), 'event')}, {counted(len(bundle.commands), 'command')}; every "
        "event after the opening "
        "belongs to one command, in order."
    )


def _check_commands(
    commands: tuple[BundleCommand, ...], event_count: int, findings: _Findings
) -> dict[int, BundleCommand]:
    """The command that caused each seq, checking that the commands' ranges tile the stream."""
    owners: dict[int, BundleCommand] = {}
    expected_first = None
    latest = None
    for index, command in enumerate(commands):
        if command.id != index + 1:
            findings.add(command.first_seq, f"Command {index + 1} is missing: {command.id} stands.")
        if expected_first is not None and command.first_seq != expected_first:
            findings.add(
                min(command.first_seq, expected_first),
                f"Command {command.id} starts at event {command.first_seq}, not {expected_first}.",
            )
        if command.first_seq < 2 or command.last_seq < command.first_seq:
            findings.add(command.first_seq, f"Command {command.id} has no valid range.")
        if latest is not None and command.recorded_at < latest:
            findings.add(
                command.first_seq, f"Command {command.id} is recorded before the last one."
            )
        latest = command.recorded_at
        for seq in range(max(command.first_seq, 1), min(command.last_seq, event_count) + 1):
            owners.setdefault(seq, command)
        expected_first = command.last_seq + 1
    if commands and commands[-1].last_seq != event_count:
        findings.add(
            min(commands[-1].last_seq, event_count) + 1,
            f"The last command ends at event {commands[-1].last_seq}; the stream at {event_count}.",
        )
    return owners


def _check_attribution(
    bundle: Bundle, seq: int, owner: BundleCommand | None, findings: _Findings
) -> None:
    event = bundle.events[seq - 1]
    seat, command_id, time = (
        (owner.seat, owner.id, owner.recorded_at)
        if owner is not None
        else (None, None, bundle.created_at)
    )
    if (event.seat, event.command_id) != (seat, command_id):
        cause = "the opening" if owner is None else f"command {owner.id} of seat {owner.seat}"
        findings.add(seq, f"Event {seq} is attributed to another cause than {cause}.")
    if event.recorded_at != time:
        findings.add(seq, f"Event {seq} is dated otherwise than the command that caused it.")
    try:
        tag = _TAG.decode(event.body).type
    except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
        tag = None
    if tag != event.type:
        findings.add(seq, f"Event {seq} is recorded as {event.type!r} but its body is not one.")


# -- the hash chain ----------------------------------------------------------------------------


def check_chain(bundle: Bundle) -> CheckResult:
    previous = GENESIS_HASH.hex()
    for index, event in enumerate(bundle.events):
        seq = index + 1
        if event.prev_hash != previous:
            before = "the start of the chain" if seq == 1 else f"event {seq - 1}"
            return CHAIN.failed(f"Event {seq} does not link to {before}.", seq)
        if event.hash != event_hash(bytes.fromhex(previous), event.body).hex():
            return CHAIN.failed(
                f"Event {seq}'s hash does not match its body: the body or the hash was altered.",
                seq,
            )
        previous = event.hash
    # While the game runs, a hash could give away a hidden value by trial: none is shown.
    head = "" if bundle.seed is None else f" to {previous}"
    return CHAIN.passed(
        f"{counted(len(bundle.events), 'event')} chained, from the zero hash{head}."
    )


# -- the seed ----------------------------------------------------------------------------------


def revealed_seed(bundle: Bundle) -> bytes | None:
    """The bundle's seed as bytes, if it has one written as lowercase hex."""
    if bundle.seed is None:
        return None
    try:
        seed = bytes.fromhex(bundle.seed)
    except ValueError:
        return None
    return seed if seed.hex() == bundle.seed else None


def check_seed(bundle: Bundle) -> CheckResult:
    if bundle.seed is None:
        if bundle.status in ("finished", "cancelled"):
            return SEED.failed("The game is over but the bundle does not carry its seed.")
        if bundle.status == "waiting":
            return SEED.skipped(
                "The table is still waiting for players: its seed stays secret until the end."
            )
        return SEED.skipped("The game is still running: its seed stays secret until the end.")
    seed = revealed_seed(bundle)
    if seed is None:
        return SEED.failed("The bundle's seed is not written as lowercase hex.")
    if commitment(seed) != bundle.commitment:
        return SEED.failed(
            f"sha256(seed) is {commitment(seed)}, not the commitment {bundle.commitment}.", 1
        )
    reveals = []
    for event in bundle.events:
        if event.type != _REVEALED_TAG:
            continue
        try:
            shown = _REVEALED.decode(event.body).seed
        except ValueError:  # msgspec.DecodeError, or bytes that are not UTF-8
            return SEED.failed(f"Event {event.seq} is not a readable seed reveal.", event.seq)
        if shown != bundle.seed:
            return SEED.failed(f"Event {event.seq} reveals another seed.", event.seq)
        reveals.append(event.seq)
    where = f", revealed by event {reveals[-1]}" if reveals else ""
    digest = hashlib.sha256(seed).hexdigest()
    return SEED.passed(f"sha256(seed) = {digest}, the commitment of event 1{where}.")

"""The corpus of recorded games: finished games, one bundle each, that must verify forever.

    python -m tests.corpus.generate          # record the games not yet in the corpus
    python -m tests.corpus.generate --check  # re-record every game in memory: same bytes?

A game of the corpus is never re-recorded over its file: a change to the rules that alters it
must fail the build (tests/corpus/test_corpus.py), not rewrite the evidence. To add a game, add
a spec below; a kind of game newly registered gets `default_specs` (its smallest and largest
table, default options) with no change here. Either way, run the first command once.

Recording is deterministic: the game id, the seed and the entropy come from the spec's name,
the player picks its commands with the chance of referee/kernel/CHANCE.md keyed by that name,
and the times are a function of the command's number (tests/corpus/recorder.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from api.bundle import Bundle, encode_bundle, seal
from api.verify import verify
from referee.games import REGISTRY
from referee.kernel import RuleViolation
from referee.kernel.registry import Registry
from tests.corpus.recorder import Player, Recorder, play_out

HERE = Path(__file__).parent
GAMES = HERE / "games"
MANIFEST = HERE / "manifest.json"
NAMESPACE = uuid.UUID("6f1d3c1e-2b1c-4d5e-9a8b-7c6d5e4f3a2b")


@dataclass(frozen=True)
class Spec:
    name: str
    kind: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    by_kind: bool = False  # the player draws a kind of command first (recorder.Player)
    # The rules version it is played under: each game stays recorded under the version it was
    # recorded with, and a kind's new version gets games of its own.
    rules_version: str = "1"
    # The bundle format it is written in: a game stays in the format it was recorded in (the
    # corpus keeps version 1 files, which every verifier must go on reading).
    format_version: int = 1

    @property
    def path(self) -> Path:
        return GAMES / f"{self.name}.json"


SPECS = [
    Spec("coyote-3", "coyote", 3),
    Spec("coyote-4-shaman", "coyote", 4, {"shaman": True}),
    Spec("coyote-5-feathers-2", "coyote", 5, {"feathers": 2}),
    Spec("coyote-6-shaman-feathers-1", "coyote", 6, {"shaman": True, "feathers": 1}),
    Spec("coyote-3-shaman-feathers-4", "coyote", 3, {"shaman": True, "feathers": 4}),
    Spec("tribu-2", "tribu", 2, by_kind=True),
    Spec("tribu-4", "tribu", 4, by_kind=True),
    Spec("tribu-2-rules-2", "tribu", 2, by_kind=True, rules_version="2"),
    Spec("tribu-3-rules-2", "tribu", 3, by_kind=True, rules_version="2"),
    Spec("tribu-4-rules-2", "tribu", 4, by_kind=True, rules_version="2"),
]


def default_specs(kind: str, registry: Registry) -> list[Spec]:
    """The smallest and the largest table the rules allow, with default options, under the
    kind's first rules version (what was new when the kind was registered)."""
    game = registry.versions(kind)[0]
    specs = []
    for seats in dict.fromkeys((game.min_seats, game.max_seats)):
        try:
            game.validate_options(game.options_type(), seats)
        except RuleViolation:
            continue
        specs.append(Spec(f"{kind}-{seats}", kind, seats, rules_version=game.version))
    return specs


def all_specs(registry: Registry = REGISTRY) -> list[Spec]:
    explicit = {spec.kind for spec in SPECS}
    defaults = [
        spec
        for kind in registry.kinds()
        if kind not in explicit
        for spec in default_specs(kind, registry)
    ]
    return [spec for spec in SPECS if spec.kind in registry] + defaults


def record(spec: Spec, registry: Registry = REGISTRY) -> Bundle:
    """The spec's game, played to the end."""
    game = registry.rules(spec.kind, spec.rules_version)
    recorder = Recorder(
        game,
        msgspec.convert(spec.options, game.options_type),
        spec.seats,
        game_id=str(uuid.uuid5(NAMESPACE, spec.name)),
        seed=hashlib.sha256(f"corpus seed {spec.name}".encode()).digest(),
        entropy=f"corpus {spec.name}",
    )
    play_out(recorder, Player(spec.name, spec.by_kind), max_commands=20_000)
    bundle = recorder.bundle()
    if bundle.format_version == spec.format_version:
        return bundle
    return seal(msgspec.structs.replace(bundle, format_version=spec.format_version))


def manifest_entry(spec: Spec, bundle: Bundle) -> dict[str, Any]:
    """What a test asserts of the game: its shape, its last hash and its outcome."""
    report = verify(bundle, REGISTRY)
    if report.verdict != "passed":
        raise RuntimeError(f"{spec.name} does not verify: {report}")
    return {
        "name": spec.name,
        "kind": spec.kind,
        "rules_version": bundle.rules_version,
        "seats": spec.seats,
        "options": spec.options,
        "events": len(bundle.events),
        "commands": len(bundle.commands),
        "head_hash": bundle.events[-1].hash,
        "outcome": msgspec.to_builtins(report.outcome),
    }


def read_manifest() -> dict[str, dict[str, Any]]:
    if not MANIFEST.exists():
        return {}
    entries: list[dict[str, Any]] = json.loads(MANIFEST.read_text())
    return {entry["name"]: entry for entry in entries}


def write_manifest(entries: Iterable[dict[str, Any]]) -> None:
    ordered = sorted(entries, key=lambda entry: entry["name"])
    MANIFEST.write_text(json.dumps(ordered, indent=2, sort_keys=True) + "\n")


def add_missing(specs: Sequence[Spec]) -> list[str]:
    """Record the specs that have no file yet; the names recorded."""
    manifest = read_manifest()
    GAMES.mkdir(exist_ok=True)
    added = []
    for spec in specs:
        if spec.path.exists() and spec.name in manifest:
            continue
        bundle = record(spec)
        spec.path.write_bytes(encode_bundle(bundle))
        manifest[spec.name] = manifest_entry(spec, bundle)
        added.append(spec.name)
    write_manifest(manifest.values())
    return added


def differing(specs: Sequence[Spec]) -> list[str]:
    """The recorded games that recording again does not reproduce byte for byte."""
    return [
        spec.name
        for spec in specs
        if spec.path.exists() and encode_bundle(record(spec)) != spec.path.read_bytes()
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="re-record in memory and compare")
    args = parser.parse_args(argv)
    specs = all_specs()
    if args.check:
        changed = differing(specs)
        for name in changed:
            print(f"{name}: recording it again gives other bytes", file=sys.stderr)
        return 1 if changed else 0
    for name in add_missing(specs):
        print(f"recorded {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

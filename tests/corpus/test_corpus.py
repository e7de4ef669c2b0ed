"""Recorded games hold forever: each bundle of the corpus verifies under today's rules, with the
outcome it was recorded with. A change to the rules that alters a recorded game fails here; it
needs a new rules version (and the old one kept to replay the old games)."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest

from api.verify import verify_file
from api.verify.cli import render
from referee.games import REGISTRY
from referee.kernel import Chance, Outcome, Registry
from tests.corpus.generate import GAMES, all_specs, differing, read_manifest

MANIFEST = read_manifest()


@pytest.mark.parametrize("entry", MANIFEST.values(), ids=MANIFEST.keys())
def test_a_recorded_game_verifies_and_ends_as_recorded(entry: dict[str, Any]) -> None:
    report = verify_file((GAMES / f"{entry['name']}.json").read_bytes(), REGISTRY)
    assert report.verdict == "passed", render(report)
    assert report.outcome == msgspec.convert(entry["outcome"], Outcome)
    assert report.outcome.finished
    assert report.head_hash == entry["head_hash"]
    assert (report.kind, report.rules_version, report.version) == (
        entry["kind"],
        entry["rules_version"],
        entry["events"],
    )


def test_every_game_is_in_the_manifest_and_every_kind_in_the_corpus() -> None:
    files = {path.stem for path in GAMES.glob("*.json")}
    assert files == set(MANIFEST)
    missing = {spec.name for spec in all_specs()} - files
    assert not missing, f"record them: python -m tests.corpus.generate ({sorted(missing)})"
    assert {entry["kind"] for entry in MANIFEST.values()} == set(REGISTRY.kinds())
    recorded = {(entry["kind"], entry["rules_version"]) for entry in MANIFEST.values()}
    assert recorded == {(game.kind, game.version) for game in REGISTRY.all_versions()}


def test_coyote_is_recorded_with_and_without_the_shaman_at_several_tables() -> None:
    coyote = [entry for entry in MANIFEST.values() if entry["kind"] == "coyote"]
    assert {entry["options"].get("shaman", False) for entry in coyote} == {False, True}
    assert {entry["seats"] for entry in coyote} >= {3, 4, 5, 6}


def test_recording_again_gives_the_same_bytes() -> None:
    """The generator is deterministic: the corpus can always be rebuilt to the byte."""
    assert differing(all_specs()) == []


def reshuffled_opening(options: Any, seats: int, chance: Chance) -> list[Any]:
    """Coyote's opening with one extra draw first, under the same rules version."""
    chance.uniform(2)
    return COYOTE.opening(options, seats, chance)


COYOTE = REGISTRY["coyote"]


def test_a_rules_change_that_alters_a_recorded_game_is_caught() -> None:
    reshuffled = dataclasses.replace(COYOTE, opening=reshuffled_opening)
    changed = Registry([reshuffled, *(game for game in REGISTRY if game.kind != "coyote")])
    report = verify_file((GAMES / "coyote-3.json").read_bytes(), changed)
    assert report.verdict == "failed"
    assert report.first_bad_seq == 2  # the first shuffle

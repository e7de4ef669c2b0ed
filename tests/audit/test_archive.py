"""The audit of stored games, finished and running, and the export of a finished game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgspec
import pytest

from api.audit import Archive, GameNotFinished
from api.bundle import read_bundle
from api.verify import verify_file
from referee.games import REGISTRY
from referee.kernel import commitment
from tests.audit.helpers import SEED, check, verdicts

NewGame = Callable[..., Awaitable[str]]
EVERY_CHECK = [
    "rules-version",
    "creation",
    "stream",
    "hash-chain",
    "seed",
    "replay",
    "chance",
    "re-execution",
]


@pytest.mark.parametrize(
    ("seats", "options"), [(3, {}), (5, {"shaman": True, "feathers": 2})], ids=["plain", "shaman"]
)
async def test_a_finished_game_passes_every_check(
    archive: Archive, new_game: NewGame, seats: int, options: dict[str, object]
) -> None:
    game_id = await new_game(seats=seats, options=options, entropy="players' words")
    report = await archive.audit(game_id)
    assert [item.id for item in report.checks] == EVERY_CHECK
    assert set(verdicts(report).values()) == {"passed"}, report
    assert report.verdict == "passed"
    assert report.first_bad_seq is None
    assert report.outcome is not None and report.outcome.finished
    assert report.status == "finished"


async def test_an_export_verifies_offline_and_carries_the_revealed_seed(
    archive: Archive, new_game: NewGame
) -> None:
    game_id = await new_game(entropy="dice rolled at the table: 4 2 6")
    bundle, data = await archive.export(game_id)
    assert read_bundle(data) == bundle
    assert bundle.seed == SEED.hex()
    assert bundle.commitment == commitment(SEED)
    assert bundle.entropy == "dice rolled at the table: 4 2 6"
    assert bundle.seed_chosen_by_creator is True
    assert bundle.version == len(bundle.events) and bundle.status == "finished"
    assert bundle.events[-1].type == "game.seed-revealed"
    report = verify_file(data, REGISTRY)
    assert report.verdict == "passed", report
    assert [item.id for item in report.checks] == ["bundle", *EVERY_CHECK]
    assert report.head_hash == bundle.events[-1].hash


async def test_a_running_game_is_audited_without_its_seed(
    archive: Archive, new_game: NewGame
) -> None:
    game_id = await new_game(seats=4, commands=12)
    report = await archive.audit(game_id)
    assert verdicts(report) == {
        "rules-version": "passed",
        "creation": "passed",
        "stream": "passed",
        "hash-chain": "passed",
        "seed": "skipped",
        "replay": "passed",
        "chance": "skipped",
        "re-execution": "partial",
    }
    assert report.verdict == "partial" and report.status == "active"
    assert "secret" in check(report, "seed").detail
    assert "12 commands" in check(report, "re-execution").detail
    text = msgspec.json.encode(report).decode()
    assert SEED.hex() not in text
    bundle = await archive.bundle(game_id, reveal=True)
    assert bundle.seed is None
    assert report.head_hash is None
    assert not any(event.hash in text for event in bundle.events), "a hash tells by trial"


async def test_a_running_game_cannot_be_exported(archive: Archive, new_game: NewGame) -> None:
    game_id = await new_game(commands=3)
    with pytest.raises(GameNotFinished):
        await archive.export(game_id)


async def test_a_game_that_no_one_played_audits_as_running(
    archive: Archive, new_game: NewGame
) -> None:
    game_id = await new_game(commands=0, seed=None)
    report = await archive.audit(game_id)
    assert report.verdict == "partial"
    assert check(report, "re-execution").detail.startswith("0 of 0 commands")
    assert report.version == len((await archive.bundle(game_id, reveal=False)).events)

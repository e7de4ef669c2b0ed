"""Helpers for audit tests: games played through the service or recorded without a database,
and reports read check by check."""

from __future__ import annotations

import uuid
from functools import cache
from typing import Any

import msgspec

from api.bundle import Bundle, seal
from api.service import GameService
from api.verify import AuditReport, CheckResult
from referee.games import REGISTRY
from tests.corpus.recorder import Player, Recorder, play_out

SEED = bytes.fromhex("5eed" * 16)


async def play_game(
    service: GameService,
    *,
    kind: str = "coyote",
    seats: int = 3,
    options: dict[str, Any] | None = None,
    seed: bytes | None = SEED,
    entropy: str = "",
    commands: int | None = None,
    player: str = "audit",
) -> str:
    """A game played through the service by a deterministic player (to the end, or for
    `commands` commands); its id."""
    game = REGISTRY[kind]
    created = await service.create(
        kind,
        seats=seats,
        options=game.options_type(**(options or {})),
        seed=seed,
        entropy=entropy,
    )
    chooser = Player(player)
    played = 0
    while commands is None or played < commands:
        table = await service.table(created.game_id)
        if table.outcome().finished:
            break
        seat, command = chooser.choose(table)
        await service.play(created.game_id, seat, command)
        played += 1
    return created.game_id


@cache
def recorded(seats: int = 3, feathers: int = 1, shaman: bool = False) -> Bundle:
    """A finished Coyote game recorded without a database (see tests/corpus/recorder.py)."""
    game = REGISTRY["coyote"]
    recorder = Recorder(
        game,
        game.options_type(feathers=feathers, shaman=shaman),
        seats,
        game_id=str(uuid.UUID(int=seats * 100 + feathers)),
        seed=SEED,
        entropy="recorded",
    )
    play_out(recorder, Player(f"recorded {seats} {feathers} {shaman}"))
    return recorder.bundle()


def running(bundle: Bundle, commands: int) -> Bundle:
    """The same game as it stood after its first `commands` commands, without the seed."""
    kept = bundle.commands[:commands]
    version = kept[-1].last_seq if kept else bundle.commands[0].first_seq - 1
    return seal(
        msgspec.structs.replace(
            bundle,
            seed=None,
            status="active",
            version=version,
            commands=kept,
            events=bundle.events[:version],
        )
    )


def check(report: AuditReport, check_id: str) -> CheckResult:
    return next(item for item in report.checks if item.id == check_id)


def verdicts(report: AuditReport) -> dict[str, str]:
    return {item.id: item.verdict for item in report.checks}

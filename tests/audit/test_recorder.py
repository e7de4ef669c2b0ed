"""The recorder behind the corpus records a game exactly as the service does: the same events,
bytes, cursors and hashes (only the times differ)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgspec

from api.audit import Archive
from api.bundle import Bundle
from referee.games import REGISTRY
from referee.kernel import Codec
from tests.corpus.recorder import Recorder

NewGame = Callable[..., Awaitable[str]]


def timeless(bundle: Bundle) -> Bundle:
    stamp = bundle.created_at
    return msgspec.structs.replace(
        bundle,
        created_at=stamp,
        digest="",
        commands=tuple(msgspec.structs.replace(c, recorded_at=stamp) for c in bundle.commands),
        events=tuple(msgspec.structs.replace(e, recorded_at=stamp) for e in bundle.events),
    )


async def test_the_recorder_records_what_the_service_records(
    archive: Archive, new_game: NewGame
) -> None:
    game_id = await new_game(seats=4, options={"shaman": True}, entropy="same words")
    exported, _ = await archive.export(game_id)
    game = REGISTRY["coyote"]
    recorder = Recorder(
        game,
        msgspec.json.decode(exported.options, type=game.options_type),
        exported.seats,
        game_id=game_id,
        seed=bytes.fromhex(exported.seed or ""),
        entropy=exported.entropy,
    )
    codec = Codec(game)
    for command in exported.commands:
        recorder.play(command.seat, codec.decode_command(command.body))
    recorded = msgspec.structs.replace(recorder.bundle(), created_at=exported.created_at)
    assert timeless(recorded) == timeless(exported)

"""Test positions for any game: a table folded from chosen events, with no real deal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from referee.kernel import GameCreated, Played, Table, commitment
from referee.kernel.registry import AnyGame


def opening(game: AnyGame, options: msgspec.Struct, seats: int, seed: bytes) -> GameCreated:
    """The `game.created` event a game with these options and this seed starts with."""
    return GameCreated(
        kind=game.kind,
        rules_version=game.version,
        seats=seats,
        options=msgspec.Raw(msgspec.json.encode(options)),
        commitment=commitment(seed),
    )


def table_from(
    game: AnyGame, options: Any, seats: int, events: Iterable[msgspec.Struct], seed: bytes
) -> Table:
    """A table whose history is exactly `events` after the opening, as a replay builds it."""
    created = opening(game, options, seats, seed)
    return Table.replay(game, [Played(created, 0), *(Played(event, 0) for event in events)])

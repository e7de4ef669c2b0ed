"""The games this referee knows, by kind."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from referee.kernel.contract import Game
from referee.kernel.lifecycle import GameCreated, SeedRevealed

AnyGame = Game[Any, Any, Any, Any]


class UnknownKind(LookupError):
    pass


class Registry:
    def __init__(self, games: Iterable[AnyGame]) -> None:
        self._games = {game.kind: game for game in games}

    def __getitem__(self, kind: str) -> AnyGame:
        try:
            return self._games[kind]
        except KeyError:
            raise UnknownKind(kind) from None

    def __contains__(self, kind: object) -> bool:
        return kind in self._games

    def __iter__(self) -> Iterator[AnyGame]:
        return iter(self._games.values())

    def kinds(self) -> list[str]:
        return sorted(self._games)


class Codec:
    """Canonical bytes for one game's commands and events (kernel events included).

    The bytes of an encoded event are what the store hashes, so encoding must be stable:
    msgspec writes a Struct's fields in declaration order, always.
    """

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self._events = msgspec.json.Decoder(GameCreated | SeedRevealed | game.event_type)
        self._command = msgspec.json.Decoder(game.command_type)

    @staticmethod
    def encode(value: msgspec.Struct) -> bytes:
        return msgspec.json.encode(value)

    def decode_event(self, body: bytes) -> msgspec.Struct:
        event: msgspec.Struct = self._events.decode(body)
        return event

    def decode_command(self, body: bytes) -> msgspec.Struct:
        command: msgspec.Struct = self._command.decode(body)
        return command

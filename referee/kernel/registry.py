"""The games this referee knows, by kind and rules version.

A game recorded under a rules version replays under that version forever: a change to a game
that alters the events of recorded games is registered as a new version beside the old one
(`Game.version` in referee/kernel/contract.py; the corpus of recorded games, tests/corpus, fails
the build otherwise). A kind's versions are registered oldest first; new games are
played under the newest, recorded games under the version they were recorded with.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from referee.kernel.contract import Game
from referee.kernel.lifecycle import KernelCommand, KernelEvent

AnyGame = Game[Any, Any, Any, Any]


class UnknownKind(LookupError):
    pass


class UnknownRulesVersion(LookupError):
    """A kind this registry knows, under a rules version it does not have."""

    def __init__(self, kind: str, version: str) -> None:
        super().__init__(kind, version)
        self.kind = kind
        self.version = version


class Registry:
    """Games by kind and rules version. Iterating, indexing by kind and `kinds()` see each kind's
    newest version: the one new games are played under."""

    def __init__(self, games: Iterable[AnyGame]) -> None:
        self._versions: dict[str, dict[str, AnyGame]] = {}
        for game in games:
            versions = self._versions.setdefault(game.kind, {})
            if game.version in versions:
                raise ValueError(f"{game.kind} rules {game.version} are registered twice")
            versions[game.version] = game
        self._newest = {
            kind: list(versions.values())[-1] for kind, versions in self._versions.items()
        }

    def __getitem__(self, kind: str) -> AnyGame:
        """The kind's newest version."""
        try:
            return self._newest[kind]
        except KeyError:
            raise UnknownKind(kind) from None

    def rules(self, kind: str, version: str) -> AnyGame:
        """The kind under one rules version. Raises UnknownKind, UnknownRulesVersion."""
        try:
            return self._versions[kind][version]
        except KeyError:
            if kind not in self._versions:
                raise UnknownKind(kind) from None
            raise UnknownRulesVersion(kind, version) from None

    def versions(self, kind: str) -> list[AnyGame]:
        """Every registered version of the kind, oldest first. Raises UnknownKind."""
        if kind not in self._versions:
            raise UnknownKind(kind)
        return list(self._versions[kind].values())

    def __contains__(self, kind: object) -> bool:
        return kind in self._versions

    def __iter__(self) -> Iterator[AnyGame]:
        """Each kind's newest version, in the order the kinds were first registered."""
        return iter(self._newest.values())

    def all_versions(self) -> Iterator[AnyGame]:
        """Every registered game, every version."""
        for versions in self._versions.values():
            yield from versions.values()

    def kinds(self) -> list[str]:
        return sorted(self._versions)


class Codec:
    """Canonical bytes for one game's commands and events (kernel events included).

    The bytes of an encoded event are what the store hashes, so encoding must be stable:
    msgspec writes a Struct's fields in declaration order, always.
    """

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self._events = msgspec.json.Decoder(KernelEvent | game.event_type)
        self._command = msgspec.json.Decoder(KernelCommand | game.command_type)

    @staticmethod
    def encode(value: msgspec.Struct) -> bytes:
        return msgspec.json.encode(value)

    def decode_event(self, body: bytes) -> msgspec.Struct:
        event: msgspec.Struct = self._events.decode(body)
        return event

    def decode_command(self, body: bytes) -> msgspec.Struct:
        command: msgspec.Struct = self._command.decode(body)
        return command

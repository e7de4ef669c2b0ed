"""Games recorded without a database, exactly as the service records them, and a player.

`Recorder` keeps what `api.service` appends (the opening, then each command with its events,
the seed revealed in the append that ends the game) and chains it as the store does, with
times that are a function of the command's number: the same game gives the same bundle,
byte for byte, on every run. `tests/audit/test_recorder.py` holds it to the real service.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import msgspec

from api.bundle import (
    FORMAT,
    FORMAT_VERSION,
    UNSEALED,
    Bundle,
    BundleCommand,
    BundleEvent,
    seal,
)
from api.unions import tag_of
from eventstore.chain import GENESIS_HASH, chain
from referee.kernel import Chance, Codec, Played, Seat, Table
from referee.kernel.registry import AnyGame

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


class Recorder:
    def __init__(
        self,
        game: AnyGame,
        options: msgspec.Struct,
        seats: int,
        *,
        game_id: str,
        seed: bytes,
        entropy: str = "",
        seed_chosen_by_creator: bool = True,
    ) -> None:
        self.game_id = game_id
        self.seed = seed
        self.table, played = Table.open(
            game,
            options,
            seats,
            game_id=game_id,
            seed=seed,
            entropy=entropy,
            seed_chosen_by_creator=seed_chosen_by_creator,
        )
        self.commands: list[BundleCommand] = []
        self.events: list[BundleEvent] = []
        self._append(played + self.table.close(seed), None, EPOCH)

    def play(self, seat: Seat, command: msgspec.Struct) -> list[Played]:
        """Play `command` for `seat` and record it (a RuleViolation records nothing)."""
        chance = self.table.chance_for(self.seed, self.game_id)
        played = self.table.play(seat, command, chance)
        played += self.table.close(self.seed)
        time = EPOCH + timedelta(seconds=len(self.commands) + 1)
        record = BundleCommand(
            id=len(self.commands) + 1,
            seat=seat,
            first_seq=len(self.events) + 1,
            last_seq=len(self.events) + len(played),
            recorded_at=time,
            body=Codec.encode(command),
        )
        self.commands.append(record)
        self._append(played, record, time)
        return played

    def _append(
        self, played: Sequence[Played], command: BundleCommand | None, time: datetime
    ) -> None:
        bodies = [Codec.encode(item.event) for item in played]
        previous = bytes.fromhex(self.events[-1].hash) if self.events else GENESIS_HASH
        for item, body, (prev_hash, digest) in zip(
            played, bodies, chain(previous, bodies), strict=True
        ):
            self.events.append(
                BundleEvent(
                    seq=len(self.events) + 1,
                    type=tag_of(item.event),
                    seat=None if command is None else command.seat,
                    command_id=None if command is None else command.id,
                    chance_cursor=item.chance_cursor,
                    recorded_at=time,
                    prev_hash=prev_hash.hex(),
                    hash=digest.hex(),
                    body=body,
                )
            )

    def bundle(self) -> Bundle:
        created = self.table.created
        finished = self.table.outcome().finished
        return seal(
            Bundle(
                format=FORMAT,
                format_version=FORMAT_VERSION,
                game_id=self.game_id,
                kind=created.kind,
                rules_version=created.rules_version,
                seats=created.seats,
                options=created.options,
                entropy=created.entropy,
                seed_chosen_by_creator=created.seed_chosen_by_creator,
                commitment=created.commitment,
                seed=self.seed.hex() if finished else None,
                status="finished" if finished else "active",
                version=len(self.events),
                created_at=EPOCH,
                commands=tuple(self.commands),
                events=tuple(self.events),
                digest=UNSEALED,
            )
        )


class Player:
    """Picks legal commands from a stream of words of its own (referee/kernel/CHANCE.md's
    chance with a key of the player's name): the same name plays the same game, forever.

    The first legal command (by the games' convention an answer, e.g. a challenge) comes up a
    third of the time, which keeps games short; otherwise any legal command, uniformly. A player
    `by_kind` draws a kind of command first, then one of that kind: in a game where most legal
    commands mark time (Tribù's discards and swaps), it gets to the end in fewer moves.
    """

    def __init__(self, name: str, by_kind: bool = False) -> None:
        self._chance = Chance(hashlib.sha256(f"corpus player {name}".encode()).digest())
        self._by_kind = by_kind

    def choose(self, table: Table) -> tuple[Seat, msgspec.Struct]:
        seat = sorted(table.to_act())[self._chance.uniform(len(table.to_act()))]
        legal = table.game.legal_commands(table.state, seat)
        if self._by_kind:
            kinds = sorted({tag_of(command) for command in legal})
            kind = kinds[self._chance.uniform(len(kinds))]
            legal = [command for command in legal if tag_of(command) == kind]
        elif self._chance.uniform(3) == 0:
            return seat, legal[0]
        return seat, legal[self._chance.uniform(len(legal))]


def play_out(recorder: Recorder, player: Player, max_commands: int = 5000) -> None:
    """Play until the game is over."""
    for _ in range(max_commands):
        if recorder.table.outcome().finished:
            return
        recorder.play(*player.choose(recorder.table))
    raise RuntimeError(f"the game is not over after {max_commands} commands")

"""Every seat of a game in this process, on the kernel's Table: the referee's own code.

The deal comes from the referee's chance (referee/kernel/CHANCE.md) under a seed and a game id:
`reset(seed=n)` derives both from `n`, so that the same `n` deals the same game;
`reset(options={"seed_hex": ..., "game_id": ...})` deals exactly what the referee deals a game
created with that seed under that id. `record()` gives what it takes to play the game again
anywhere: the seed, the id and every command in order, as the API's bodies would carry them.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import warnings
from collections.abc import Sequence
from typing import Any

import msgspec

from referee.kernel.chance import Chance
from referee.kernel.contract import Game, Outcome, Seat
from referee.kernel.table import Table, check_seats

AnyGame = Game[Any, Any, Any, Any]


class Played(msgspec.Struct, frozen=True):
    seat: Seat
    command: msgspec.Raw  # the command as a client sends it: {"type": ..., ...}


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """A game played in an environment: enough to play it again in the referee."""

    kind: str
    rules_version: str
    seats: int
    options: msgspec.Raw
    game_id: str
    seed_hex: str
    seed_chosen_by_creator: bool
    commands: tuple[Played, ...]


RESET_OPTIONS = frozenset({"seed_hex", "game_id"})
SEED_HEX = re.compile(r"(?:[0-9a-fA-F]{2}){16,64}")  # as the API takes a creator's seed


def _seed_of(seed_hex: object) -> bytes:
    if not isinstance(seed_hex, str) or not SEED_HEX.fullmatch(seed_hex):
        raise ValueError(f"seed_hex is 16 to 64 bytes in hex, as the API takes it: {seed_hex!r}")
    return bytes.fromhex(seed_hex)


class LocalGame:
    """The backend of an environment holding every seat (referee/envs/env.py, `Backend`)."""

    def __init__(self, rules: AnyGame, seats: int, options: msgspec.Struct) -> None:
        check_seats(rules, seats)
        rules.validate_options(options, seats)
        self._rules = rules
        self._seats = seats
        self._options = options
        self._table: Table | None = None
        self._chance: Chance | None = None
        self._seed = b""
        self._game_id = ""
        self._chosen = False
        self.events: list[msgspec.Struct] = []
        self.commands: list[tuple[Seat, msgspec.Struct]] = []

    @property
    def rules(self) -> AnyGame:
        return self._rules

    @property
    def seats(self) -> int:
        return self._seats

    @property
    def played_seats(self) -> tuple[Seat, ...]:
        return tuple(range(self._seats))

    def start(self, seed: int | None, options: dict[str, Any] | None) -> None:
        options = options or {}
        if unknown := sorted(set(options) - RESET_OPTIONS):
            # Warned of, not refused: PettingZoo's api_test resets with options of its own.
            warnings.warn(f"reset options ignored: {unknown}", stacklevel=3)
        if "seed_hex" in options:
            self._seed = _seed_of(options["seed_hex"])
        elif seed is not None:
            self._seed = hashlib.sha256(f"referee.envs\0{seed}".encode()).digest()
        else:
            self._seed = secrets.token_bytes(32)
        self._game_id = str(options.get("game_id", f"env-{self._rules.kind}"))
        self._chosen = seed is not None or "seed_hex" in options
        table, played = Table.open(
            self._rules,
            self._options,
            self._seats,
            game_id=self._game_id,
            seed=self._seed,
            # As the referee records a game whose creator gave the seed.
            seed_chosen_by_creator=self._chosen,
        )
        self._table = table
        self._chance = table.chance_for(self._seed, self._game_id)
        self.events = [item.event for item in played]
        self.commands = []

    @property
    def table(self) -> Table:
        if self._table is None:
            raise RuntimeError("reset the environment first")
        return self._table

    def to_act(self) -> frozenset[Seat]:
        return self.table.to_act()

    def view(self, seat: Seat) -> msgspec.Struct:
        return self._rules.view(self.table.state, seat)

    def legal(self, seat: Seat) -> Sequence[msgspec.Struct]:
        return self._rules.legal_commands(self.table.state, seat)

    def play(self, seat: Seat, command: msgspec.Struct) -> None:
        assert self._chance is not None
        played = self.table.play(seat, command, self._chance)
        played += self.table.close(self._seed)
        self.events += [item.event for item in played]
        self.commands.append((seat, command))

    def outcome(self) -> Outcome:
        return self.table.outcome()

    def close(self) -> None:
        self._table = None

    def record(self) -> Record:
        return Record(
            kind=self._rules.kind,
            rules_version=self._rules.version,
            seats=self._seats,
            options=msgspec.Raw(msgspec.json.encode(self._options)),
            game_id=self._game_id,
            seed_hex=self._seed.hex(),
            seed_chosen_by_creator=self._chosen,
            commands=tuple(
                Played(seat, msgspec.Raw(msgspec.json.encode(command)))
                for seat, command in self.commands
            ),
        )

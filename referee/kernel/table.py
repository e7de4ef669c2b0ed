"""A game in play, generic over the contract: the fold of its events and the chance cursor.

The API rebuilds a Table from the stored events (`Table.replay`), asks it to play a command,
and stores what comes back. Nothing here knows a game's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from referee.kernel.chance import Chance, commitment
from referee.kernel.contract import Game, Outcome, RuleViolation, Seat
from referee.kernel.lifecycle import GameCreated, SeedRevealed


class GameOver(Exception):
    """A command sent to a finished game."""


class NotYourTurn(RuleViolation):
    def __init__(self, seat: Seat) -> None:
        super().__init__("kernel.not-your-turn", f"Seat {seat} may not act now.")


@dataclass(frozen=True)
class Played:
    """An event as the kernel produced it, with the chance cursor right after it."""

    event: msgspec.Struct
    chance_cursor: int


@dataclass
class Table:
    """One game: its recorded opening, its state, and how far its chance has been read."""

    game: Game[Any, Any, Any, Any]
    created: GameCreated
    options: msgspec.Struct
    state: msgspec.Struct
    chance_cursor: int = 0
    version: int = 1  # the number of events so far (GameCreated is event 1)
    seed_revealed: bool = field(default=False)

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        game: Game[Any, Any, Any, Any],
        options: msgspec.Struct,
        seats: int,
        *,
        game_id: str,
        seed: bytes,
        entropy: str = "",
        seed_chosen_by_creator: bool = False,
    ) -> tuple[Table, list[Played]]:
        """Create a game: GameCreated, then the game's opening events."""
        check_seats(game, seats)
        game.validate_options(options, seats)
        created = GameCreated(
            kind=game.kind,
            rules_version=game.version,
            seats=seats,
            options=msgspec.Raw(msgspec.json.encode(options)),
            commitment=commitment(seed),
            entropy=entropy,
            seed_chosen_by_creator=seed_chosen_by_creator,
        )
        table = cls(game, created, options, game.initial_state(options, seats))
        chance = Chance.for_game(seed, game_id, entropy, 0)
        played = [Played(created, 0)]
        played += table._apply_all(game.setup(options, seats, chance), chance.cursor)
        return table, played

    @classmethod
    def replay(cls, game: Game[Any, Any, Any, Any], events: Iterable[Played]) -> Table:
        """Rebuild a table by folding recorded events (the first must be GameCreated)."""
        iterator = iter(events)
        first = next(iterator)
        if not isinstance(first.event, GameCreated):
            raise ValueError("a stream starts with game.created")
        created = first.event
        options = msgspec.json.decode(created.options, type=game.options_type)
        # A recorded opening is checked as a new one is: an uploaded bundle is untrusted input,
        # and ten million seats would build a state that exhausts memory.
        check_seats(game, created.seats)
        game.validate_options(options, created.seats)
        table = cls(game, created, options, game.initial_state(options, created.seats))
        for played in iterator:
            table._apply(played.event, played.chance_cursor)
        return table

    # -- play --------------------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.created.seats

    def outcome(self) -> Outcome:
        return self.game.outcome(self.state)

    def to_act(self) -> frozenset[Seat]:
        if self.outcome().finished:
            return frozenset()
        return self.game.to_act(self.state)

    def play(self, seat: Seat, command: msgspec.Struct, chance: Chance) -> list[Played]:
        """Decide a command and apply its events; on a refusal nothing changes.

        `chance` must stand at `self.chance_cursor` (use `chance_for`).
        """
        if self.outcome().finished:
            raise GameOver("the game is over")
        if seat not in self.game.to_act(self.state):
            raise NotYourTurn(seat)
        if chance.cursor != self.chance_cursor:
            raise ValueError("the chance must stand at the table's cursor (use chance_for)")
        events = self.game.decide(self.state, seat, command, chance)
        return self._apply_all(events, chance.cursor)

    def reveal_seed(self, seed: bytes) -> Played:
        """The closing event of a finished game."""
        if commitment(seed) != self.created.commitment:
            raise ValueError("this seed does not match the game's commitment")
        played = Played(SeedRevealed(seed=seed.hex()), self.chance_cursor)
        self._apply(played.event, played.chance_cursor)
        return played

    def close(self, seed: bytes) -> list[Played]:
        """The closing events due now: the seed revealed once the game has just finished.

        Empty while the game runs and once the seed is out. Whoever records a game appends
        these with the events that end it; an audit re-executes the same rule.
        """
        if self.seed_revealed or not self.outcome().finished:
            return []
        return [self.reveal_seed(seed)]

    def advance(self, played: Iterable[Played]) -> None:
        """Fold events recorded after this table's version, as `replay` does."""
        for item in played:
            self._apply(item.event, item.chance_cursor)

    def chance_for(self, seed: bytes, game_id: str) -> Chance:
        return Chance.for_game(seed, game_id, self.created.entropy, self.chance_cursor)

    # -- fold ---------------------------------------------------------------------------------

    def _apply_all(self, events: Sequence[msgspec.Struct], cursor: int) -> list[Played]:
        played = [Played(event, cursor) for event in events]
        for item in played:
            self._apply(item.event, item.chance_cursor)
        return played

    def _apply(self, event: msgspec.Struct, cursor: int) -> None:
        if isinstance(event, SeedRevealed):
            self.seed_revealed = True
        elif isinstance(event, GameCreated):
            raise ValueError("game.created may only open a stream")
        else:
            self.state = self.game.evolve(self.state, event)
        self.chance_cursor = cursor
        self.version += 1


def check_seats(game: Game[Any, Any, Any, Any], seats: int) -> None:
    if seats not in game.seat_counts:
        allowed = ", ".join(str(count) for count in game.seat_counts)
        raise RuleViolation(
            f"{game.kind}.seat-count",
            f"{game.title} is played by {allowed} players, not {seats}.",
        )

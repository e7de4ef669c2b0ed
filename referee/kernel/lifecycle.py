"""The kernel's own events: they open and close every stream, whatever the game.

`GameCreated` is always event 1: it carries everything needed to rebuild the initial state and
the commitment to the seed. `SeedRevealed` follows the last event of a finished game.
"""

from __future__ import annotations

import msgspec


class GameCreated(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.created"):
    kind: str
    rules_version: str
    seats: int
    options: msgspec.Raw  # the game's Options exactly as recorded (canonical JSON)
    commitment: str  # sha256(seed) in hex
    entropy: str = ""
    seed_chosen_by_creator: bool = False


class SeedRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="game.seed-revealed"
):
    seed: str  # hex; sha256 of its bytes equals GameCreated.commitment


KernelEvent = GameCreated | SeedRevealed

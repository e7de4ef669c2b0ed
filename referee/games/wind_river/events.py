"""What happened, one Struct per kind of event. Wind River hides nothing: no field is redacted."""

from __future__ import annotations

import msgspec

from referee.games.wind_river.board import Space, Target
from referee.kernel.contract import Seat


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    pass


class StartPlayerDrawn(_Event, frozen=True, tag="wind-river.start-player-drawn"):
    """Section 3: the start player, drawn by chance (RULES.md, "Chance")."""

    seat: Seat


class TeepeePlaced(_Event, frozen=True, tag="wind-river.teepee-placed"):
    """A teepee of the set-up rounds, from the player's stock onto a vacant space."""

    seat: Seat
    at: Space
    round: int


class TurnBegan(_Event, frozen=True, tag="wind-river.turn-began"):
    """A player's turn: as many buffalo moves are due as they have teepees on the board (WR-3)."""

    seat: Seat
    turn: int
    buffalo_moves: int


class BuffaloMoved(_Event, frozen=True, tag="wind-river.buffalo-moved"):
    """A buffalo moved one space ahead, or into the open plains and out of the game. `extra`:
    the extra activity of 5.3.4, not a move of step 5.1."""

    seat: Seat
    from_: Space = msgspec.field(name="from")
    to: Target
    extra: bool = False


class TeepeesSupplied(_Event, frozen=True, tag="wind-river.teepees-supplied"):
    """Step 5.2: the player's teepees left without a buffalo (`unfed`), the resources paid for
    them, and those sent back to the player's stock for want of resources."""

    seat: Seat
    unfed: int
    paid: int
    sent_back: tuple[Space, ...] = ()


class TeepeeMoved(_Event, frozen=True, tag="wind-river.teepee-moved"):
    """Extra activity 5.3.1. `paid_by`: the players who paid one resource each because the
    space entered holds other players' teepees (a player without resources pays nothing)."""

    seat: Seat
    from_: Space = msgspec.field(name="from")
    to: Target
    paid_by: tuple[Seat, ...] = ()


class ResourcesEarned(_Event, frozen=True, tag="wind-river.resources-earned"):
    """Extra activity 5.3.2: `counted` buffalo beyond the player's teepees on their own spaces
    (WR-5), of which `earned` fit in the stock's limit of ten."""

    seat: Seat
    counted: int
    earned: int


class TeepeeInserted(_Event, frozen=True, tag="wind-river.teepee-inserted"):
    """Extra activity 5.3.3: a teepee from the stock, for three resources."""

    seat: Seat
    at: Space
    paid: int


class WindRiverGameEnded(_Event, frozen=True, tag="wind-river.game-ended"):
    """Section 6: no teepee is left on the board. Most teepees in the open plains wins; a tie
    goes to the most resources left (WR-R6)."""

    plains: tuple[int, ...]
    resources: tuple[int, ...]
    ranking: tuple[tuple[Seat, ...], ...]


Event = (
    StartPlayerDrawn
    | TeepeePlaced
    | TurnBegan
    | BuffaloMoved
    | TeepeesSupplied
    | TeepeeMoved
    | ResourcesEarned
    | TeepeeInserted
    | WindRiverGameEnded
)

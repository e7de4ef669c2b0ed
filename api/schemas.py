"""The wire types of the HTTP API: request and response bodies.

The unions of commands, events, views and new-game bodies are built from the registry at import,
so a new game appears in the API and in the OpenAPI document without any change to `api/`.
Every member of those unions is tagged (`type`, or `kind` for new games), which the OpenAPI
document turns into an explicit discriminator.

Request bodies forbid unknown fields (a misspelt `expected_version` must not pass silently);
response bodies do not, so that clients tolerate fields added later.
"""

import re
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, cast

import msgspec
from msgspec import Meta, Struct

from api.bundle import Bundle
from api.ids import GameId
from api.signing import Envelope
from api.unions import union_of
from api.verify import AuditReport
from referee.games import REGISTRY
from referee.kernel import Outcome
from referee.kernel.lifecycle import (
    SEAT_COMMANDS,
    BotSeat,
    Departure,
    KernelEvent,
    PlayerName,
    SeatEntropy,
    TimeControl,
    Visibility,
)
from referee.kernel.registry import AnyGame, Registry

# An open table is `waiting` until its last seat is taken, `cancelled` if it expired unfilled.
GameStatus: TypeAlias = Literal["waiting", "active", "finished", "cancelled"]
# Who could act for whom: the creator held every seat's token, or each player holds their own.
Seating: TypeAlias = Literal["creator", "open"]
InvitationCode: TypeAlias = Annotated[
    str,
    Meta(
        pattern="^[A-Za-z0-9_-]{1,64}$",
        description="The invitation code of a private table, as its creator was given it.",
    ),
]
SeatNumber: TypeAlias = Annotated[int, Meta(ge=0, description="A seat, numbered from 0.")]
# A caller-chosen seed must be long enough that nobody can find it from the public commitment
# before the game ends (which would reveal every hidden card).
SeedHex: TypeAlias = Annotated[
    str,
    Meta(
        pattern="^(?:[0-9a-fA-F]{2}){16,64}$",
        description="The game's secret seed in hex, 16 to 64 bytes. Omit it to let the referee "
        "draw one; a game with a chosen seed says so in its summary.",
    ),
]
Entropy: TypeAlias = Annotated[
    str,
    Meta(
        max_length=256,
        description="Any text the players add to the seed; it is public from the start.",
    ),
]


def _camel(kind: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", kind) if part)


# -- creating a game ---------------------------------------------------------------------------


class CreatorSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The seat the creator of an open table takes: its token is theirs alone."""

    name: PlayerName
    entropy: SeatEntropy = ""
    seat: SeatNumber | None = None  # default: the first seat no bot plays


class OpenTableRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Players take their own seats. A `public` table is listed (`status=waiting`) and anyone
    may sit; a `private` one is not, and sitting needs the invitation code the creator is
    given. Nothing is dealt until the last seat is taken; the referee draws the seed (none may
    be given) and every seat may add entropy to it."""

    visibility: Visibility = "public"
    creator: CreatorSeat | None = None  # none: the creator does not play


class NewGame(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The fields every new-game body has; each kind narrows `seats` and `options`."""

    seats: int
    options: Struct
    seed: SeedHex | None = None
    entropy: Entropy = ""
    # How long each seat may think (none by default); a seat out of time loses it to a claim.
    time_control: TimeControl | None = None
    # Seats the server's own bots play, so that a person can play alone against them.
    bots: tuple[BotSeat, ...] = ()
    # Seats the players take themselves (none: every seat's token goes to the creator).
    open_table: OpenTableRequest | None = None


def seat_count_type(game: AnyGame) -> Any:
    """The numbers of players a kind allows: a range when it is one, else each number listed."""
    counts = game.seat_counts
    described = Meta(description=f"Number of players: {', '.join(map(str, counts))}.")
    if counts == tuple(range(counts[0], counts[-1] + 1)):
        return Annotated[int, Meta(ge=counts[0], le=counts[-1]), described]
    return Annotated[Literal[counts], described]


def new_game_body(game: AnyGame) -> type[NewGame]:
    """The body that creates a game of this kind, tagged by `kind`."""
    seats = seat_count_type(game)
    options = strict_options(game)
    body = msgspec.defstruct(  # a subclass of NewGame, which msgspec's stubs cannot say
        f"New{_camel(game.kind)}Game",
        [("seats", seats), ("options", options, msgspec.field(default_factory=options))],
        bases=(NewGame,),
        tag_field="kind",
        tag=game.kind,
        frozen=True,
        kw_only=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    return cast(type[NewGame], body)


def strict_options(game: AnyGame) -> type[Struct]:
    """The game's options, refusing unknown fields: a misspelt option must not pass silently.

    A decoded value goes back to the game's own type with `plain_options`.
    """
    config = game.options_type.__struct_config__
    strict: type[Struct] = msgspec.defstruct(
        f"{_camel(game.kind)}Options",
        [],
        bases=(game.options_type,),
        frozen=config.frozen,
        kw_only=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    return strict


def plain_options(options: Struct) -> Struct:
    """The game's own Options value of the strict options of a new-game body."""
    plain = type(options).__mro__[1]  # strict_options subclasses the game's type directly
    value: Struct = plain(**msgspec.structs.asdict(options))
    return value


def kind_of(body: NewGame) -> str:
    """The kind a new-game body is for (its tag)."""
    return cast(str, type(body).__struct_config__.tag)  # new-game bodies are tagged by kind


def _build(registry: Registry) -> tuple[Any, Any, Any, Any]:
    games = list(registry)
    new_games = union_of(new_game_body(game) for game in games)
    commands = union_of([*SEAT_COMMANDS, *(game.command_type for game in games)])
    events = union_of([KernelEvent, *(game.event_type for game in games)])
    views = union_of(game.view_type for game in games)
    return new_games, commands, events, views


if TYPE_CHECKING:
    AnyNewGame: TypeAlias = NewGame
    AnyCommand: TypeAlias = Struct
    AnyEvent: TypeAlias = Struct
    AnyView: TypeAlias = Struct
else:
    AnyNewGame, AnyCommand, AnyEvent, AnyView = _build(REGISTRY)


class SeatToken(Struct, frozen=True, kw_only=True):
    seat: SeatNumber
    token: str  # "Authorization: Bearer <token>" for this seat


class CreatedGame(Struct, frozen=True, kw_only=True):
    """A new game. The seat tokens are shown here once, and again only to a retry of the same
    creation (same Idempotency-Key, same request): every seat's when the creator seats the
    table, only the creator's own seat's at an open table."""

    game_id: GameId
    kind: str
    rules_version: str
    seats: int
    version: int
    commitment: str  # sha256 of the seed, in hex
    seed_chosen_by_creator: bool
    to_act: list[int]
    seat_tokens: list[SeatToken]
    # True when an Idempotency-Key matched an earlier creation: this is its game, as created.
    replayed: bool = False
    status: GameStatus = "active"
    seating: Seating = "creator"
    names: list[str | None] | None = None  # an open table's, by seat (null: open)
    # A private open table's: whoever has it may sit. It is no seat token: it lets nobody act.
    invitation_code: str | None = None
    # The creation, signed by the referee (README, "Disputes"): keep it.
    receipt: Envelope | None = None


class SitRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: PlayerName
    entropy: SeatEntropy = ""
    seat: SeatNumber | None = None  # default: the first open seat
    invitation_code: InvitationCode | None = None  # a private table's


class SeatGranted(Struct, frozen=True, kw_only=True):
    """A seat taken. The token is shown here once (and to a retry with the same
    Idempotency-Key and request); it is good while its player sits, and for the whole game."""

    game_id: GameId
    seat: SeatNumber
    token: str
    name: str  # as recorded (NFC)
    status: GameStatus  # `active` once this sitting filled the table
    version: int
    names: list[str | None]
    to_act: list[int]
    replayed: bool = False
    # The sitting, signed by the referee (README, "Disputes"): keep it.
    receipt: Envelope | None = None


# -- kinds -------------------------------------------------------------------------------------


class KindInfo(Struct, frozen=True, kw_only=True):
    kind: str
    title: str
    rules_version: str  # the rules new games are played under: the newest
    # Every rules version this referee has for the kind, oldest first: games recorded under
    # any of them replay, play on and audit under their own.
    rules_versions: list[str]
    min_seats: int
    max_seats: int
    seat_counts: list[int]  # every number of players the game allows
    default_options: dict[str, Any]
    options_schema: dict[str, Any]  # JSON Schema of the options


class KindList(Struct, frozen=True, kw_only=True):
    kinds: list[KindInfo]


# -- reading games -----------------------------------------------------------------------------


class GameSummary(Struct, frozen=True, kw_only=True):
    game_id: GameId
    kind: str
    rules_version: str
    seats: int
    status: GameStatus
    version: int  # the seq of the last event
    seed_chosen_by_creator: bool
    created_at: datetime
    updated_at: datetime
    seating: Seating = "creator"
    names: list[str | None] | None = None  # an open table's players, by seat (null: open)
    open_seats: list[int] = msgspec.field(default_factory=list)  # a waiting table's


class GamePage(Struct, frozen=True, kw_only=True):
    games: list[GameSummary]
    next_cursor: str | None  # pass as `cursor` for the next page; null on the last page


class SeatClock(Struct, frozen=True, kw_only=True):
    seat: int
    running: bool  # the seat is to act: its time is going
    # Its total clock as of the game's last step (null: no total clock); a running clock goes
    # down from there until `deadline`.
    remaining_seconds: float | None
    deadline: datetime | None  # when its time runs out, if running (either limit)


class SeatGone(Struct, frozen=True, kw_only=True):
    seat: int
    how: Departure  # it resigned, or its time ran out


class GameDetail(GameSummary, frozen=True, kw_only=True):
    commitment: str
    to_act: list[int]
    outcome: Outcome
    seat: int | None  # the seat this view is for; null for a spectator
    view: AnyView
    time_control: TimeControl | None  # null: no time limit
    clocks: list[SeatClock] | None  # null: no time control
    left: list[SeatGone]  # seats that have left, in order (the referee plays for them)
    bots: list[BotSeat]  # seats the server's own bots play
    expires_at: datetime | None = None  # a waiting table is cancelled then, unless filled
    # In the answer to leaving a seat: the leaving, signed by the referee. Null elsewhere.
    receipt: Envelope | None = None


class EventRecord(Struct, frozen=True, kw_only=True):
    seq: int
    recorded_at: datetime
    seat: int | None  # the seat whose command caused the event; null for the referee's own
    event: AnyEvent


class EventPage(Struct, frozen=True, kw_only=True):
    version: int
    events: list[EventRecord]


class StateAt(Struct, frozen=True, kw_only=True):
    seq: int
    version: int  # the game's current version
    status: GameStatus  # at `seq`
    to_act: list[int]
    outcome: Outcome
    seat: int | None
    view: AnyView
    clocks: list[SeatClock] | None  # at `seq`; null: no time control
    left: list[SeatGone]  # at `seq`
    names: list[str | None] | None = None  # an open table's players at `seq`, by seat
    # Once the game is over everything about it is public: every seat's view at `seq`, in seat
    # order, which together show every hand and hidden card of that moment. Null while it runs.
    seat_views: list[AnyView] | None = None


# -- playing -----------------------------------------------------------------------------------


class CommandRequest(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command: AnyCommand
    expected_version: (
        Annotated[
            int,
            Meta(
                ge=1,
                description="The version the client last saw; the command is refused with 409 "
                "if the game has moved on. Omit it to play against the latest version.",
            ),
        ]
        | None
    ) = None


class CommandResult(Struct, frozen=True, kw_only=True):
    version: int
    replayed: bool  # true when an Idempotency-Key matched an earlier command: nothing was appended
    events: list[EventRecord]
    status: GameStatus
    to_act: list[int]
    outcome: Outcome
    view: AnyView
    clocks: list[SeatClock] | None  # null: no time control
    left: list[SeatGone]
    # The command, signed by the referee (README, "Disputes"): keep it.
    receipt: Envelope | None = None


class LegalCommandPage(Struct, frozen=True, kw_only=True):
    seat: int
    version: int
    total: int
    offset: int
    limit: int
    commands: list[AnyCommand]


# -- health ------------------------------------------------------------------------------------


class Health(Struct, frozen=True, kw_only=True):
    status: Literal["ok"]


def wire_types() -> tuple[Any, ...]:
    """The top-level request and response types, for walking every Struct the API uses."""
    return (
        AnyNewGame,
        CreatedGame,
        KindList,
        GamePage,
        GameDetail,
        EventPage,
        StateAt,
        CommandRequest,
        CommandResult,
        SitRequest,
        SeatGranted,
        LegalCommandPage,
        Health,
        Bundle,
        AuditReport,
    )

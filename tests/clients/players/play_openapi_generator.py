"""A whole game of any kind, played through the Python client that openapi-generator writes from
the committed OpenAPI document (tests/clients/test_openapi_generator_client.py generates it as
`referee_api`).

    python play_openapi_generator.py BASE_URL KIND SEATS SEED [SEATING]

SEATING is `creator` (the default: the creator is given every seat's token; the game is dealt
from SEED), or `public` or `private`: an open table, whose seed is the referee's (SEED is not
sent). Its creator does not play: each player takes a seat under a name of their own with the
client's `take_seat` (a random Idempotency-Key, the sitting retried once with it; a private
table's invitation code), and gets that seat's token alone; one tries a taken seat first, which
the client raises as a ConflictException holding the 409 problem.

Every seat to act sends the last of its legal commands, as the client typed it, until the game
is over; then every event is read back (`listEvents`, as a spectator and as seat 0) and decoded
into its own class, the last state is read, and the game is exported and its bundle verified.
Prints one JSON line. Type-checked with `mypy --strict`: no casts, no ignores.
"""

from __future__ import annotations

import json
import sys
from uuid import UUID, uuid4

from referee_api import (
    ApiClient,
    AuditApi,
    CommandRequest,
    Configuration,
    CreateGameRequest,
    EventRecord,
    GameCreated,
    GamesApi,
    HistoryApi,
    LegalCommandPage,
    NewBigManitouGame,
    NewCoyoteGame,
    NewManitouIslandGame,
    NewTribuGame,
    NewWindRiverGame,
    OpenTableRequest,
    PlayApi,
    ProblemDetails,
    SeatsApi,
    SeedRevealed,
    SitRequest,
)
from referee_api.exceptions import ConflictException

MAX_COMMANDS = 20_000  # far beyond the longest game the bots play: a stuck game fails
PAGE = 1000  # the most events listEvents answers at once
SEAT_TAKEN = "urn:referee:problem:seat-taken"

NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame


def new_game(
    kind: str, seats: int, seed: str | None, open_table: OpenTableRequest | None = None
) -> NewGame:
    if kind == "coyote":
        return NewCoyoteGame(kind="coyote", seats=seats, seed=seed, open_table=open_table)
    if kind == "big-manitou":
        return NewBigManitouGame(kind="big-manitou", seats=seats, seed=seed, open_table=open_table)
    if kind == "manitou-island":
        return NewManitouIslandGame(
            kind="manitou-island", seats=seats, seed=seed, open_table=open_table
        )
    if kind == "wind-river":
        return NewWindRiverGame(kind="wind-river", seats=seats, seed=seed, open_table=open_table)
    if kind == "tribu":
        return NewTribuGame(kind="tribu", seats=seats, seed=seed, open_table=open_table)
    raise SystemExit(f"no such kind: {kind}")


def main(base_url: str, kind: str, seats: int, seed: str, seating: str) -> dict[str, object]:
    spectator = ApiClient(Configuration(host=base_url))  # a spectator needs no credentials
    if seating == "creator":
        created = GamesApi(spectator).create_game(CreateGameRequest(new_game(kind, seats, seed)))
        game_id = created.game_id
        tokens = {item.seat: item.token for item in created.seat_tokens}
    else:
        game_id, tokens = open_table_filled(spectator, kind, seats, seating)
    players = {
        seat: ApiClient(Configuration(host=base_url, access_token=token))
        for seat, token in tokens.items()
    }
    kinds = {info.kind for info in GamesApi(spectator).list_kinds().kinds}
    if kind not in kinds:
        raise SystemExit(f"{kind} is not among the kinds: {sorted(kinds)}")
    played = 0
    shown = GamesApi(spectator).get_game(game_id)
    while not shown.outcome.finished:
        if played == MAX_COMMANDS:
            raise SystemExit(f"the game did not end within {MAX_COMMANDS} commands")
        seat = shown.to_act[0]
        page = last_legal_command(PlayApi(players[seat]), game_id)
        request = CommandRequest(command=page.commands[0], expected_version=shown.version)
        result = PlayApi(players[seat]).play_command(game_id, request)
        if result.version <= shown.version or not result.events:
            raise SystemExit(f"seat {seat}'s command appended nothing: {result}")
        played += 1
        shown = GamesApi(spectator).get_game(game_id)
    # Seat 0 reads with its token, although the read needs none (`x-optional-security`).
    as_seat = {"Authorization": f"Bearer {tokens[0]}"}
    events = every_event(HistoryApi(spectator), game_id, shown.version, {})
    if every_event(HistoryApi(spectator), game_id, shown.version, as_seat) != events:
        raise SystemExit("a seat and a spectator read different events of a finished game")
    state = HistoryApi(spectator).get_state(game_id, shown.version)
    if state.seat_views is None or len(state.seat_views) != seats:
        raise SystemExit(f"the finished game's last state shows no seat's view: {state}")
    return {
        "kind": kind,
        "commands": played,
        "seating": shown.seating,
        "names": shown.names,
        "events": len(events),
        "version": shown.version,
        "event_types": sorted({type(record.event.actual_instance).__name__ for record in events}),
        "audit": AuditApi(spectator).audit_game(game_id).verdict,
        "verdict": verified(AuditApi(spectator), game_id),
    }


def open_table_filled(
    client: ApiClient, kind: str, seats: int, visibility: str
) -> tuple[UUID, dict[int, str]]:
    """An open table its creator does not play at, each seat then taken by its own player
    ("Player 1", "Player 2"...): the game's id and each seat's token, as its player got it."""
    table = OpenTableRequest(visibility=visibility, creator=None)
    body = CreateGameRequest(new_game(kind, seats, None, table))
    created = GamesApi(client).create_game(body)
    if created.status != "waiting" or created.seat_tokens:
        raise SystemExit(f"not an open table that waits, with no token: {created}")
    code = created.invitation_code
    if (visibility == "private") != (code is not None):
        raise SystemExit(f"a {visibility} table with the invitation code {code!r}")
    game_id = created.game_id
    seats_api = SeatsApi(client)
    tokens: dict[int, str] = {}
    for seat in range(seats):
        name = f"Player {seat + 1}"
        if seat > 0:  # a taken seat first: the client raises the 409, its problem decoded
            try:
                seats_api.take_seat(game_id, SitRequest(name=name, seat=0, invitation_code=code))
            except ConflictException as conflict:
                if not isinstance(conflict.data, ProblemDetails):
                    raise SystemExit(f"a 409 without its problem: {conflict}") from None
                if conflict.data.type != SEAT_TAKEN:
                    raise SystemExit(f"a taken seat was refused as {conflict.data}") from None
            else:
                raise SystemExit(f"{name} took seat 0, which was taken")
        request = SitRequest(name=name, entropy=f"{name}'s dice", invitation_code=code)
        key = str(uuid4())  # random and secret: whoever sends it again gets the token
        granted = seats_api.take_seat(game_id, request, idempotency_key=key)
        # A retry, as after a lost answer: the same seat and token.
        again = seats_api.take_seat(game_id, request, idempotency_key=key)
        if (again.seat, again.token, again.replayed) != (granted.seat, granted.token, True):
            raise SystemExit(f"a retried sitting was not answered the first one: {again}")
        status = "active" if seat == seats - 1 else "waiting"
        if (granted.seat, granted.name, granted.status) != (seat, name, status):
            raise SystemExit(f"{name} was not seated at seat {seat} ({status}): {granted}")
        tokens[seat] = granted.token
    return game_id, tokens


def last_legal_command(player: PlayApi, game_id: UUID) -> LegalCommandPage:
    """The page that holds only the last command of the seat's list (it ends long games sooner
    than the first): one read for the list's length, one for its last command."""
    first = player.list_legal_commands(game_id, offset=0, limit=1)
    if not first.commands:
        raise SystemExit(f"no legal command: {first}")
    if first.total == 1:
        return first
    last = player.list_legal_commands(game_id, offset=first.total - 1, limit=1)
    if not last.commands:
        raise SystemExit(f"no last legal command: {last}")
    return last


def every_event(
    history: HistoryApi, game_id: UUID, version: int, headers: dict[str, str]
) -> list[EventRecord]:
    """Every event of the game, a page at a time, each decoded into its own class."""
    events: list[EventRecord] = []
    while len(events) < version:
        page = history.list_events(game_id, after=len(events), limit=PAGE, _headers=headers)
        if not page.events:
            raise SystemExit(f"no event after {len(events)} of {version}")
        events += page.events
    if [record.seq for record in events] != list(range(1, version + 1)):
        raise SystemExit("the events are not numbered 1, 2, 3 ...")
    first, last = events[0].event.actual_instance, events[-1].event.actual_instance
    if not isinstance(first, GameCreated) or not isinstance(last, SeedRevealed):
        raise SystemExit(f"not game.created first and the seed last: {first}, {last}")
    return events


def verified(audit: AuditApi, game_id: UUID) -> str:
    """The verdict on the exported bundle, sent back as the exported bytes (the answer is also
    decoded as a `Bundle`, which checks it against its schema)."""
    exported = audit.export_game_with_http_info(game_id)
    if exported.data.game_id != game_id or exported.data.status != "finished":
        raise SystemExit(f"not the finished game's bundle: {exported.data.game_id}")
    report = audit.verify_bundle(exported.raw_data, _content_type="application/octet-stream")
    return report.verdict


if __name__ == "__main__":
    base, kind, seats, seed = sys.argv[1:5]
    seating = sys.argv[5] if len(sys.argv) > 5 else "creator"
    print(json.dumps(main(base, kind, int(seats), seed, seating)))

"""A whole game of any kind, played through the Python client that openapi-generator writes from
the committed OpenAPI document (tests/clients/test_openapi_generator_client.py generates it as
`referee_api`).

    python play_openapi_generator.py BASE_URL KIND SEATS SEED

Every seat to act sends the last of its legal commands, as the client typed it, until the game
is over; then every event is read back (`listEvents`, as a spectator and as seat 0) and decoded
into its own class, the last state is read, and the game is exported and its bundle verified.
Prints one JSON line. Type-checked with `mypy --strict`: no casts, no ignores.
"""

from __future__ import annotations

import json
import sys
from uuid import UUID

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
    PlayApi,
    SeedRevealed,
)

MAX_COMMANDS = 20_000  # far beyond the longest game the bots play: a stuck game fails
PAGE = 1000  # the most events listEvents answers at once

NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame


def new_game(kind: str, seats: int, seed: str) -> NewGame:
    if kind == "coyote":
        return NewCoyoteGame(kind="coyote", seats=seats, seed=seed)
    if kind == "big-manitou":
        return NewBigManitouGame(kind="big-manitou", seats=seats, seed=seed)
    if kind == "manitou-island":
        return NewManitouIslandGame(kind="manitou-island", seats=seats, seed=seed)
    if kind == "wind-river":
        return NewWindRiverGame(kind="wind-river", seats=seats, seed=seed)
    if kind == "tribu":
        return NewTribuGame(kind="tribu", seats=seats, seed=seed)
    raise SystemExit(f"no such kind: {kind}")


def main(base_url: str, kind: str, seats: int, seed: str) -> dict[str, object]:
    spectator = ApiClient(Configuration(host=base_url))  # a spectator needs no credentials
    body = CreateGameRequest(new_game(kind, seats, seed))
    created = GamesApi(spectator).create_game(body)
    game_id = created.game_id
    tokens = {item.seat: item.token for item in created.seat_tokens}
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
        "events": len(events),
        "version": shown.version,
        "event_types": sorted({type(record.event.actual_instance).__name__ for record in events}),
        "audit": AuditApi(spectator).audit_game(game_id).verdict,
        "verdict": verified(AuditApi(spectator), game_id),
    }


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
    print(json.dumps(main(base, kind, int(seats), seed)))

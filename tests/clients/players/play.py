"""A whole game of any kind, played through the Python client generated from the committed
OpenAPI document (tests/clients/test_python_client.py generates it as `referee_client`).

    python play.py BASE_URL KIND SEATS SEED

Every seat to act sends the last of its legal commands, as the client typed it, until the game
is over; then the game is exported and its bundle verified. Prints one JSON line. Type-checked
with `mypy --strict`: no casts, no ignores, nothing untyped from the API.
"""

from __future__ import annotations

import json
import sys
from io import BytesIO
from uuid import UUID

from referee_client import AuthenticatedClient, Client
from referee_client.api.audit import export_game, verify_bundle
from referee_client.api.games import create_game, get_game
from referee_client.api.play import list_legal_commands, play_command
from referee_client.models import (
    AuditReport,
    CommandRequest,
    CommandResult,
    CreatedGame,
    GameDetail,
    LegalCommandPage,
    NewBigManitouGame,
    NewCoyoteGame,
    NewManitouIslandGame,
    NewManitouIslandGameSeats,
    NewTribuGame,
    NewWindRiverGame,
)
from referee_client.types import File

MAX_COMMANDS = 20_000  # far beyond the longest game the bots play: a stuck game fails

NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame


def new_game(kind: str, seats: int, seed: str) -> NewGame:
    if kind == "coyote":
        return NewCoyoteGame(kind="coyote", seats=seats, seed=seed)
    if kind == "big-manitou":
        return NewBigManitouGame(kind="big-manitou", seats=seats, seed=seed)
    if kind == "manitou-island":
        return NewManitouIslandGame(
            kind="manitou-island", seats=NewManitouIslandGameSeats(seats), seed=seed
        )
    if kind == "wind-river":
        return NewWindRiverGame(kind="wind-river", seats=seats, seed=seed)
    if kind == "tribu":
        return NewTribuGame(kind="tribu", seats=seats, seed=seed)
    raise SystemExit(f"no such kind: {kind}")


def main(base_url: str, kind: str, seats: int, seed: str) -> dict[str, object]:
    spectator = Client(base_url=base_url, raise_on_unexpected_status=True)
    created = create_game.sync(client=spectator, body=new_game(kind, seats, seed))
    if not isinstance(created, CreatedGame):
        raise SystemExit(f"the game was not created: {created}")
    game_id = created.game_id
    players = {
        item.seat: AuthenticatedClient(base_url=base_url, token=item.token)
        for item in created.seat_tokens
    }
    for played in range(MAX_COMMANDS):
        shown = get_game.sync(game_id, client=spectator)  # a spectator needs no credentials
        if not isinstance(shown, GameDetail):
            raise SystemExit(f"the game cannot be read: {shown}")
        if shown.outcome.finished:
            return {"kind": kind, "commands": played, "verdict": verified(spectator, game_id)}
        seat = shown.to_act[0]
        page = last_legal_command(players[seat], game_id)
        request = CommandRequest(command=page.commands[0], expected_version=shown.version)
        result = play_command.sync(game_id, client=players[seat], body=request)
        if not isinstance(result, CommandResult):
            raise SystemExit(f"seat {seat}'s legal command was refused: {result}")
    raise SystemExit(f"the game did not end within {MAX_COMMANDS} commands")


def last_legal_command(player: AuthenticatedClient, game_id: UUID) -> LegalCommandPage:
    """The page that holds only the last command of the seat's list (it ends long games sooner
    than the first): one read for the list's length, one for its last command."""
    first = list_legal_commands.sync(game_id, client=player, offset=0, limit=1)
    if not isinstance(first, LegalCommandPage) or not first.commands:
        raise SystemExit(f"no legal command: {first}")
    if first.total == 1:
        return first
    last = list_legal_commands.sync(game_id, client=player, offset=first.total - 1, limit=1)
    if not isinstance(last, LegalCommandPage) or not last.commands:
        raise SystemExit(f"no last legal command: {last}")
    return last


def verified(client: Client, game_id: UUID) -> str:
    """The verdict on the exported bundle, sent back as the exported bytes."""
    exported = export_game.sync_detailed(game_id, client=client)
    bundle = File(payload=BytesIO(exported.content), mime_type="application/octet-stream")
    report = verify_bundle.sync(client=client, body=bundle)
    if not isinstance(report, AuditReport):
        raise SystemExit(f"the bundle was not verified: {report}")
    return str(report.verdict)


if __name__ == "__main__":
    base, kind, seats, seed = sys.argv[1:5]
    print(json.dumps(main(base, kind, int(seats), seed)))

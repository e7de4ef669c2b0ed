"""A whole game of any kind, played through the Python client generated from the committed
OpenAPI document (tests/clients/test_python_client.py generates it as `referee_client`).

    python play.py BASE_URL KIND SEATS SEED [SEATING]

SEATING is `creator` (the default: the creator is given every seat's token; the game is dealt
from SEED), or `public` or `private`: an open table, whose seed is the referee's (SEED is not
sent). Its creator does not play: each player takes a seat under a name of their own with the
client's `take_seat` (a random Idempotency-Key, the sitting retried once with it; a private
table's invitation code), and gets that seat's token alone; one tries a taken seat first, which
the client answers as the 409 problem it is.

Every seat to act sends the last of its legal commands, as the client typed it, until the game
is over; then the game is exported and its bundle verified. Prints one JSON line. Type-checked
with `mypy --strict`: no casts, no ignores, nothing untyped from the API.
"""

from __future__ import annotations

import json
import sys
from io import BytesIO
from uuid import UUID, uuid4

from referee_client import AuthenticatedClient, Client
from referee_client.api.audit import export_game, verify_bundle
from referee_client.api.games import create_game, get_game
from referee_client.api.play import list_legal_commands, play_command
from referee_client.api.seats import take_seat
from referee_client.models import (
    AuditReport,
    CommandRequest,
    CommandResult,
    CreatedGame,
    CreatedGameStatus,
    GameDetail,
    LegalCommandPage,
    NewBigManitouGame,
    NewCoyoteGame,
    NewManitouIslandGame,
    NewManitouIslandGameSeats,
    NewTribuGame,
    NewWindRiverGame,
    OpenTableRequest,
    OpenTableRequestVisibility,
    ProblemDetails,
    SeatGranted,
    SeatGrantedStatus,
    SitRequest,
)
from referee_client.types import UNSET, File, Unset

MAX_COMMANDS = 20_000  # far beyond the longest game the bots play: a stuck game fails
SEAT_TAKEN = "urn:referee:problem:seat-taken"

NewGame = NewBigManitouGame | NewCoyoteGame | NewManitouIslandGame | NewTribuGame | NewWindRiverGame


def new_game(
    kind: str, seats: int, seed: str | Unset, open_table: OpenTableRequest | Unset = UNSET
) -> NewGame:
    if kind == "coyote":
        return NewCoyoteGame(kind="coyote", seats=seats, seed=seed, open_table=open_table)
    if kind == "big-manitou":
        return NewBigManitouGame(kind="big-manitou", seats=seats, seed=seed, open_table=open_table)
    if kind == "manitou-island":
        return NewManitouIslandGame(
            kind="manitou-island",
            seats=NewManitouIslandGameSeats(seats),
            seed=seed,
            open_table=open_table,
        )
    if kind == "wind-river":
        return NewWindRiverGame(kind="wind-river", seats=seats, seed=seed, open_table=open_table)
    if kind == "tribu":
        return NewTribuGame(kind="tribu", seats=seats, seed=seed, open_table=open_table)
    raise SystemExit(f"no such kind: {kind}")


def main(base_url: str, kind: str, seats: int, seed: str, seating: str) -> dict[str, object]:
    spectator = Client(base_url=base_url, raise_on_unexpected_status=True)
    if seating == "creator":
        created = create_game.sync(client=spectator, body=new_game(kind, seats, seed))
        if not isinstance(created, CreatedGame):
            raise SystemExit(f"the game was not created: {created}")
        game_id = created.game_id
        tokens = {item.seat: item.token for item in created.seat_tokens}
    else:
        game_id, tokens = open_table_filled(spectator, kind, seats, seating)
    players = {
        seat: AuthenticatedClient(base_url=base_url, token=token) for seat, token in tokens.items()
    }
    for played in range(MAX_COMMANDS):
        shown = get_game.sync(game_id, client=spectator)  # a spectator needs no credentials
        if not isinstance(shown, GameDetail):
            raise SystemExit(f"the game cannot be read: {shown}")
        if shown.outcome.finished:
            return {
                "kind": kind,
                "commands": played,
                "verdict": verified(spectator, game_id),
                "seating": str(shown.seating),
                "names": None if isinstance(shown.names, Unset) else shown.names,
            }
        seat = shown.to_act[0]
        page = last_legal_command(players[seat], game_id)
        request = CommandRequest(command=page.commands[0], expected_version=shown.version)
        result = play_command.sync(game_id, client=players[seat], body=request)
        if not isinstance(result, CommandResult):
            raise SystemExit(f"seat {seat}'s legal command was refused: {result}")
    raise SystemExit(f"the game did not end within {MAX_COMMANDS} commands")


def open_table_filled(
    client: Client, kind: str, seats: int, visibility: str
) -> tuple[UUID, dict[int, str]]:
    """An open table its creator does not play at, each seat then taken by its own player
    ("Player 1", "Player 2"...): the game's id and each seat's token, as its player got it."""
    table = OpenTableRequest(visibility=OpenTableRequestVisibility(visibility), creator=None)
    created = create_game.sync(client=client, body=new_game(kind, seats, UNSET, table))
    if not isinstance(created, CreatedGame):
        raise SystemExit(f"the table was not opened: {created}")
    if created.status != CreatedGameStatus.WAITING or created.seat_tokens:
        raise SystemExit(f"not an open table that waits, with no token: {created}")
    code = created.invitation_code
    if (visibility == "private") != isinstance(code, str):
        raise SystemExit(f"a {visibility} table with the invitation code {code!r}")
    game_id = created.game_id
    tokens: dict[int, str] = {}
    for seat in range(seats):
        name = f"Player {seat + 1}"
        if seat > 0:  # a taken seat first: the client's typed 409 problem
            taken = take_seat.sync_detailed(
                game_id, client=client, body=SitRequest(name=name, seat=0, invitation_code=code)
            )
            problem = taken.parsed
            if not isinstance(problem, ProblemDetails) or problem.type_ != SEAT_TAKEN:
                raise SystemExit(f"a taken seat was answered {taken.status_code}: {problem}")
        request = SitRequest(name=name, entropy=f"{name}'s dice", invitation_code=code)
        key = str(uuid4())  # random and secret: whoever sends it again gets the token
        granted = sat(client, game_id, request, key)
        again = sat(client, game_id, request, key)  # a retry, as after a lost answer
        if (again.seat, again.token, again.replayed) != (granted.seat, granted.token, True):
            raise SystemExit(f"a retried sitting was not answered the first one: {again}")
        last = seat == seats - 1
        status = SeatGrantedStatus.ACTIVE if last else SeatGrantedStatus.WAITING
        if (granted.seat, granted.name, granted.status) != (seat, name, status):
            raise SystemExit(f"{name} was not seated at seat {seat} ({status}): {granted}")
        tokens[seat] = granted.token
    return game_id, tokens


def sat(client: Client, game_id: UUID, request: SitRequest, key: str) -> SeatGranted:
    """A seat taken, or given again (`replayed`) to a retry with the same Idempotency-Key."""
    answer = take_seat.sync(game_id, client=client, body=request, idempotency_key=key)
    if not isinstance(answer, SeatGranted):
        raise SystemExit(f"no seat for {request.name}: {answer}")
    return answer


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
    seating = sys.argv[5] if len(sys.argv) > 5 else "creator"
    print(json.dumps(main(base, kind, int(seats), seed, seating)))

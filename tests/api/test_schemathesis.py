"""Schemathesis over the committed openapi/openapi.json, against the app in this process.

Every operation is fuzzed (schema-valid and schema-breaking requests); the game operations run
against a real game with real seat tokens, so commands reach the rules. Zero server errors and
zero schema violations are expected.
"""

from __future__ import annotations

import uuid
from itertools import count
from pathlib import Path
from typing import ClassVar

import pytest
import schemathesis
from litestar import Litestar
from schemathesis import Case, CheckContext, Response
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from api.config import Settings
from tests.api.helpers import PROBLEM, Client, Game, create_game

COMMITTED = Path(__file__).parents[2] / "openapi" / "openapi.json"
ACCEPTED = {200, 201, 401, 403, 404, 409}
# A schema cannot say which commands the rules allow now, nor that a cursor must be one the
# list handed out: these refusals of schema-valid requests are the only ones expected.
SEMANTIC_REFUSALS = {
    400: {PROBLEM + "wrong-kind", PROBLEM + "invalid-cursor"},
    422: {PROBLEM + "rule-violation", PROBLEM + "idempotency-key-reused"},
}


def schema_valid_requests_are_accepted_or_refused_by_the_rules(
    ctx: CheckContext, response: Response, case: Case
) -> bool | None:
    """Schemathesis's positive_data_acceptance, knowing what only the rules can refuse."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if status in ACCEPTED:
        return None
    allowed = SEMANTIC_REFUSALS.get(status, set())
    problem_type = response.json().get("type") if status in SEMANTIC_REFUSALS else None
    assert problem_type in allowed, f"a schema-valid request got {status}: {response.text}"
    return None


@pytest.fixture(scope="module")
def fuzzed_app(settings: Settings) -> Litestar:
    """An app of its own: schemathesis runs it (lifespan included) on its own event loop."""
    return create_app(settings)


@pytest.fixture(scope="module")
async def fuzzed_game(client: Client) -> Game:
    game = await create_game(client, seats=3, options={"shaman": True})
    SeatTokens.tokens[:] = [game.tokens[seat] for seat in sorted(game.tokens)]
    return game


schema = schemathesis.openapi.from_path(
    COMMITTED,
    config=schemathesis.Config.from_dict({"seed": 20261122, "generation": {"max-examples": 30}}),
).exclude(operation_id="streamEvents")  # an event stream does not end: tests/live covers it


class SeatTokens:
    """Schemathesis's auth for the fixture game's operations.

    Schemathesis builds some cases while collecting, before any fixture (and so before the
    game) exists: those carry a placeholder that `aim_at_the_game` swaps for a real token.
    Seats take turns, so that some commands come from the seat to act.
    """

    PLACEHOLDER = "Bearer seat-token-of-the-fixture-game"
    tokens: ClassVar[list[str]] = []  # filled by the `fuzzed_game` fixture
    _turn = count()

    @classmethod
    def next_header(cls) -> str:
        if not cls.tokens:
            return cls.PLACEHOLDER
        return f"Bearer {cls.tokens[next(cls._turn) % len(cls.tokens)]}"

    def get(self, case: Case, context: schemathesis.AuthContext) -> str:
        return self.next_header()

    def set(self, case: Case, data: str, context: schemathesis.AuthContext) -> None:
        case.headers = {**(case.headers or {}), "Authorization": data}


schema.auth(refresh_interval=None, retry_on=[])(SeatTokens)


def aim_at_the_game(case: Case, game: Game) -> None:
    """Send the case to the fixture game, unless its game id is itself the broken part."""
    game_id = (case.path_parameters or {}).get("game_id")
    if isinstance(game_id, str) and _is_uuid(game_id):
        case.path_parameters = {**(case.path_parameters or {}), "game_id": game.id}
    if (case.headers or {}).get("Authorization") == SeatTokens.PLACEHOLDER:
        case.headers = {**(case.headers or {}), "Authorization": SeatTokens.next_header()}


def _is_uuid(value: str) -> bool:
    try:
        return str(uuid.UUID(value)) == value
    except ValueError:
        return False


@schema.parametrize()
def test_the_api_keeps_its_contract(case: Case, fuzzed_app: Litestar, fuzzed_game: Game) -> None:
    aim_at_the_game(case, fuzzed_game)
    case.operation.schema.app = fuzzed_app  # for schemathesis's own probes (auth checks) too
    case.call_and_validate(
        app=fuzzed_app,
        excluded_checks=[positive_data_acceptance],
        additional_checks=[schema_valid_requests_are_accepted_or_refused_by_the_rules],
    )

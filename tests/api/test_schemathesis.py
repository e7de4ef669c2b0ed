"""Schemathesis over the committed openapi/openapi.json, against the app in this process.

Every operation is fuzzed (schema-valid and schema-breaking requests) with every check
schemathesis has, the response time's included; positive_data_acceptance is replaced by a
version of it that knows what only the rules can refuse. The game operations run against one
real game of every kind with real seat tokens, so commands reach the rules. Zero server errors
and zero schema violations are expected.

`make test` runs FUZZ_EXAMPLES (30) examples per operation; `make fuzz` runs 1,000 and more
(REFEREE_FUZZ_EXAMPLES), which found what the smaller run missed.
"""

from __future__ import annotations

import os
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
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
    # A cursor or a pair of checkpoint sizes the schema cannot relate to what exists.
    400: {PROBLEM + "wrong-kind", PROBLEM + "invalid-cursor", PROBLEM + "checkpoint-order"},
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
    if case.operation.path == "/v1/audits" and status == 400:
        # The upload is bytes (format: binary): only an exported bundle's bytes are a bundle,
        # which no schema can say. Malformed files must still be a clear 400.
        assert response.json()["type"] == PROBLEM + "malformed-request", response.text
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
async def fuzzed_games(client: Client) -> dict[str, Game]:
    """One game of every kind, so that every game's commands reach its rules."""
    kinds = (await client.get("/v1/kinds")).json()["kinds"]
    games = {
        kind["kind"]: await create_game(client, kind=kind["kind"], seats=kind["min_seats"])
        for kind in kinds
    }
    SeatTokens.by_game = {game.id: list(game.tokens.values()) for game in games.values()}
    SeatTokens.tokens[:] = [token for game in games.values() for token in game.tokens.values()]
    return games


FUZZ_EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "30"))  # per operation
MAX_RESPONSE_SECONDS = 30  # a generous bound: the check catches a request that hangs

schema = schemathesis.openapi.from_path(
    COMMITTED,
    config=schemathesis.Config.from_dict(
        {
            "seed": 20261122,
            "generation": {"max-examples": FUZZ_EXAMPLES},
            "checks": {"max_response_time": MAX_RESPONSE_SECONDS},
        }
    ),
).exclude(operation_id="streamEvents")  # an event stream does not end: tests/live covers it


class SeatTokens:
    """Schemathesis's auth for the fixture game's operations.

    Schemathesis builds some cases while collecting, before any fixture (and so before the
    game) exists: those carry a placeholder that `aim_at_the_game` swaps for a real token.
    Seats take turns, so that some commands come from the seat to act.
    """

    PLACEHOLDER = "Bearer seat-token-of-the-fixture-game"
    tokens: ClassVar[list[str]] = []  # every fixture game's, filled by `fuzzed_games`
    by_game: ClassVar[dict[str, list[str]]] = {}
    _turn = count()

    @classmethod
    def next_header(cls, game_id: str | None = None) -> str:
        tokens = cls.by_game.get(game_id, cls.tokens) if game_id else cls.tokens
        if not tokens:
            return cls.PLACEHOLDER
        return f"Bearer {tokens[next(cls._turn) % len(tokens)]}"

    @classmethod
    def is_ours(cls, header: str | None) -> bool:
        """The placeholder or a real token: not a header schemathesis broke on purpose."""
        return header == cls.PLACEHOLDER or header in {f"Bearer {t}" for t in cls.tokens}

    def get(self, case: Case, context: schemathesis.AuthContext) -> str:
        return self.next_header()

    def set(self, case: Case, data: str, context: schemathesis.AuthContext) -> None:
        case.headers = {**(case.headers or {}), "Authorization": data}


schema.auth(refresh_interval=None, retry_on=[])(SeatTokens)


def aim_at_the_game(case: Case, games: dict[str, Game]) -> None:
    """Send the case to the fixture game of its command's kind (else any), with that game's
    token, unless the game id or the token is itself the broken part."""
    game = games.get(_command_kind(case.body)) or list(games.values())[next(_rotation) % len(games)]
    game_id = (case.path_parameters or {}).get("game_id")
    if isinstance(game_id, str) and _is_uuid(game_id):
        case.path_parameters = {**(case.path_parameters or {}), "game_id": game.id}
    if SeatTokens.is_ours((case.headers or {}).get("Authorization")):
        case.headers = {**(case.headers or {}), "Authorization": SeatTokens.next_header(game.id)}


_rotation = count()


def _command_kind(body: object) -> str | None:
    command = body.get("command") if isinstance(body, dict) else None
    kind = command.get("type") if isinstance(command, dict) else None
    return kind.rsplit(".", 1)[0] if isinstance(kind, str) and "." in kind else None


def _is_uuid(value: str) -> bool:
    try:
        return str(uuid.UUID(value)) == value
    except ValueError:
        return False


@schema.parametrize()
def test_the_api_keeps_its_contract(
    case: Case, fuzzed_app: Litestar, fuzzed_games: dict[str, Game]
) -> None:
    aim_at_the_game(case, fuzzed_games)
    case.operation.schema.app = fuzzed_app  # for schemathesis's own probes (auth checks) too
    response = case.call_and_validate(
        app=fuzzed_app,
        excluded_checks=[positive_data_acceptance],
        additional_checks=[schema_valid_requests_are_accepted_or_refused_by_the_rules],
    )
    SENT[case.operation.label][response.status_code] += 1


SENT: dict[str, Counter[int]] = defaultdict(Counter)  # operation -> status -> requests


@pytest.fixture(scope="module", autouse=True)
def figures(request: pytest.FixtureRequest) -> Iterator[None]:
    """After the run, the requests sent per operation and what they were answered."""
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin("capturemanager")
    if reporter is None or capture is None or not SENT:
        return
    with capture.global_and_fixture_disabled():  # teardown output is captured otherwise
        reporter.write_line(f"\nrequests per operation ({FUZZ_EXAMPLES} examples asked):")
        for label, statuses in sorted(SENT.items()):
            answers = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
            reporter.write_line(f"  {label}: {statuses.total()} ({answers})")

"""Verification of a recorded game: pure, on a bundle, with no database and no server.

    report = verify_file(data, REGISTRY)   # a bundle file as exported (MalformedBundle if not one)
    report = verify(bundle, REGISTRY)      # a bundle built from the store (api.audit)

The same checks serve `GET /v1/games/{id}/audit`, `POST /v1/audits` and the offline command
`referee verify game.json` (also `python -m api.verify game.json`).
"""

from api.bundle import Bundle, MalformedBundle, read_bundle
from api.verify.records import (
    check_chain,
    check_creation,
    check_file,
    check_seed,
    check_stream,
    revealed_seed,
)
from api.verify.reexecution import reexecute
from api.verify.report import AuditReport, CheckResult, overall
from api.verify.rules import find_rules, replay, skipped_without_rules
from referee.kernel.registry import Registry

__all__ = ["AuditReport", "CheckResult", "MalformedBundle", "verify", "verify_file"]


def verify_file(data: bytes, registry: Registry) -> AuditReport:
    """Every check on a bundle file, starting with the file itself. MalformedBundle if the bytes
    are not a bundle at all."""
    bundle = read_bundle(data)
    return verify(bundle, registry, file_check=check_file(data, bundle))


def verify(
    bundle: Bundle, registry: Registry, *, file_check: CheckResult | None = None
) -> AuditReport:
    """Every check on `bundle`; those that need the seed are skipped while the game runs."""
    checks = [] if file_check is None else [file_check]
    rules_check, game = find_rules(bundle, registry)
    stream = check_stream(bundle)
    checks += [rules_check, check_creation(bundle), stream, check_chain(bundle), check_seed(bundle)]
    outcome = None
    if game is None:
        checks += skipped_without_rules()
    else:
        replay_check, replayed = replay(bundle, game)
        recorded = None if replayed is None else replayed.played
        stream_ok = stream.verdict == "passed"
        checks += [
            replay_check,
            *reexecute(bundle, game, revealed_seed(bundle), recorded, stream_ok),
        ]
        outcome = None if replayed is None else replayed.outcome
    verdict, first_bad_seq = overall(checks)
    return AuditReport(
        game_id=bundle.game_id,
        kind=bundle.kind,
        rules_version=bundle.rules_version,
        status=bundle.status,
        version=bundle.version,
        head_hash=bundle.events[-1].hash if bundle.events and bundle.seed is not None else None,
        verdict=verdict,
        first_bad_seq=first_bad_seq,
        outcome=outcome,
        checks=tuple(checks),
    )

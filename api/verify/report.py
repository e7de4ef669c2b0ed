"""The audit report: one verdict per check, and the first event that fails any of them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

from api.ids import GameId
from referee.kernel import Outcome

Verdict = Literal["passed", "failed", "partial", "skipped"]
OverallVerdict = Literal["passed", "failed", "partial"]


class CheckResult(msgspec.Struct, frozen=True, kw_only=True):
    id: str  # stable: "hash-chain", "re-execution", ...
    title: str  # what the check proves when it passes
    verdict: Verdict  # partial: passed on what could be checked; skipped: could not run
    detail: str  # what was found, or why the check was skipped
    first_bad_seq: int | None = None  # the first event it finds wrong (or missing)


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    game_id: GameId
    kind: str
    rules_version: str
    status: str
    version: int
    # The last event's hash as recorded, to compare with the one you saw; null while the game
    # runs, when a hash of an event holding a hidden value could give that value away by trial.
    head_hash: str | None
    verdict: OverallVerdict  # failed if any check failed; partial if any was partial or skipped
    first_bad_seq: int | None  # the smallest first_bad_seq of the failed checks
    outcome: Outcome | None  # where the recorded events lead, if they fold
    checks: tuple[CheckResult, ...]


class Check:
    """One kind of check: its id and title, and constructors for its results."""

    def __init__(self, check_id: str, title: str) -> None:
        self.id = check_id
        self.title = title

    def passed(self, detail: str) -> CheckResult:
        return CheckResult(id=self.id, title=self.title, verdict="passed", detail=detail)

    def failed(self, detail: str, seq: int | None = None) -> CheckResult:
        return CheckResult(
            id=self.id, title=self.title, verdict="failed", detail=detail, first_bad_seq=seq
        )

    def partial(self, detail: str) -> CheckResult:
        return CheckResult(id=self.id, title=self.title, verdict="partial", detail=detail)

    def skipped(self, reason: str) -> CheckResult:
        return CheckResult(id=self.id, title=self.title, verdict="skipped", detail=reason)


def overall(checks: Iterable[CheckResult]) -> tuple[OverallVerdict, int | None]:
    """The report's verdict and first bad seq."""
    results = list(checks)
    failed = [check for check in results if check.verdict == "failed"]
    if failed:
        seqs = [check.first_bad_seq for check in failed if check.first_bad_seq is not None]
        return "failed", min(seqs, default=None)
    if all(check.verdict == "passed" for check in results):
        return "passed", None
    return "partial", None

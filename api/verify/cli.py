"""`referee verify FILE` (or `python -m api.verify FILE`): verify a game bundle offline.

Exit status: 0 every check passed; 1 a check failed; 2 the file is unreadable or not a bundle;
3 nothing failed but some checks could not run (a bundle of a game still running).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec

from api.verify import AuditReport, MalformedBundle, verify_file
from api.verify.report import OverallVerdict

EXIT_STATUS: dict[OverallVerdict, int] = {"passed": 0, "failed": 1, "partial": 3}
EXIT_UNREADABLE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bundle", help="the bundle file (GET /v1/games/{id}/export); - for stdin")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from referee.games import REGISTRY

    try:
        data = sys.stdin.buffer.read() if args.bundle == "-" else Path(args.bundle).read_bytes()
        report = verify_file(data, REGISTRY)
    except (OSError, MalformedBundle) as error:
        print(f"referee verify: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(report)).decode() + "\n")
    else:
        sys.stdout.write(render(report))
    return EXIT_STATUS[report.verdict]


def render(report: AuditReport) -> str:
    """The report for a terminal: a headline, then one paragraph per check."""
    where = "" if report.first_bad_seq is None else f", first bad event {report.first_bad_seq}"
    lines = [
        f"{report.kind} game {report.game_id}, rules {report.rules_version}, {report.status}, "
        f"{report.version} events",
        f"head hash {report.head_hash}",
        f"verdict: {report.verdict.upper()}{where}",
        "",
    ]
    for check in report.checks:
        at = "" if check.first_bad_seq is None else f" (event {check.first_bad_seq})"
        lines += [f"{check.verdict.upper():8} {check.id}{at}", f"    {check.title}"]
        lines += [f"    -> {check.detail}", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m api.verify", description="Verify a game bundle offline."
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))

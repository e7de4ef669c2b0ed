"""`referee verify FILE` (or `python -m api.verify FILE`): verify a game bundle offline; with
`--keys`, also against the receipts a player kept (`--receipts`) and the checkpoint log's proof
for the game (`--log`, and `--checkpoint` for a checkpoint kept earlier).
`referee verify-checkpoints PAIR --keys KEYS`: that a checkpoint extends an earlier one.
`referee verify-log LEAVES --keys KEYS --checkpoint KEPT [--game ID]`: that the log's leaves
rebuild a kept checkpoint, and what they hold of a game (one the server no longer has, say).

Exit status: 0 every check passed; 1 a check failed; 2 a file is unreadable or not what it should
be (a receipt not signed by a listed key is no evidence); 3 nothing failed but some checks could
not run (a bundle of a game still running); 4 a receipt or the checkpoint log contradicts the
bundle: the record was changed after the referee signed for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import msgspec

from api.bundle import Bundle, read_bundle
from api.checkpoints import CheckpointPair, GameInLog
from api.signing import Envelope
from api.verify import AuditReport, MalformedBundle, verify
from api.verify.receipts import (
    UnusableProof,
    check_leaves,
    check_log,
    check_pair,
    check_receipts,
    heads_in,
    not_rebuilt,
    read_keys,
    read_leaves,
    read_receipts,
    rebuilds,
    signed_checkpoint,
    signed_receipts,
)
from api.verify.records import check_file
from api.verify.report import CheckResult, OverallVerdict, overall

T = TypeVar("T")
EXIT_STATUS: dict[OverallVerdict, int] = {"passed": 0, "failed": 1, "partial": 3}
EXIT_UNREADABLE = 2
EXIT_CHANGED = 4  # a receipt or the checkpoint log contradicts the bundle
PROOF_CHECKS = ("receipts", "checkpoint-log", "checkpoint-leaves")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bundle", help="the bundle file (GET /v1/games/{id}/export); - for stdin")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--keys", type=Path, help="the referee's public keys (GET /v1/keys), kept beforehand"
    )
    parser.add_argument(
        "--receipts",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE",
        help="receipts the referee gave (one, a list, or a file `referee bot` kept)",
    )
    parser.add_argument(
        "--log", type=Path, help="the game's proof in a checkpoint (GET /v1/games/{id}/inclusion)"
    )
    parser.add_argument(
        "--leaves",
        type=Path,
        help="the log's leaves up to --checkpoint (GET /v1/checkpoints/leaves, every page): "
        "every head of the game among them, found by what the leaves say",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="a checkpoint you kept (GET /v1/checkpoints/latest): the --log proof must extend "
        "it, the --leaves must rebuild it",
    )


def add_log_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "leaves", type=Path, help="the log's leaves (GET /v1/checkpoints/leaves, every page)"
    )
    parser.add_argument("--keys", type=Path, required=True, help="the keys (GET /v1/keys)")
    parser.add_argument(
        "--checkpoint", type=Path, required=True, help="a checkpoint you kept: the leaves' root"
    )
    parser.add_argument("--game", help="a game's id: its heads in the log")


def add_pair_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "pair", type=Path, help="two checkpoints and their proof (GET /v1/checkpoints/consistency)"
    )
    parser.add_argument("--keys", type=Path, required=True, help="the keys (GET /v1/keys)")
    parser.add_argument(
        "--checkpoint", type=Path, help="a checkpoint you kept: the pair must start from it"
    )


def run(args: argparse.Namespace) -> int:
    from referee.games import REGISTRY

    try:
        data = sys.stdin.buffer.read() if args.bundle == "-" else Path(args.bundle).read_bytes()
        bundle = read_bundle(data)
        report = verify(bundle, REGISTRY, file_check=check_file(data, bundle))
        report = _with_proofs(report, bundle, args)
    except (OSError, MalformedBundle, UnusableProof) as error:
        print(f"referee verify: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    if args.json:
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(report)).decode() + "\n")
    else:
        sys.stdout.write(render(report))
    if any(check.id in PROOF_CHECKS and check.verdict == "failed" for check in report.checks):
        return EXIT_CHANGED
    return EXIT_STATUS[report.verdict]


def run_pair(args: argparse.Namespace) -> int:
    try:
        keys = read_keys(args.keys.read_bytes(), str(args.keys))
        pair = _decoded(args.pair, CheckpointPair)
        kept = None if args.checkpoint is None else _decoded(args.checkpoint, Envelope)
        extends, detail = check_pair(pair, keys, str(args.pair), kept)
    except (OSError, UnusableProof) as error:
        print(f"referee verify-checkpoints: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(detail)
    return 0 if extends else EXIT_CHANGED


def run_log(args: argparse.Namespace) -> int:
    """0: the leaves rebuild the kept checkpoint (and hold the --game asked about); 4: they do
    not rebuild it; 1: they hold no head of that game."""
    try:
        keys = read_keys(args.keys.read_bytes(), str(args.keys))
        kept = signed_checkpoint(_decoded(args.checkpoint, Envelope), keys, str(args.checkpoint))
        leaves = read_leaves(args.leaves.read_bytes(), str(args.leaves))
        if not rebuilds(leaves, kept, str(args.leaves)):
            print(not_rebuilt(kept))
            return EXIT_CHANGED
    except (OSError, UnusableProof) as error:
        print(f"referee verify-log: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(
        f"The log's first {kept.size} leaves rebuild the root of checkpoint {kept.size}, "
        f"signed {kept.signed_at.isoformat()}."
    )
    if args.game is None:
        return 0
    heads = heads_in(leaves[: kept.size], args.game)
    if not heads:
        print(f"They hold no head of game {args.game}.")
        return EXIT_STATUS["failed"]
    print(f"Game {args.game} is in the log, whatever the server says of it now:")
    for head in heads:
        item = head.statement
        print(
            f"  leaf {head.index}: version {item.version}, {item.status}, event {item.version} "
            f"recorded {item.recorded_at.isoformat()}, pin {item.head}"
        )
    return 0


def _with_proofs(report: AuditReport, bundle: Bundle, args: argparse.Namespace) -> AuditReport:
    """The report with the receipts and log checks, when receipts or a log proof are given."""
    if not args.receipts and args.log is None and args.leaves is None:
        if args.checkpoint is not None:
            raise UnusableProof("--checkpoint is held against --log or --leaves: give one")
        return report
    if args.leaves is not None and args.checkpoint is None:
        raise UnusableProof("--leaves are held against a checkpoint you kept: --checkpoint FILE")
    if args.keys is None:
        raise UnusableProof(
            "--receipts, --log and --leaves need the referee's public keys: --keys FILE"
        )
    keys = read_keys(args.keys.read_bytes(), str(args.keys))
    checks: list[CheckResult] = []
    if args.receipts:
        files = [(str(path), read_receipts(path.read_bytes(), str(path))) for path in args.receipts]
        checks.append(check_receipts(bundle, signed_receipts(files, keys, bundle.game_id)))
    if args.log is not None:
        proof = _decoded(args.log, GameInLog)
        kept = None if args.checkpoint is None else _decoded(args.checkpoint, Envelope)
        checks.append(check_log(bundle, proof, keys, kept, str(args.log)))
    if args.leaves is not None:
        kept_checkpoint = signed_checkpoint(
            _decoded(args.checkpoint, Envelope), keys, str(args.checkpoint)
        )
        leaves = read_leaves(args.leaves.read_bytes(), str(args.leaves))
        checks.append(check_leaves(bundle, leaves, kept_checkpoint))
    every = (*report.checks, *checks)
    verdict, first_bad_seq = overall(every)
    return msgspec.structs.replace(
        report, checks=every, verdict=verdict, first_bad_seq=first_bad_seq
    )


def _decoded(path: Path, kind: type[T]) -> T:
    try:
        return msgspec.json.decode(path.read_bytes(), type=kind)
    except ValueError as error:
        raise UnusableProof(f"{path}: not a {kind.__name__}: {error}") from None


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


def main_log(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="referee verify-log",
        description="Verify offline that the log's leaves rebuild a checkpoint you kept.",
    )
    add_log_arguments(parser)
    return run_log(parser.parse_args(argv))


def main_pair(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="referee verify-checkpoints",
        description="Verify offline that a checkpoint extends an earlier one.",
    )
    add_pair_arguments(parser)
    return run_pair(parser.parse_args(argv))

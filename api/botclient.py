"""`referee bot`: one seat of a game, played over HTTP with nothing but the public API.

The bot reads the game as its seat sees it (`GET /v1/games/{id}` with the seat's token), and
when its seat is to act reads the legal commands, lets `referee.kernel.bots.choose` pick one
and sends it with the version it saw and an Idempotency-Key. When it is not its turn it waits
on the game's event stream for the next event, then reads the game again. The registry's game
object serves only to decode the view and the commands into the game's own types and to choose:
the bot knows nothing its seat could not learn from the API.

Nothing is missed: each decision starts from where the server last said the game stands (a
read, or the answer to the bot's own command). The stream, kept open from one wait to the next,
was opened after a version the bot knew (`Last-Event-ID`), so every event since is on it, and
a wait ends at the first one past the version the bot knows. A dropped stream is the same as an
event: read again, open again after that read.

A bot may also take its own seat at an open table (`join_and_play`): it sits under a name
(`POST /v1/games/{id}/seats`, with a random Idempotency-Key, so that a retried sitting is
answered the same seat and token), then plays that seat as above. While the table waits for
players nobody is to act: the bot waits on the stream, each sitting an event, until the deal.
Interrupted while the table still waits, it gets up again, so that its seat is open to others.

The bot keeps every receipt the referee gives its seat (README, "Disputes"): its sitting's, each
command's, and a head receipt (`GET /v1/games/{id}/receipt`) at the end. With a receipts
directory it writes them there, `receipts-<game>-seat<n>.json`, and names the file when it
stops. (A receipt at every version would let a dispute name the very event that differs; one per
command of the seat brackets it between two of its commands, for one request less a turn.)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
import msgspec

from api.signing import Envelope
from api.sse import Message, messages
from referee.games import REGISTRY
from referee.kernel import NoLegalCommand, Outcome, Seat
from referee.kernel.bots import BotGame, Strategy, candidate_indices, choose
from referee.kernel.registry import UnknownKind, UnknownRulesVersion

PAGE = 1000  # the API's largest page of legal commands
FIRST_PAGE = 100  # most lists fit in it: one read; past it, the total says what to read next
GREEDY_READ = 2 * PAGE  # greedy reads a whole list this long; past it, a sample of CANDIDATES
MAX_REFUSALS = 5  # the game moved under the bot this many times in a row: something is wrong
OUT_OF_TIME = "kernel.out-of-time"  # the refusal of a move sent once the seat's time ran out
REQUEST_SECONDS = 30.0
# A stream silent this long (the server's heartbeats default to 15 s) is taken for dead: the
# bot reads the game again and opens another.
STREAM_IDLE_SECONDS = 60.0
STREAM_RETRY_SECONDS = 1.0  # the pause after a dropped stream, as the server's `retry` asks
PATIENCE_SECONDS = 30.0  # how long the bot waits for a server it has lost (a restart)
BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0)  # between retries of a failed request, then the last
UNAVAILABLE = frozenset({502, 503, 504})  # a server restarting or full: retried, as a dropped one
MOVED = frozenset({"version-conflict", "concurrent-update", "rule-violation", "game-over"})
ANY_TABLE = "any"  # `--join any`: the newest public table of a kind that waits for players
LISTED = 100  # the API's largest page of games: the waiting tables a `--join any` looks at
# Refusals of a sitting that `--join any` passes over, to try the next table: it was filled,
# cancelled or sat at by someone of the same name since it was listed.
PASSED_OVER = frozenset({"not-found", "seat-taken", "game-over"})
PASSED_OVER_RULES = frozenset({"kernel.table-not-waiting", "kernel.name-taken"})
LEAVE_SECONDS = 5.0  # how long an interrupted bot tries to get up from a waiting table


T = TypeVar("T")


class BotError(Exception):
    """Why the bot stopped, in one line for the person who started it; and where the receipts
    it was given until then were kept, if they were."""

    receipts: Path | None = None


class _Seen(msgspec.Struct, frozen=True, kw_only=True):
    """What the bot reads of a game (`GameDetail`); the view is decoded once the kind is known."""

    kind: str
    rules_version: str
    seats: int
    status: str
    version: int
    to_act: list[int]
    outcome: Outcome
    seat: int | None
    view: msgspec.Raw


class _Played(msgspec.Struct, frozen=True, kw_only=True):
    """What the bot reads of a command's answer (`CommandResult`): where the game now stands."""

    status: str
    version: int
    to_act: list[int]
    outcome: Outcome
    view: msgspec.Raw
    receipt: Envelope | None = None  # the command's, signed by the referee


class _LegalPage(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    total: int
    commands: list[msgspec.Raw]


class _Granted(msgspec.Struct, frozen=True, kw_only=True):
    """What the bot reads of a sitting's answer (`SeatGranted`): its seat and that seat's token."""

    game_id: str
    seat: int
    token: str
    status: str
    receipt: Envelope | None = None  # the sitting's, signed by the referee


class _Listed(msgspec.Struct, frozen=True, kw_only=True):
    """What `--join any` reads of a listed game (`GameSummary`)."""

    game_id: str
    open_seats: list[int] = msgspec.field(default_factory=list)


class _GamePage(msgspec.Struct, frozen=True, kw_only=True):
    games: list[_Listed]


@dataclass(frozen=True)
class Join:
    """Where and as whom a bot sits: `game` is a table's id, or ANY_TABLE (then `kind` says of
    which kind). `seat` None: the first open one."""

    game: str
    name: str
    kind: str | None = None  # with ANY_TABLE: only a table of this kind (None: of any)
    invitation_code: str | None = None
    entropy: str = ""
    seat: int | None = None

    def body(self) -> bytes:
        """The sitting's request (`SitRequest`): the same bytes on every retry of it."""
        sit: dict[str, object] = {"name": self.name, "entropy": self.entropy}
        if self.seat is not None:
            sit["seat"] = self.seat
        if self.invitation_code is not None:
            sit["invitation_code"] = self.invitation_code
        return msgspec.json.encode(sit)


@dataclass(frozen=True)
class Summary:
    """How the game ended for the bot's seat."""

    game_id: str
    kind: str
    seat: Seat
    outcome: Outcome
    version: int
    commands_sent: int
    receipts: Path | None = None  # where the seat's receipts were kept

    def line(self) -> str:
        winners = ", ".join(map(str, self.outcome.winners)) or "none"
        place = next(
            (i + 1 for i, group in enumerate(self.outcome.ranking) if self.seat in group), None
        )
        placed = "" if place is None else f", place {place} of {len(self.outcome.ranking)}"
        result = "won" if self.seat in self.outcome.winners else "lost"
        return (
            f"{self.kind} game {self.game_id}: seat {self.seat} {result} (winners: {winners}"
            f"{placed}); {self.commands_sent} commands sent, {self.version} events"
            + ("" if self.receipts is None else f"; receipts kept in {self.receipts}")
        )


async def play_seat(
    url: str,
    game_id: str,
    token: str,
    strategy: Strategy,
    rng: random.Random,
    *,
    patience: float = PATIENCE_SECONDS,
    receipts: Path | None = None,
) -> Summary:
    """Play the seat of `token` until the game is over, keeping its receipts in the directory
    `receipts` (if given). Raises BotError."""
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as client:
        bot = _Bot(client, game_id, token, strategy, rng, patience)
        return await bot.play_keeping(receipts)


async def join_and_play(
    url: str,
    join: Join,
    strategy: Strategy,
    rng: random.Random,
    *,
    patience: float = PATIENCE_SECONDS,
    receipts: Path | None = None,
) -> Summary:
    """Take a seat at an open table as `join` says, then play it until the game is over,
    keeping its receipts in the directory `receipts` (if given). Raises BotError (a sitting
    refused: no such table, a seat taken, a table full...)."""
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as client:
        http = _Http(client, patience)
        granted = await _sit(http, join)
        bot = _Bot(client, granted.game_id, granted.token, strategy, rng, patience, http=http)
        if granted.receipt is not None:
            bot.receipts.append(granted.receipt)
        try:
            return await bot.play_keeping(receipts)
        except asyncio.CancelledError:  # interrupted (Ctrl-C): up again if nothing is dealt
            if (bot.status or granted.status) == "waiting":
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bot.leave(granted.seat), LEAVE_SECONDS)
            raise


async def _sit(http: _Http, join: Join) -> _Granted:
    """The seat taken: at the table `join` names, or the first listed public one of its kind
    where the sitting succeeds."""
    if join.game != ANY_TABLE:
        response = await _sit_at(http, join.game, join)
        if response.is_success:
            return _decode(response, _Granted, "a seat taken")
        raise _sitting_refused(response, join)
    params: dict[str, str | int] = {"status": "waiting", "limit": LISTED}
    if join.kind is not None:
        params["kind"] = join.kind
    listed = await http.request("GET", "/v1/games", "list the tables", params=params)
    for table in _decode(listed, _GamePage, "a page of games").games:
        if not table.open_seats or (join.seat is not None and join.seat not in table.open_seats):
            continue
        response = await _sit_at(http, table.game_id, join)
        if response.is_success:
            return _decode(response, _Granted, "a seat taken")
        problem = _problem(response)
        if _problem_type(response) in PASSED_OVER or problem.get("rule_id") in PASSED_OVER_RULES:
            continue  # filled (or left) since it was listed: the next one
        raise _sitting_refused(response, join)
    kind = "" if join.kind is None else f" {join.kind}"
    seat = "" if join.seat is None else f" with seat {join.seat} open"
    raise BotError(f"no public{kind} table is waiting for players{seat}")


async def _sit_at(http: _Http, game_id: str, join: Join) -> httpx.Response:
    """One sitting, retried while the server is out of reach with the same Idempotency-Key: a
    sitting whose answer was lost is answered again, the same seat and token."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    options = {"content": join.body(), "headers": headers}
    return await http.patiently("POST", f"/v1/games/{game_id}/seats", options)


def _sitting_refused(response: httpx.Response, join: Join) -> BotError:
    unknown = (
        "no such game, or not a private table this invitation code opens"
        if join.invitation_code is not None
        else "no such game (a private table needs its --invitation-code)"
    )
    return _refused(response, "take a seat", {404: unknown})


class _Http:
    """Requests to the API, retried while the server is out of reach."""

    def __init__(self, client: httpx.AsyncClient, patience: float) -> None:
        self._client = client
        self._patience = patience
        self._reached = False  # a first request that cannot connect is an error at once

    async def request(
        self,
        method: str,
        path: str,
        action: str,
        *,
        moved_ok: bool = False,
        **options: Any,
    ) -> httpx.Response:
        """A request retried while the server is out of reach (each retry sends the same
        request: a command's Idempotency-Key makes that safe). A refusal raises BotError; with
        `moved_ok`, a refusal because the game moved is answered."""
        response = await self.patiently(method, path, options)
        if response.is_success or (moved_ok and _problem_type(response) in MOVED):
            return response
        raise _refused(response, action)

    async def patiently(self, method: str, path: str, options: dict[str, Any]) -> httpx.Response:
        """The server's answer, whatever it is, once it gives one."""
        loop = asyncio.get_running_loop()
        deadline: float | None = None
        where = self._client.base_url
        for attempt in itertools.count():
            try:
                response = await self._client.request(method, path, **options)
                if response.status_code not in UNAVAILABLE:
                    self._reached = True
                    return response
                trouble = f"{response.status_code} {_detail(response)}"
            except httpx.TransportError as error:
                if not self._reached:  # a wrong URL or a server not started: say so at once
                    raise BotError(
                        f"cannot reach {self._client.base_url}: {_said(error)}"
                    ) from None
                trouble = _said(error)
            deadline = deadline or loop.time() + self._patience
            if loop.time() >= deadline:
                raise BotError(f"lost {where} for {self._patience:g} s: {trouble}")
            await asyncio.sleep(BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)])
        raise AssertionError("unreachable")  # itertools.count() never ends


class _Bot:
    def __init__(
        self,
        client: httpx.AsyncClient,
        game_id: str,
        token: str,
        strategy: Strategy,
        rng: random.Random,
        patience: float,
        *,
        http: _Http | None = None,
    ) -> None:
        self._client = client
        self._path = f"/v1/games/{game_id}"
        self._game_id = game_id
        self._auth = {"Authorization": f"Bearer {token}"}
        self._strategy = strategy
        self._rng = rng
        self._http = http or _Http(client, patience)
        self._status: str | None = None  # the game's, as the bot last read it
        self._sent = 0
        self._out_of_time = False  # its last command came after its time ran out
        self._stream = _Stream(client, f"{self._path}/events/stream", self._auth)
        self.receipts: list[Envelope] = []  # as the referee signed them, in order
        self._seat: Seat | None = None

    async def play_keeping(self, directory: Path | None) -> Summary:
        """`play`, then the receipts written into `directory` (also when the bot stops: the
        BotError then says where)."""
        try:
            summary = await self.play()
        except BaseException as error:
            try:
                kept = self._keep(directory)
            except BotError:  # the error that stopped it is the one to tell
                kept = None
            if isinstance(error, BotError):
                error.receipts = kept
            raise
        return dataclasses.replace(summary, receipts=self._keep(directory))

    def _keep(self, directory: Path | None) -> Path | None:
        if directory is None or not self.receipts or self._seat is None:
            return None
        return self.write_receipts(directory, self._seat)

    def write_receipts(self, directory: Path, seat: Seat) -> Path:
        path = directory / f"receipts-{self._game_id}-seat{seat}.json"
        record = {"game_id": self._game_id, "seat": seat, "receipts": self.receipts}
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path.write_bytes(msgspec.json.encode(record))
        except OSError as error:
            raise BotError(f"its receipts could not be kept in {directory}: {error}") from None
        return path

    async def keep_head(self) -> None:
        """A receipt of the game's head as it stands."""
        response = await self._request("GET", f"{self._path}/receipt", "get a receipt")
        self.receipts.append(_decode(response, Envelope, "a receipt"))

    async def play(self) -> Summary:
        seen = await self.read()
        game = _game(seen)
        seat = self._seat = seen.seat
        if seat is None:  # cannot happen with a token, but then the bot has no seat
            raise BotError("the server answered a spectator's view: this token names no seat")
        refusals = 0
        try:
            while not seen.outcome.finished:
                if seat not in seen.to_act:
                    await self._stream.wait(after=seen.version)
                    seen = await self.read()
                elif played := await self._take_turn(game, seen, seat):
                    refusals, seen = 0, played  # the answer says where the game now stands
                elif self._out_of_time:
                    # Too late: the seat's clock has run out. Another seat or the server's
                    # sweeper claims it; the bot follows the game to its end without it.
                    await self._stream.wait(after=seen.version)
                    seen = await self.read()
                else:
                    refusals += 1
                    if refusals > MAX_REFUSALS:
                        raise BotError(f"the game moved under each of {refusals} commands")
                    seen = await self.read()
        finally:
            await self._stream.close()
        await self.keep_head()
        if seen.outcome.ending == "cancelled":
            raise BotError(
                f"the table of game {self._game_id} was cancelled: its seats were not all "
                "taken before it expired"
            )
        return Summary(self._game_id, seen.kind, seat, seen.outcome, seen.version, self._sent)

    async def wait_past(self, version: int) -> None:
        """Until the game moves past `version` (or the stream drops): then read it again."""
        await self._stream.wait(after=version)

    async def close_stream(self) -> None:
        await self._stream.close()

    @property
    def sent(self) -> int:
        """The commands the referee accepted from this bot."""
        return self._sent

    @property
    def out_of_time(self) -> bool:
        """Its last command came after its seat's time ran out."""
        return self._out_of_time

    @property
    def status(self) -> str | None:
        """The game's status when the bot last read it (`waiting`: an open table not yet
        full); None before its first read."""
        return self._status

    async def leave(self, seat: Seat) -> None:
        """Get up from a table that still waits for players (refused once it is dealt)."""
        await self._client.delete(f"{self._path}/seats/{seat}", headers=self._auth)

    # -- reading --------------------------------------------------------------------------------

    async def read(self) -> _Seen:
        response = await self._request("GET", self._path, "read the game")
        seen = _decode(response, _Seen, "a game")
        self._status = seen.status
        return seen

    async def _legal(self, game: _Game, seen: _Seen) -> list[msgspec.Struct] | None:
        """The commands to choose from (empty: the seat has none), or None when the game moved
        while they were read.

        The whole list when it is short. A random bot needs one command, drawn uniformly: the
        total and one read at a random offset (a Coyote list can hold ~14,000 commands). A
        greedy bot weighs at most CANDIDATES commands: the whole list up to GREEDY_READ, past
        it the positions its own sample would weigh (`candidate_indices`: the first ones, then
        some at random), in the list's order.
        """
        first = await self._legal_page(game, 0, FIRST_PAGE)
        total = first.total
        if total <= len(first.commands):
            pages = [first]
        elif self._strategy == "random":
            pages = [await self._legal_page(game, self._rng.randrange(total), 1)]
        elif total <= GREEDY_READ:
            rest = range(len(first.commands), total, PAGE)
            pages = [first, *[await self._legal_page(game, offset, PAGE) for offset in rest]]
        else:  # the positions the greedy bot weighs in process: the first ones, then a sample
            held = len(first.commands)
            picked = candidate_indices(total, self._rng)
            kept = _LegalPage(
                version=first.version,
                total=total,
                commands=[first.commands[index] for index in picked if index < held],
            )
            unread = [index for index in picked if index >= held]
            pages = [kept, *[await self._legal_page(game, offset, 1) for offset in unread]]
        if any(page.version != seen.version or page.total != total for page in pages):
            return None
        return [game.command(raw) for page in pages for raw in page.commands]

    async def _legal_page(self, game: _Game, offset: int, limit: int) -> _LegalPage:
        params = {"offset": offset, "limit": limit}
        response = await self._request(
            "GET", f"{self._path}/legal-commands", "read the legal commands", params=params
        )
        return _decode(response, _LegalPage, "a page of legal commands")

    # -- playing --------------------------------------------------------------------------------

    async def _take_turn(self, game: _Game, seen: _Seen, seat: Seat) -> _Seen | None:
        """Choose and send a command: the game as it then stands, or None when it moved first
        (read again, decide again)."""
        legal = await self._legal(game, seen)
        if legal is None:
            return None
        if not legal:  # only a game of an older rules version can stand so (Game.to_act)
            raise BotError(f"{NoLegalCommand(seat).message} (version {seen.version})")
        command = choose(game.rules, self._strategy, game.view(seen.view), legal, seat, self._rng)
        return await self.send(seen, command)

    async def send(self, seen: _Seen, command: msgspec.Struct) -> _Seen | None:
        """Send a command decided on `seen`: the game as it then stands, or None when it moved
        first (or the seat's time ran out: `out_of_time`)."""
        body = msgspec.json.encode({"command": command, "expected_version": seen.version})
        # One key per decision: a retry after a lost answer is answered the first result.
        headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
        response = await self._request(
            "POST",
            f"{self._path}/commands",
            "send a command",
            content=body,
            headers=headers,
            moved_ok=True,
        )
        self._out_of_time = _problem(response).get("rule_id") == OUT_OF_TIME
        if response.status_code != 200:
            return None
        self._sent += 1
        played = _decode(response, _Played, "a command's result")
        if played.receipt is not None:
            self.receipts.append(played.receipt)
        self._status = played.status
        return msgspec.structs.replace(
            seen,
            status=played.status,
            version=played.version,
            to_act=played.to_act,
            outcome=played.outcome,
            view=played.view,
        )

    async def every_legal(self, game: _Game, seen: _Seen) -> list[msgspec.Struct] | None:
        """Every legal command of the seat, page by page (None: the game moved meanwhile)."""
        first = await self._legal_page(game, 0, PAGE)
        rest = range(len(first.commands), first.total, PAGE)
        pages = [first, *[await self._legal_page(game, offset, PAGE) for offset in rest]]
        if any(page.version != seen.version or page.total != first.total for page in pages):
            return None
        return [game.command(raw) for page in pages for raw in page.commands]

    # -- requests -------------------------------------------------------------------------------

    async def _request(
        self,
        method: str,
        path: str,
        action: str,
        *,
        moved_ok: bool = False,
        **options: Any,
    ) -> httpx.Response:
        """A request with the seat's token (see `_Http.request`)."""
        options["headers"] = {**self._auth, **options.get("headers", {})}
        return await self._http.request(method, path, action, moved_ok=moved_ok, **options)


class _Stream:
    """The game's event stream, kept open from one wait to the next (the seat's token in a
    header: tickets are for browsers, whose EventSource cannot send one)."""

    def __init__(self, client: httpx.AsyncClient, path: str, auth: dict[str, str]) -> None:
        self._client = client
        self._path = path
        self._auth = auth
        self._open: contextlib.AsyncExitStack | None = None
        self._messages: AsyncIterator[Message] | None = None

    async def wait(self, after: int) -> None:
        """Until an event past `after` is sent, the game ends or the stream drops: the caller
        reads the game again whichever it was, so a turn is never missed. Events up to
        `after` (the bot's own, those it read already) are passed over."""
        try:
            if self._messages is None and not await self._connect(after):
                return
            assert self._messages is not None
            async for message in self._messages:
                if message.event == "end" or int(message.id or 0) > after:
                    return
        except httpx.TransportError:
            pass  # dropped, or silent past STREAM_IDLE_SECONDS
        # The stream ended: read again, and reopen after what that read saw.
        await self.close()
        await asyncio.sleep(STREAM_RETRY_SECONDS)

    async def _connect(self, after: int) -> bool:
        """Open the stream after `after` (`Last-Event-ID`, so that nothing since that version
        is missed); False when there is nothing to wait for, or the server is not there."""
        headers = {**self._auth, "Last-Event-ID": str(after)}
        timeout = httpx.Timeout(REQUEST_SECONDS, read=STREAM_IDLE_SECONDS)
        self._open = contextlib.AsyncExitStack()
        response = await self._open.enter_async_context(
            self._client.stream("GET", self._path, headers=headers, timeout=timeout)
        )
        if response.status_code == 200:
            self._messages = messages(response)
            return True
        if response.status_code not in (204, *UNAVAILABLE):  # 204: over, every event sent
            await response.aread()
            await self.close()
            raise _refused(response, "open the event stream")
        await self.close()
        if response.status_code != 204:
            await asyncio.sleep(STREAM_RETRY_SECONDS)
        return False

    async def close(self) -> None:
        if self._open is not None:
            await self._open.aclose()
        self._open, self._messages = None, None


@dataclass(frozen=True)
class _Game:
    """The game's rules, for `choose` and to decode what the API answers into its types."""

    rules: BotGame
    view_decoder: msgspec.json.Decoder[Any]
    command_decoder: msgspec.json.Decoder[Any]

    def view(self, raw: msgspec.Raw) -> msgspec.Struct:
        view: msgspec.Struct = self.view_decoder.decode(raw)
        return view

    def command(self, raw: msgspec.Raw) -> msgspec.Struct:
        command: msgspec.Struct = self.command_decoder.decode(raw)
        return command


def _game(seen: _Seen) -> _Game:
    try:
        rules = REGISTRY.rules(seen.kind, seen.rules_version)
    except (UnknownKind, UnknownRulesVersion):
        raise BotError(
            f"this bot does not know {seen.kind} under rules {seen.rules_version}"
        ) from None
    return _Game(
        # Every registered game has the bots' two fields (referee/kernel/wiring.py).
        cast(BotGame, rules),
        msgspec.json.Decoder(rules.view_type),
        msgspec.json.Decoder(rules.command_type),
    )


def _decode(response: httpx.Response, into: type[T], what: str) -> T:
    """The answer as the bot reads it; an answer of something else than this API is an error."""
    try:
        return msgspec.json.decode(response.content, type=into)
    except msgspec.DecodeError as error:  # ValidationError included
        raise BotError(f"{response.url} did not answer {what}: {error}") from None


def _refused(
    response: httpx.Response, action: str, reasons: dict[int, str] | None = None
) -> BotError:
    status = response.status_code
    reason = {
        401: "the token is not a seat token of this game",
        403: "the token belongs to another game",
        404: "no such game",
        **(reasons or {}),
    }.get(status, _problem_type(response) or response.reason_phrase)
    return BotError(f"could not {action}: {status} {reason} ({_detail(response)})")


def _problem(response: httpx.Response) -> dict[str, Any]:
    try:
        body = msgspec.json.decode(response.content)
    except msgspec.DecodeError:
        return {}
    return body if isinstance(body, dict) else {}


def _problem_type(response: httpx.Response) -> str:
    """The RFC 9457 problem's type, without its `urn:referee:problem:` prefix."""
    return str(_problem(response).get("type", "")).rpartition(":")[2]


def _detail(response: httpx.Response) -> str:
    detail = _problem(response).get("detail") or response.text[:200] or response.reason_phrase
    return " ".join(str(detail).split())  # one line


def _said(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def run(
    url: str,
    game_id: str,
    token: str,
    strategy: Strategy,
    rng: random.Random,
    patience: float = PATIENCE_SECONDS,
    receipts: Path | None = None,
) -> Summary:
    """`play_seat` from synchronous code (the command line)."""
    return asyncio.run(
        play_seat(url, game_id, token, strategy, rng, patience=patience, receipts=receipts)
    )


def run_join(
    url: str,
    join: Join,
    strategy: Strategy,
    rng: random.Random,
    patience: float = PATIENCE_SECONDS,
    receipts: Path | None = None,
) -> Summary:
    """`join_and_play` from synchronous code (the command line)."""
    return asyncio.run(
        join_and_play(url, join, strategy, rng, patience=patience, receipts=receipts)
    )

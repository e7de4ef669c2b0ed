"""Load, play, append: how the API runs any game of the registry on the event store.

A game is rebuilt by folding its stored events into a `Table` (kept in a `TableCache`; a read
catches it up with the events recorded since), a command is played on that table, and the events
it produced are appended with the version the table was at. A command is first decided on the
cached table as it is, with no read: a concurrent writer (another process) makes the append fail
with a version conflict, and the command is then decided again on the game read afresh (unless
the client's `expected_version` says it wanted the old state).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial

import msgspec

from api.cache import CachedGame, TableCache
from api.receipts import Notary, command_receipt, creation_receipt, head_receipt
from api.signing import Envelope
from api.tokens import issue_token, token_hash
from api.unions import members, tag_of
from eventstore import (
    AppendResult,
    CreationKey,
    CreationKeyTaken,
    GameCreation,
    IdempotencyKeyReused,
    NewEvent,
    OpenStream,
    SittingToken,
    StoredEvent,
    StreamInfo,
    StreamNotFound,
    VersionConflict,
)
from eventstore.cursor import decode_cursor
from eventstore.store import EventStore
from referee.kernel import (
    Codec,
    GameCreated,
    GameOver,
    Played,
    RuleViolation,
    Seat,
    Table,
    new_seed,
)
from referee.kernel.lifecycle import (
    KERNEL_COMMANDS,
    KERNEL_EVENTS,
    BotSeat,
    SeatTaken,
    Sit,
    TimeControl,
    Visibility,
)
from referee.kernel.open_seats import normal_name
from referee.kernel.registry import AnyGame, Registry, UnknownKind, UnknownRulesVersion
from referee.kernel.table import OpenTable, refusal

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


MAX_ATTEMPTS = 5  # decisions per command when concurrent writers keep winning the race
# Confirmed seat tokens kept in memory: as many seats as the cached games have (a game of up to
# this many seats), so that every game in play authenticates without asking the database.
SEATS_PER_CACHED_GAME = 8
READY_TIMEOUT_SECONDS = 2.0
OPEN_TABLE_SECONDS = 3600.0  # how long an open table waits for its players, by default


class WrongKind(Exception):
    """A command of another kind of game."""


class RaceLost(Exception):
    """Concurrent writers won every attempt to append this command."""


class RulesUnavailable(Exception):
    """The game was recorded under a kind or rules version this server does not have."""


class CreationKeyReused(IdempotencyKeyReused):
    """A game's creation retried with its Idempotency-Key but another request."""


class CreationTokensRetired(Exception):
    """The game this Idempotency-Key created can no longer be answered again: the seed key that
    derived its seat tokens is no longer configured."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class NoSuchEvent(LookupError):
    """A `seq` past the end of the game."""


class CorruptStream(Exception):
    """Stored events that do not fold: altered behind the service's back (or a rules bug)."""


@dataclass(frozen=True)
class Recorded:
    """A stored event and its decoded value."""

    stored: StoredEvent
    event: msgspec.Struct


class NoOpenSeat(Exception):
    """Every seat of this open table is taken (or the one asked for is)."""


class StaleSeatToken(Exception):
    """The token's holder has left the seat since (the seat may hold someone else now)."""


@dataclass(frozen=True)
class OpenSeats:
    """An open table, as its creator asks for it: who may sit, and the creator's own seat."""

    visibility: Visibility
    creator_seat: Seat | None = None
    creator: Sit | None = None


@dataclass(frozen=True)
class NewGameResult:
    game_id: str
    table: Table  # the game as its creation left it
    seat_tokens: list[tuple[Seat, str]]  # the seats the creator holds; stored only as hashes
    replayed: bool = False  # a retry with the Idempotency-Key of an earlier creation
    invitation_code: str | None = None  # a private open table's
    receipt: Envelope | None = None  # signed (api/receipts.py), when the service has a notary


@dataclass(frozen=True)
class SitResult:
    table: Table  # the game right after the sitting
    seat: Seat
    token: str  # the new sitting's, shown once (and to a retry with the same key)
    events: list[Recorded]
    replayed: bool
    receipt: Envelope | None = None


@dataclass(frozen=True)
class PlayResult:
    table: Table  # the game right after the command
    events: list[Recorded]  # the command's events
    replayed: bool  # an earlier command with the same idempotency key: nothing was appended
    receipt: Envelope | None = None  # signed, when the service has a notary


class GameService:
    def __init__(
        self,
        store: EventStore,
        registry: Registry,
        cache: TableCache,
        clock: Clock = utc_now,
        *,
        open_table_seconds: float = OPEN_TABLE_SECONDS,
        notary: Notary | None = None,
    ) -> None:
        self._store = store
        # Signs a receipt for every creation and accepted command (none without one).
        self._notary = notary
        self._open_table_for = timedelta(seconds=open_table_seconds)
        self._registry = registry
        self._cache = cache
        # Every step's time comes from here and is recorded with it: a timed game's clocks are
        # read from the record, so tests set the time instead of sleeping.
        self.clock = clock
        # Seat tokens are insert-only (the application's role may not change or delete them),
        # so a token once confirmed stays valid: every move need not ask the database again.
        self._seats: OrderedDict[tuple[str, bytes], tuple[Seat, int]] = OrderedDict()
        self._seats_kept = SEATS_PER_CACHED_GAME * max(cache.capacity, 1)
        # By kind and rules version: a game is read and played under the rules it was recorded
        # with, which need not be its kind's newest.
        self._codecs = {(game.kind, game.version): Codec(game) for game in registry.all_versions()}
        self._command_types = {
            (game.kind, game.version): frozenset(members(game.command_type)) | set(KERNEL_COMMANDS)
            for game in registry.all_versions()
        }

    # -- creating ------------------------------------------------------------------------------

    async def create(
        self,
        kind: str,
        *,
        seats: int,
        options: msgspec.Struct,
        seed: bytes | None,
        entropy: str,
        idempotency_key: str | None = None,
        time_control: TimeControl | None = None,
        bots: Sequence[BotSeat] = (),
        open_seats: OpenSeats | None = None,
    ) -> NewGameResult:
        """Create a game. With an `idempotency_key` used before, answer that creation again
        (`replayed`) if the request is the same, else raise CreationKeyReused. An open table
        (`open_seats`) gives its creator the token of their own seat alone, if they take one.

        The seat tokens of a game created with a key are derived from the key, the game id and
        a server key (`seat_tokens`), so that a retry can show them again although only their
        hashes are stored; without a key they are random.
        """
        game = self._registry[kind]
        creation = None
        if idempotency_key is not None:
            request = _request_hash(
                kind, seats, options, seed, entropy, time_control, bots, open_seats
            )
            key_hash = _creation_key_hash(idempotency_key)
            earlier = await self._store.find_creation(key_hash)
            if earlier is not None:
                return await self._created_before(earlier, request, idempotency_key)
            creation = CreationKey(
                key_hash=key_hash,
                request_hash=request,
                token_key_id=self._store.seed_keys.current,
            )
        game_id = str(uuid.uuid4())
        chosen = seed is not None
        secret = seed if seed is not None else new_seed()
        now = self.clock()
        table, played = Table.open(
            game,
            options,
            seats,
            game_id=game_id,
            seed=secret,
            entropy=entropy,
            seed_chosen_by_creator=chosen,
            time_control=time_control,
            bots=bots,
            at=now,
            open_table=self._open_table(open_seats, now),
        )
        status = _status_after(table, played, secret, was_waiting=False)
        key_id = None if creation is None else creation.token_key_id
        holders = _creator_holds(table)
        tokens = [
            (seat, self._token(game_id, seat, sitting, key_id, idempotency_key))
            for seat, sitting in holders
        ]
        hashes = [
            SittingToken(seat, sitting, token_hash(token))
            for (seat, sitting), (_, token) in zip(holders, tokens, strict=True)
        ]
        stream = _open_stream(table, open_seats, hashes)
        try:
            created = await self._store.create_stream(
                game_id,
                kind=kind,
                rules_version=game.version,
                seats=seats,
                seed=secret,
                seed_chosen_by_creator=chosen,
                seat_token_hashes=[] if stream else [item.token_hash for item in hashes],
                events=_new_events(table.game, played),
                status=status or "active",
                creation=creation,
                at=now,
                wake_at=wake_at(table, now),
                open_table=stream,
            )
        except CreationKeyTaken:  # a concurrent request with the same key got in first
            assert creation is not None and idempotency_key is not None
            earlier = await self._store.find_creation(creation.key_hash)
            assert earlier is not None  # creations stay
            return await self._created_before(earlier, creation.request_hash, idempotency_key)
        self._cache.put(game_id, table, secret, now)
        if not stream:  # a creator's table: its tokens hold their seats for good
            for item in hashes:
                self._keep_holder((game_id, item.token_hash), (item.seat, item.sitting))
        return NewGameResult(
            game_id,
            table,
            tokens,
            invitation_code=self._invitation(table, game_id),
            receipt=self._creation_receipt(game_id, table, created.events, secret),
        )

    def _creation_receipt(
        self, game_id: str, table: Table, opening: Sequence[StoredEvent], seed: bytes
    ) -> Envelope | None:
        if self._notary is None:
            return None
        seating = "creator" if table.seating is None else "open"
        return self._notary.sign(creation_receipt(game_id, opening, seed, seating=seating))

    def _command_receipt(self, appended: AppendResult, seed: bytes) -> Envelope | None:
        if self._notary is None or appended.command is None or not appended.events:
            return None
        return self._notary.sign(command_receipt(appended.command, appended.events[-1], seed))

    async def receipt(self, game_id: str) -> Envelope:
        """A signed statement of the game's head as it stands now. StreamNotFound."""
        if self._notary is None:
            raise RuntimeError("this service signs nothing: it was given no notary")
        head = await self._store.head(game_id)
        cached = self._cache.get(game_id)
        seed = cached.seed if cached and cached.seed else await self._store.seed(game_id)
        return self._notary.sign(head_receipt(head, seed))

    def _open_table(self, open_seats: OpenSeats | None, now: datetime) -> OpenTable | None:
        if open_seats is None:
            return None
        creator = None
        if open_seats.creator is not None and open_seats.creator_seat is not None:
            sit = open_seats.creator
            creator = SeatTaken(
                seat=open_seats.creator_seat, name=normal_name(sit.name), entropy=sit.entropy
            )
        return OpenTable(open_seats.visibility, now + self._open_table_for, creator)

    def _invitation(self, table: Table, game_id: str) -> str | None:
        """A private open table's invitation code (none for another table)."""
        if table.seating is None or table.seating.visibility != "private":
            return None
        return self._invitation_codes(game_id)[0]

    def _invitation_codes(self, game_id: str) -> list[str]:
        """The table's invitation code under each server key, the current key's first: a code
        is derived, never stored, and lets nobody act (it is no token)."""
        keys = self._store.seed_keys
        codes = []
        for key_id in [keys.current, *(other for other in keys.ids if other != keys.current)]:
            secret = keys.derive(key_id, "invitations")
            mac = hmac.new(secret, game_id.encode(), hashlib.sha256).digest()[:16]
            codes.append(base64.urlsafe_b64encode(mac).decode().rstrip("="))
        return codes

    def check_invitation(self, table: Table, game_id: str, code: str | None) -> None:
        """A private table is found with its code only: a wrong code reads as no game at all."""
        if table.seating is None or table.seating.visibility != "private":
            return
        if code is None or not any(
            hmac.compare_digest(code, valid) for valid in self._invitation_codes(game_id)
        ):
            raise StreamNotFound(game_id)

    async def _created_before(
        self, earlier: GameCreation, request_hash: bytes, idempotency_key: str
    ) -> NewGameResult:
        """The answer of an earlier creation with this key, given again."""
        if not hmac.compare_digest(earlier.request_hash, request_hash):
            raise CreationKeyReused("This Idempotency-Key created a game from another request.")
        table = await self.table(earlier.game_id, upto=earlier.version)
        game_id = earlier.game_id
        try:
            tokens = [
                (seat, self._token(game_id, seat, sitting, earlier.token_key_id, idempotency_key))
                for seat, sitting in _creator_holds(table)
            ]
        except KeyError:
            raise CreationTokensRetired(game_id) from None
        code = self._invitation(table, game_id)
        receipt = None
        if self._notary is not None:
            opening = await self._store.read(game_id, limit=earlier.version)
            seed = await self._store.seed(game_id)
            receipt = self._creation_receipt(game_id, table, opening, seed)
        return NewGameResult(
            game_id, table, tokens, replayed=True, invitation_code=code, receipt=receipt
        )

    def _token(
        self,
        game_id: str,
        seat: Seat,
        sitting: int,
        key_id: str | None,
        idempotency_key: str | None,
    ) -> str:
        """A new seat token: random, or with an Idempotency-Key derived (`_derived_token`)."""
        if key_id is None or idempotency_key is None:
            return issue_token(game_id, seat)
        return self._derived_token(game_id, seat, sitting, key_id, idempotency_key)

    def _derived_token(
        self, game_id: str, seat: Seat, sitting: int, key_id: str, idempotency_key: str
    ) -> str:
        """The seat token of a creation (or sitting) with an Idempotency-Key: HMAC-SHA256, under
        a key derived from seed key `key_id`, of the game id, the seat, the sitting (when not
        0) and the idempotency key. Only who knows the idempotency key (and the server) can
        make it, so that a retry can show it again. KeyError: key retired."""
        secret = self._store.seed_keys.derive(key_id, "seat-tokens")
        place = f"{seat}" if sitting == 0 else f"{seat}\x00{sitting}"
        message = f"{game_id}\x00{place}\x00{idempotency_key}".encode()
        mac = hmac.new(secret, message, hashlib.sha256).digest()
        return f"{game_id}.{seat}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"

    # -- reading -------------------------------------------------------------------------------

    async def info(self, game_id: str) -> StreamInfo:
        return await self._store.info(game_id)

    async def list_games(
        self, *, kind: str | None, status: str | None, cursor: str | None, limit: int
    ) -> tuple[list[StreamInfo], str | None]:
        """A page of games, newest first, and the cursor of the next page (None: the last)."""
        if kind is not None and kind not in self._registry:
            # No game is of a kind this server does not know (nor of a name no table can hold,
            # such as one with a NUL): an empty page. A cursor is still held to its word.
            if cursor is not None:
                decode_cursor(cursor)
            return [], None
        games = await self._store.list_streams(
            kind=kind, status=status, after=cursor, limit=limit + 1
        )
        if len(games) <= limit:
            return games, None
        return games[:limit], self._store.cursor_for(games[limit - 1])

    async def due_games(
        self, *, now: datetime, idle_since: datetime | None, limit: int, skip: Sequence[str] = ()
    ) -> list[str]:
        """Active games the server must look at now, but those of `skip` (api/sweeper.py)."""
        return await self._store.due_games(now=now, idle_since=idle_since, limit=limit, skip=skip)

    async def seat_for_token(self, game_id: str, token_hash: bytes) -> tuple[Seat, int] | None:
        """The seat this token holds, and its sitting (0 at a table its creator seated).

        Raises StaleSeatToken when its holder left that seat of an open table. A token is kept
        in memory once it can no longer change: at a creator's table, or a dealt open table."""
        key = (game_id, token_hash)
        if key in self._seats:
            self._seats.move_to_end(key)
            return self._seats[key]
        holder = await self._store.token_holder(game_id, token_hash)
        if holder is None:
            await self._store.info(game_id)  # a game that does not exist is a 404, not a 401
            return None
        seat, sitting = holder
        if sitting != 0:
            table = await self.table(game_id)
            if table.sitting(seat) != sitting:
                raise StaleSeatToken(game_id)
            if table.waiting():  # its holder may still leave: ask again next time
                return holder
        self._keep_holder(key, holder)
        return holder

    def _keep_holder(self, key: tuple[str, bytes], holder: tuple[Seat, int]) -> None:
        self._seats[key] = holder
        if len(self._seats) > self._seats_kept:
            self._seats.popitem(last=False)

    async def table(self, game_id: str, *, upto: int | None = None) -> Table:
        """The game after event `upto` (default: its latest event)."""
        return (await self._load(game_id, upto=upto)).table

    async def events(self, game_id: str, *, after: int, limit: int) -> tuple[Table, list[Recorded]]:
        """The game now, and its events after `after` (at most `limit`)."""
        table = await self.table(game_id)
        stored = await self._store.read(game_id, after=after, limit=limit, verify=True)
        return table, self._decode(table.game, stored)

    async def ready(self) -> None:
        await self._store.ping(timeout=READY_TIMEOUT_SECONDS)

    async def legal_commands(
        self, game_id: str, seat: Seat
    ) -> tuple[Table, Sequence[msgspec.Struct]]:
        """The game now, and every command `seat` may send (none when it is not its turn)."""
        table = await self.table(game_id)
        if seat not in table.to_act():
            return table, ()
        return table, table.game.legal_commands(table.state, seat)

    # -- playing -------------------------------------------------------------------------------

    async def play(
        self,
        game_id: str,
        seat: Seat | None,
        command: msgspec.Struct,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        sitting: int | None = None,
    ) -> PlayResult:
        """Decide `command` for `seat` (None: the referee) and append its events; see the
        module docstring. With `sitting`, only while that sitting holds the seat (a token of a
        player who left an open table acts for nobody, even in a race)."""
        body = Codec.encode(command)
        first_result = partial(self._first_result, game_id, seat, idempotency_key, body)
        fresh = False  # the first attempt decides on the cached table, if there is one
        for _ in range(MAX_ATTEMPTS + 1):  # + the one attempt on a cached table found behind
            if earlier := await first_result():
                return earlier
            loaded, checked = await self._for_play(game_id, fresh)
            table = loaded.table
            if type(command) not in self._command_types[_rules_key(table.game)]:
                raise WrongKind(f"This game is {table.game.kind}: it takes no {tag_of(command)}.")
            seed = loaded.seed or await self._store.seed(game_id)
            before = table.version
            now = self._step_time(loaded)
            was_waiting = table.waiting()
            try:
                if expected_version is not None and expected_version != table.version:
                    raise VersionConflict(expected_version, table.version)
                if sitting is not None and seat is not None and table.sitting(seat) != sitting:
                    raise refusal("seat-left", f"This token's player has left seat {seat}.")
                played = table.play(seat, command, table.chance_for(seed, game_id), at=now)
            except (RuleViolation, GameOver, VersionConflict):
                if not checked:  # decided on a table that may be behind: look again first
                    fresh = True
                    continue
                # A retry may have lost the race to its own first attempt, which moved the game
                # on since we looked: the first result is the answer, not a refusal.
                if earlier := await first_result():
                    return earlier
                raise
            status = _status_after(table, played, seed, was_waiting=was_waiting)
            try:
                result = await self._store.append(
                    game_id,
                    expected_version=before,
                    events=_new_events(table.game, played),
                    seat=seat,
                    command_body=body,
                    idempotency_key=idempotency_key,
                    status=status,
                    at=now,
                    wake_at=wake_at(table, now),
                    # Only a sitting or a leaving (while the table waits) changes who sits where.
                    names=table.names() if was_waiting else None,
                )
            except VersionConflict:
                fresh = True
                if expected_version is not None and checked:
                    if earlier := await first_result():
                        return earlier
                    raise
                continue  # another command got in first: decide again on the new state
            if result.replayed:  # the same key won a race with this very request
                return await self._replay(game_id, result, body)
            self._cache.put(game_id, table, seed, _last_time(result.events))
            events = self._decode(table.game, result.events)
            return PlayResult(table, events, False, self._command_receipt(result, seed))
        raise RaceLost(f"Concurrent commands won {MAX_ATTEMPTS} times in a row; try again.")

    async def sit(
        self,
        game_id: str,
        sit: Sit,
        *,
        seat: Seat | None,
        invitation_code: str | None = None,
        idempotency_key: str | None = None,
    ) -> SitResult:
        """Take `seat` (None: the first open one) of an open table. Raises StreamNotFound for a
        private table without its code, NoOpenSeat when the seat (or every seat) is taken,
        RuleViolation for what the rules refuse (a name, a table not waiting)."""
        body = Codec.encode(sit)
        key_id = self._store.seed_keys.current
        lost = 0
        while True:
            loaded = await self._load(game_id)  # sittings are rare: always on the game as it is
            table = loaded.table
            # Each seat taken meanwhile is a race lost: a table that fills at once (a player a
            # seat, through several processes) may make its last sitter lose once a seat.
            if lost == MAX_ATTEMPTS + table.seats:
                raise RaceLost(f"Concurrent sittings won {lost} times in a row; try again.")
            self.check_invitation(table, game_id, invitation_code)
            if idempotency_key is not None:
                earlier = await self._store.find_sitting(game_id, idempotency_key)
                if earlier is not None:
                    return await self._sat_before(game_id, earlier, body, idempotency_key, seat)
            chosen = _seat_to_take(table, seat)
            seed = loaded.seed or await self._store.seed(game_id)
            now = self._step_time(loaded)
            before, sitting = table.version, table.version + 1
            played = table.play(chosen, sit, table.chance_for(seed, game_id), at=now)
            token = self._token(game_id, chosen, sitting, key_id, idempotency_key)
            try:
                result = await self._store.append(
                    game_id,
                    expected_version=before,
                    events=_new_events(table.game, played),
                    seat=chosen,
                    command_body=body,
                    idempotency_key=idempotency_key,
                    status=_status_after(table, played, seed, was_waiting=True),
                    at=now,
                    wake_at=wake_at(table, now),
                    names=table.names(),
                    token=SittingToken(chosen, sitting, token_hash(token)),
                )
            except VersionConflict:
                lost += 1
                continue  # someone sat or left first: look again
            if result.replayed:  # the same key, in a race with this very request
                return await self._sat_before(game_id, result, body, idempotency_key, seat)
            self._cache.put(game_id, table, seed, _last_time(result.events))
            events = self._decode(table.game, result.events)
            receipt = self._command_receipt(result, seed)
            return SitResult(table, chosen, token, events, replayed=False, receipt=receipt)

    async def _sat_before(
        self,
        game_id: str,
        earlier: AppendResult,
        body: bytes,
        idempotency_key: str | None,
        seat_asked: Seat | None,
    ) -> SitResult:
        """A sitting retried with its Idempotency-Key: the first answer, its token again. The
        same request is the same name and entropy, and no other seat asked for than taken."""
        assert idempotency_key is not None and earlier.command is not None
        seat = earlier.command.seat
        if earlier.command.body != body or seat is None or seat_asked not in (None, seat):
            raise IdempotencyKeyReused(game_id)
        sitting = earlier.command.first_seq
        for key_id in self._store.seed_keys.ids:
            token = self._derived_token(game_id, seat, sitting, key_id, idempotency_key)
            if await self._store.token_holder(game_id, token_hash(token)) == (seat, sitting):
                replay = await self._replay(game_id, earlier, body)
                return SitResult(
                    replay.table, seat, token, replay.events, True, receipt=replay.receipt
                )
        raise CreationTokensRetired(game_id)

    def _step_time(self, loaded: CachedGame) -> datetime:
        """The time a step on this game is recorded at: now, or the last step's time if another
        process, whose clock is ahead of ours, recorded it. Time is recorded in the order of
        the steps (the audit holds it to that), and a clock reading that goes back would give a
        seat time it did not have."""
        now = self.clock()
        return (
            now if loaded.recorded_at is None or now >= loaded.recorded_at else loaded.recorded_at
        )

    async def _for_play(self, game_id: str, fresh: bool) -> tuple[CachedGame, bool]:
        """The game to decide a command on, and whether it was just read to its last event.

        Without `fresh`, the cached table as it is, with no read: if another process moved the
        game on, the append (at this table's version) fails and the command is decided again
        on a fresh table, as is any refusal decided on it. One round trip fewer per command.
        """
        if not fresh and (cached := self._cache.get(game_id)) is not None:
            return cached, False
        return await self._load(game_id), True

    async def _first_result(
        self, game_id: str, seat: Seat | None, idempotency_key: str | None, body: bytes
    ) -> PlayResult | None:
        """The first result of this key, if a command with it was recorded."""
        if idempotency_key is None or seat is None:
            return None
        earlier = await self._store.find_command(game_id, seat, idempotency_key)
        return None if earlier is None else await self._replay(game_id, earlier, body)

    async def _replay(self, game_id: str, earlier: AppendResult, body: bytes) -> PlayResult:
        """The first result of a command retried with the same idempotency key."""
        if earlier.command is not None and earlier.command.body != body:
            raise IdempotencyKeyReused(game_id)
        last = earlier.events[-1].seq if earlier.events else earlier.version
        table = await self.table(game_id, upto=last)
        receipt = None
        if self._notary is not None:
            receipt = self._command_receipt(earlier, await self._store.seed(game_id))
        return PlayResult(table, self._decode(table.game, earlier.events), True, receipt)

    # -- folding -------------------------------------------------------------------------------

    async def _load(self, game_id: str, *, upto: int | None = None) -> CachedGame:
        cached = self._cache.get(game_id)
        if cached is not None and (upto is None or cached.table.version <= upto):
            table, seed, recorded_at = cached.table, cached.seed, cached.recorded_at
            missing = None if upto is None else upto - table.version
            if missing != 0:
                newer = await self._store.read(
                    game_id, after=table.version, limit=missing, verify=True
                )
                _advance(table, self._played(table.game, newer))
                recorded_at = _last_time(newer) or recorded_at
        else:
            stored = await self._store.read(game_id, limit=upto, verify=True)
            if not stored:
                raise StreamNotFound(game_id)
            game = self._game_of(stored[0])
            table, seed = _replay(game, self._played(game, stored)), None
            recorded_at = _last_time(stored)
        if upto is not None and table.version < upto:
            raise NoSuchEvent(f"The game has {table.version} events, not {upto}.")
        self._cache.put(game_id, table, seed, recorded_at)
        return CachedGame(table, seed, recorded_at)

    def _game_of(self, first: StoredEvent) -> AnyGame:
        try:
            created = msgspec.json.decode(first.body, type=GameCreated)
        except (msgspec.MsgspecError, UnicodeDecodeError) as error:  # bytes not UTF-8 too
            raise CorruptStream("The first event of this game cannot be read.") from error
        try:
            return self._registry.rules(created.kind, created.rules_version)
        except UnknownKind:
            raise RulesUnavailable(f"This server has no rules for {created.kind!r}.") from None
        except UnknownRulesVersion:
            have = ", ".join(game.version for game in self._registry.versions(created.kind))
            raise RulesUnavailable(
                f"This game was played under {created.kind} rules {created.rules_version}; "
                f"this server has {have}."
            ) from None

    def _played(self, game: AnyGame, stored: Sequence[StoredEvent]) -> list[Played]:
        decode = self._codecs[_rules_key(game)].decode_event
        try:  # one comprehension, no generator: a cold load decodes every event here
            return [Played(decode(item.body), item.chance_cursor) for item in stored]
        except (msgspec.MsgspecError, UnicodeDecodeError):
            for _ in self._events(game, stored):  # again, one at a time: which event is it?
                pass
            raise

    def _decode(self, game: AnyGame, stored: Sequence[StoredEvent]) -> list[Recorded]:
        return [Recorded(item, event) for item, event in self._events(game, stored)]

    def _events(
        self, game: AnyGame, stored: Iterable[StoredEvent]
    ) -> Iterator[tuple[StoredEvent, msgspec.Struct]]:
        codec = self._codecs[_rules_key(game)]
        for item in stored:
            try:
                yield item, codec.decode_event(item.body)
            except (msgspec.MsgspecError, UnicodeDecodeError) as error:  # bytes not UTF-8 too
                raise CorruptStream(f"Event {item.seq} of this game cannot be read.") from error


def _last_time(stored: Sequence[StoredEvent]) -> datetime | None:
    return max((item.recorded_at for item in stored), default=None)


def _creation_key_hash(idempotency_key: str) -> bytes:
    return hashlib.sha256(b"referee.creation-key\x00" + idempotency_key.encode()).digest()


def _request_hash(
    kind: str,
    seats: int,
    options: msgspec.Struct,
    seed: bytes | None,
    entropy: str,
    time_control: TimeControl | None,
    bots: Sequence[BotSeat],
    open_seats: OpenSeats | None,
) -> bytes:
    """What makes two creations the same request: the same kind, seats, options (defaults
    filled in), seed, entropy, time control and bots, however the JSON was written."""
    request: dict[str, object] = {
        "kind": kind,
        "seats": seats,
        "options": options,
        "seed": None if seed is None else seed.hex(),
        "entropy": entropy,
    }
    # Only when set, so that the keys of creations recorded before these existed still match.
    if time_control is not None:
        request["time_control"] = time_control
    if bots:
        request["bots"] = sorted(bots, key=lambda bot: bot.seat)
    if open_seats is not None:
        request["open"] = [open_seats.visibility, open_seats.creator_seat, open_seats.creator]
    return hashlib.sha256(msgspec.json.encode(request)).digest()


def _creator_holds(table: Table) -> list[tuple[Seat, int]]:
    """The seats whose tokens the creator is given, with their sittings: every seat of a table
    the creator seats; at an open table, the seat the creator took (if any), not the bots'."""
    if table.seating is None:
        return [(seat, 0) for seat in range(table.seats)]
    bots = {bot.seat for bot in table.bots}
    return [
        (seat, sitter.sitting)
        for seat, sitter in enumerate(table.seating.sitters)
        if sitter is not None and seat not in bots
    ]


def _open_stream(
    table: Table, open_seats: OpenSeats | None, tokens: list[SittingToken]
) -> OpenStream | None:
    names = table.names()
    if open_seats is None or names is None:
        return None
    return OpenStream(listed=open_seats.visibility == "public", names=list(names), tokens=tokens)


def _seat_to_take(table: Table, seat: Seat | None) -> Seat:
    """The seat a sitting takes: the one asked for, or the first open one."""
    if table.seating is None:
        raise refusal("not-an-open-table", "Its creator seated this table: no seat is open.")
    if table.outcome().finished:
        raise GameOver("This table is closed: it takes no more players.")
    if not table.waiting():  # the last seat was taken, perhaps a moment ago by a rival
        raise NoOpenSeat("Every seat of this table is taken: its game has begun.")
    open_seats = table.seating.open_seats()
    if seat is None:
        if not open_seats:
            raise NoOpenSeat("Every seat of this table is taken.")
        return open_seats[0]
    if seat >= table.seats:
        raise refusal("no-such-seat", f"The table has seats 0 to {table.seats - 1}.")
    if seat not in open_seats:
        raise NoOpenSeat(f"Seat {seat} is taken.")
    return seat


def wake_at(table: Table, now: datetime) -> datetime | None:
    """When the server must next look at this game: when an open table expires unfilled, now
    if one of its bots is to move, when the first clock of a seat to act runs out, or never."""
    if table.seating is not None and table.waiting():
        return table.seating.expires_at
    to_act = table.to_act()
    if any(bot.seat in to_act for bot in table.bots):
        return now
    if table.clocks is None:
        return None
    clocks = table.clocks
    return min((d for seat in to_act if (d := clocks.deadline(seat)) is not None), default=None)


def _rules_key(game: AnyGame) -> tuple[str, str]:
    return game.kind, game.version


def _status_after(
    table: Table, played: list[Played], seed: bytes, *, was_waiting: bool
) -> str | None:
    """The game's new status after a step, if it changes; the seed is revealed in the same
    append as the event that ends the game (or cancels the table)."""
    played += table.close(seed)
    if table.outcome().finished:
        return "cancelled" if table.seating is not None and table.seating.cancelled else "finished"
    if table.waiting():
        return "waiting"
    return "active" if was_waiting else None


def _new_events(game: AnyGame, played: Iterable[Played]) -> list[NewEvent]:
    return [
        NewEvent(
            type=tag_of(item.event),
            body=Codec.encode(item.event),
            chance_cursor=item.chance_cursor,
            secret=_hidden_from_spectators(game, item.event),
        )
        for item in played
    ]


def _hidden_from_spectators(game: AnyGame, event: msgspec.Struct) -> bool:
    """Whether a spectator sees less of `event` than it holds: the store then seals it, so that
    the database does not tell a running game's hands and future cards either."""
    if isinstance(event, KERNEL_EVENTS):
        return False
    return bool(game.redact(event, None) != event)


def _replay(game: AnyGame, played: list[Played]) -> Table:
    try:
        return Table.replay(game, played)
    except Exception as error:  # recorded events that the rules cannot fold
        raise CorruptStream("This game's events do not fold under its rules.") from error


def _advance(table: Table, played: Iterable[Played]) -> None:
    """Fold events recorded since the table was cached."""
    try:
        table.advance(played)
    except Exception as error:  # recorded events that the rules cannot fold
        raise CorruptStream("This game's events do not fold under its rules.") from error

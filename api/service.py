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
from datetime import UTC, datetime
from functools import partial

import msgspec

from api.cache import CachedGame, TableCache
from api.tokens import issue_token, token_hash
from api.unions import members, tag_of
from eventstore import (
    AppendResult,
    CreationKey,
    CreationKeyTaken,
    GameCreation,
    IdempotencyKeyReused,
    NewEvent,
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
from referee.kernel.lifecycle import KERNEL_COMMANDS, KERNEL_EVENTS, BotSeat, TimeControl
from referee.kernel.registry import AnyGame, Registry, UnknownKind, UnknownRulesVersion

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


MAX_ATTEMPTS = 5  # decisions per command when concurrent writers keep winning the race
# Confirmed seat tokens kept in memory: as many seats as the cached games have (a game of up to
# this many seats), so that every game in play authenticates without asking the database.
SEATS_PER_CACHED_GAME = 8
READY_TIMEOUT_SECONDS = 2.0


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


@dataclass(frozen=True)
class NewGameResult:
    game_id: str
    table: Table  # the game as its creation left it
    seat_tokens: list[str]  # by seat; stored only as hashes
    replayed: bool = False  # a retry with the Idempotency-Key of an earlier creation


@dataclass(frozen=True)
class PlayResult:
    table: Table  # the game right after the command
    events: list[Recorded]  # the command's events
    replayed: bool  # an earlier command with the same idempotency key: nothing was appended


class GameService:
    def __init__(
        self, store: EventStore, registry: Registry, cache: TableCache, clock: Clock = utc_now
    ) -> None:
        self._store = store
        self._registry = registry
        self._cache = cache
        # Every step's time comes from here and is recorded with it: a timed game's clocks are
        # read from the record, so tests set the time instead of sleeping.
        self.clock = clock
        # Seat tokens are insert-only (the application's role may not change or delete them),
        # so a token once confirmed stays valid: every move need not ask the database again.
        self._seats: OrderedDict[tuple[str, bytes], Seat] = OrderedDict()
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
    ) -> NewGameResult:
        """Create a game. With an `idempotency_key` used before, answer that creation again
        (`replayed`) if the request is the same, else raise CreationKeyReused.

        The seat tokens of a game created with a key are derived from the key, the game id and
        a server key (`seat_tokens`), so that a retry can show them again although only their
        hashes are stored; without a key they are random.
        """
        game = self._registry[kind]
        creation = None
        if idempotency_key is not None:
            request = _request_hash(kind, seats, options, seed, entropy, time_control, bots)
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
        )
        finished = _close_if_finished(table, played, secret)
        if creation is None:
            tokens = [issue_token(game_id, seat) for seat in range(seats)]
        else:
            assert idempotency_key is not None
            tokens = self._derived_tokens(game_id, seats, creation.token_key_id, idempotency_key)
        try:
            await self._store.create_stream(
                game_id,
                kind=kind,
                rules_version=game.version,
                seats=seats,
                seed=secret,
                seed_chosen_by_creator=chosen,
                seat_token_hashes=[token_hash(token) for token in tokens],
                events=_new_events(table.game, played),
                status="finished" if finished else "active",
                creation=creation,
                at=now,
                wake_at=wake_at(table, now),
            )
        except CreationKeyTaken:  # a concurrent request with the same key got in first
            assert creation is not None and idempotency_key is not None
            earlier = await self._store.find_creation(creation.key_hash)
            assert earlier is not None  # creations stay
            return await self._created_before(earlier, creation.request_hash, idempotency_key)
        self._cache.put(game_id, table, secret, now)
        return NewGameResult(game_id, table, tokens)

    async def _created_before(
        self, earlier: GameCreation, request_hash: bytes, idempotency_key: str
    ) -> NewGameResult:
        """The answer of an earlier creation with this key, given again."""
        if not hmac.compare_digest(earlier.request_hash, request_hash):
            raise CreationKeyReused("This Idempotency-Key created a game from another request.")
        table = await self.table(earlier.game_id, upto=earlier.version)
        try:
            tokens = self._derived_tokens(
                earlier.game_id, table.seats, earlier.token_key_id, idempotency_key
            )
        except KeyError:
            raise CreationTokensRetired(earlier.game_id) from None
        return NewGameResult(earlier.game_id, table, tokens, replayed=True)

    def _derived_tokens(
        self, game_id: str, seats: int, key_id: str, idempotency_key: str
    ) -> list[str]:
        """The seat tokens of a game created with an Idempotency-Key: HMAC-SHA256, under a key
        derived from seed key `key_id`, of the game id, the seat and the idempotency key. Only
        who knows the idempotency key (and the server) can make them. KeyError: key retired."""
        secret = self._store.seed_keys.derive(key_id, "seat-tokens")
        tokens = []
        for seat in range(seats):
            message = f"{game_id}\x00{seat}\x00{idempotency_key}".encode()
            mac = hmac.new(secret, message, hashlib.sha256).digest()
            tokens.append(f"{game_id}.{seat}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}")
        return tokens

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

    async def seat_for_token(self, game_id: str, token_hash: bytes) -> Seat | None:
        key = (game_id, token_hash)
        if key in self._seats:
            self._seats.move_to_end(key)
            return self._seats[key]
        seat = await self._store.seat_for_token(game_id, token_hash)
        if seat is None:
            await self._store.info(game_id)  # a game that does not exist is a 404, not a 401
            return None
        self._seats[key] = seat
        if len(self._seats) > self._seats_kept:
            self._seats.popitem(last=False)
        return seat

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
    ) -> PlayResult:
        """Decide `command` for `seat` (None: the referee) and append its events; see the
        module docstring."""
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
            now = self.clock()
            if loaded.recorded_at is not None and now < loaded.recorded_at:
                # Another process, whose clock is ahead of ours, recorded the last step: time
                # is recorded in the order of the steps (the audit holds it to that), and a
                # clock reading that goes back would give a seat time it did not have.
                now = loaded.recorded_at
            try:
                if expected_version is not None and expected_version != table.version:
                    raise VersionConflict(expected_version, table.version)
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
            finished = _close_if_finished(table, played, seed)
            try:
                result = await self._store.append(
                    game_id,
                    expected_version=before,
                    events=_new_events(table.game, played),
                    seat=seat,
                    command_body=body,
                    idempotency_key=idempotency_key,
                    status="finished" if finished else None,
                    at=now,
                    wake_at=wake_at(table, now),
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
            return PlayResult(table, self._decode(table.game, result.events), replayed=False)
        raise RaceLost(f"Concurrent commands won {MAX_ATTEMPTS} times in a row; try again.")

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
        return PlayResult(table, self._decode(table.game, earlier.events), replayed=True)

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
    return hashlib.sha256(msgspec.json.encode(request)).digest()


def wake_at(table: Table, now: datetime) -> datetime | None:
    """When the server must next look at this game: now if one of its bots is to move, when
    the first clock of a seat to act runs out, or never."""
    to_act = table.to_act()
    if any(bot.seat in to_act for bot in table.bots):
        return now
    if table.clocks is None:
        return None
    clocks = table.clocks
    return min((d for seat in to_act if (d := clocks.deadline(seat)) is not None), default=None)


def _rules_key(game: AnyGame) -> tuple[str, str]:
    return game.kind, game.version


def _close_if_finished(table: Table, played: list[Played], seed: bytes) -> bool:
    """Reveal the seed in the same append as the event that ends the game."""
    played += table.close(seed)
    return table.outcome().finished


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

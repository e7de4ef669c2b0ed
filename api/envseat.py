"""One seat of a live game as the backend of a `referee.envs` environment, over HTTP.

    from api.envseat import seat_env
    env = seat_env("http://127.0.0.1:8000", game_id, token)
    env.reset()
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(observation, info))

The environment is the in-process one (referee/envs/env.py) with one agent, the token's seat:
`reset` and every `step` that completes a command return once the seat is to act again or the
game is over, whoever plays the other seats (people, the server's bots, other programs). What
it reads is what the seat's token may read: its view, its legal commands (every page of them),
the outcome; what it sends is a command with the version it was chosen at and an
Idempotency-Key, as `referee bot` does (api/botclient.py, whose requests, retries, stream and
receipts it uses). A live game is played once: a second `reset` is refused.

Where seats choose at once (Big Manitou's secret choices), the view the seat decides on may be
one version behind the game (another seat chose meanwhile): the command goes with the version
it was decided at, and when that is refused as stale it is sent again at the new version if it
is still legal there, as every other seat's choice leaves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
import random
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
import msgspec

from api.botclient import (
    MAX_REFUSALS,
    PATIENCE_SECONDS,
    REQUEST_SECONDS,
    BotError,
    Join,
    Summary,
    _Bot,
    _Game,
    _game,
    _Http,
    _said,
    _Seen,
    _sit,
)
from referee.envs.env import RefereeEnv, Reward
from referee.envs.policies import Policy
from referee.kernel.contract import Game, Outcome, Seat

T = TypeVar("T")
AnyGame = Game[Any, Any, Any, Any]


class SeatOverHttp:
    """The backend of an environment that plays one seat of a live game (`Backend`)."""

    def __init__(
        self, url: str, game_id: str, token: str, *, patience: float = PATIENCE_SECONDS
    ) -> None:
        self._runner = asyncio.Runner()
        self._client = httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS)
        # The bot's requests, stream and receipts; its own choice of moves is never used.
        self.bot = _Bot(self._client, game_id, token, "random", random.Random(), patience)
        self.game_id = game_id
        self._legal: tuple[int, list[msgspec.Struct]] | None = None
        self._started = False
        self._closed = False
        try:
            self._seen: _Seen = self._run(self.bot.read())
            self._game: _Game = _game(self._seen)
            if self._seen.seat is None:
                raise BotError("the server answered a spectator's view: this token names no seat")
        except BaseException:
            self.close()
            raise
        self._seat: Seat = self._seen.seat

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return self._runner.run(work)

    @property
    def rules(self) -> AnyGame:
        return cast(AnyGame, self._game.rules)

    @property
    def seats(self) -> int:
        return self._seen.seats

    @property
    def played_seats(self) -> tuple[Seat, ...]:
        return (self._seat,)

    def start(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """Wait until the seat is to act or the game is over. The deal is the referee's: a
        seed has no say in it."""
        if self._started:
            raise BotError(
                f"game {self.game_id} is played once: make another environment for another game"
            )
        self._started = True
        self._run(self._until_our_turn())

    def to_act(self) -> frozenset[Seat]:
        seen = self._seen
        playing = self._seat in seen.to_act and not seen.outcome.finished
        return frozenset({self._seat}) if playing else frozenset()

    def view(self, seat: Seat) -> msgspec.Struct:
        return self._game.view(self._seen.view)

    def legal(self, seat: Seat) -> Sequence[msgspec.Struct]:
        if self._legal is None or self._legal[0] != self._seen.version:
            self._legal = (self._seen.version, self._run(self._every_legal()))
        return self._legal[1]

    def play(self, seat: Seat, command: msgspec.Struct) -> None:
        """Send it; if the game moved first (another seat's simultaneous choice), send it again
        at the new version while it is still legal there. Then wait for the seat's next turn."""
        self._run(self._play(command))

    def outcome(self) -> Outcome:
        return self._seen.outcome

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if hasattr(self, "_seen"):
            self._run(self.bot.close_stream())
        self._run(self._client.aclose())
        self._runner.close()

    def summary(self) -> Summary:
        seen, sent = self._seen, self.bot.sent
        return Summary(self.game_id, seen.kind, self._seat, seen.outcome, seen.version, sent)

    def keep_receipts(self, directory: Path) -> Path:
        """The seat's receipts, and one of the game's head, written into `directory`."""
        self._run(self.bot.keep_head())
        return self.bot.write_receipts(directory, self._seat)

    # -- over HTTP ------------------------------------------------------------------------------

    async def _until_our_turn(self) -> None:
        while not self._seen.outcome.finished and self._seat not in self._seen.to_act:
            await self.bot.wait_past(self._seen.version)
            self._seen = await self.bot.read()

    async def _every_legal(self) -> list[msgspec.Struct]:
        for _ in range(MAX_REFUSALS):
            legal = await self.bot.every_legal(self._game, self._seen)
            if legal is not None:
                return legal
            self._seen = await self.bot.read()  # moved while read: read it again
        raise BotError(f"the game moved under each of {MAX_REFUSALS} reads of its commands")

    async def _play(self, command: msgspec.Struct) -> None:
        for _ in range(MAX_REFUSALS):
            played = await self.bot.send(self._seen, command)
            if played is not None:
                self._seen = played
                return await self._until_our_turn()
            self._seen = await self.bot.read()
            if self.bot.out_of_time or self._seat not in self.to_act():
                return await self._until_our_turn()  # its time ran out, or its turn passed
            legal = await self.bot.every_legal(self._game, self._seen)
            if legal is not None and command not in legal:
                raise BotError(f"the game moved and {command!r} is no longer legal")
        raise BotError(f"the game moved under each of {MAX_REFUSALS} commands")


def seat_env(
    url: str,
    game_id: str,
    token: str,
    *,
    reward: Reward = "ranking",
    patience: float = PATIENCE_SECONDS,
) -> RefereeEnv:
    """An environment whose one agent plays the token's seat of a live game."""
    return RefereeEnv(SeatOverHttp(url, game_id, token, patience=patience), reward=reward)


def load_policy(name: str, path: Path | None = None) -> Policy:
    """`module:attribute` (dots inside the attribute allowed): a policy, or a class to make one
    with no arguments; with `path`, a function (or class) that loads one from that file."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise BotError(f"--policy {name}: give it as module:name")
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise BotError(f"--policy {name}: {error}") from None
    if path is not None:
        try:
            found = found(path)
        except Exception as error:  # a file missing, unreadable or not the policy's: said so
            raise BotError(f"--policy-file {path}: {_said(error)}") from None
    elif isinstance(found, type):
        found = found()
    if not callable(found):
        raise BotError(f"--policy {name}: {found!r} is not a policy (observation, info) -> action")
    return cast(Policy, found)


def play_policy(
    url: str,
    policy: Policy,
    *,
    game_id: str | None = None,
    token: str | None = None,
    join: Join | None = None,
    patience: float = PATIENCE_SECONDS,
    receipts: Path | None = None,
) -> Summary:
    """`referee bot --policy`: the seat of `token` in `game_id` (or one taken as `join` says)
    played to the end by `policy` through the environment, its receipts kept in `receipts`."""
    kept = []
    if join is not None:
        granted = asyncio.run(_take_seat(url, join, patience))
        game_id, token, kept = granted.game_id, granted.token, [granted.receipt]
    if game_id is None or token is None:
        raise BotError("a policy plays a seat: give the game and its token, or a table to join")
    backend = SeatOverHttp(url, game_id, token, patience=patience)
    backend.bot.receipts.extend(receipt for receipt in kept if receipt is not None)
    env = RefereeEnv(backend)
    try:
        env.reset()
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            try:
                env.step(policy(observation, info))
            except (ValueError, TypeError, LookupError) as error:  # the policy's, not the game's
                version = backend.summary().version
                raise BotError(f"the policy failed at version {version}: {_said(error)}") from None
        summary = backend.summary()
        if receipts is not None:
            summary = dataclasses.replace(summary, receipts=backend.keep_receipts(receipts))
    except BaseException as error:
        if receipts is not None and backend.bot.receipts:  # what it has so far
            with contextlib.suppress(BotError):  # the error that stopped it is the one to tell
                path = backend.bot.write_receipts(receipts, backend.played_seats[0])
                if isinstance(error, BotError):
                    error.receipts = path
        raise
    finally:
        env.close()
    if summary.outcome.ending == "cancelled":
        raise BotError(f"the table of game {game_id} was cancelled before it was dealt")
    return summary


async def _take_seat(url: str, join: Join, patience: float) -> Any:
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_SECONDS) as client:
        return await _sit(_Http(client, patience), join)

"""Bots for every game: a random player and a greedy one, as pure functions over the contract.

A bot chooses from what its seat may know, never from the state itself: `choose` takes the seat's
view and its legal commands, which is all a client of the API has too, so the same function plays
in the property tests, in the benchmark, in the server's own seats and in `referee bot` over HTTP.
`play` is the same choice made from a state (state, seat → command): the state only ever reaches
the bot through `game.view`, so no bot can see a card its seat cannot.

The greedy bot looks one step ahead. It imagines worlds the seat cannot tell from the real one
(`game.imagine`: the seat's view with every unseen card dealt at random), plays each candidate
command in them with chance of its own (never the game's seed), and scores what follows with the
game's own scoring (`game.evaluate`). The candidate with the best mean wins; ties go to the
first in the game's own order of legal commands. A command the worlds all say is hopeless (the
game lost, or refused, in every one of them) is never chosen while another is not.

Its thinking is bounded: it weighs at most CANDIDATES commands in WORLDS worlds, whatever the
number of legal commands. Past CANDIDATES it weighs the first half of them in the game's own
order (where a game lists its modest moves first: Coyote's answers and lowest bids) and a
random sample of the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, TypeVar, get_args

import msgspec

from referee.kernel.chance import Chance
from referee.kernel.contract import NoLegalCommand, RuleViolation, Seat

T = TypeVar("T")
Strategy = Literal["random", "greedy"]
STRATEGIES: tuple[Strategy, ...] = get_args(Strategy)

WORLDS = 6  # imagined worlds per choice: enough to weigh a guess, few enough to stay quick
CANDIDATES = 48  # commands weighed per choice; past that a random sample of them


class Imagine(Protocol):
    def __call__(self, view: Any, seat: Seat, rng: random.Random) -> Any: ...


class BotGame(Protocol):
    """What a bot needs of a game: the contract's rules, and the two functions of its `bots.py`."""

    def decide(self, state: Any, seat: Seat, command: Any, chance: Chance) -> list[Any]: ...
    def evolve(self, state: Any, event: Any) -> Any: ...
    def view(self, state: Any, seat: Seat | None) -> msgspec.Struct: ...
    def legal_commands(self, state: Any, seat: Seat) -> Sequence[Any]: ...

    @property
    def kind(self) -> str: ...
    @property
    def imagine(self) -> Imagine: ...
    @property
    def evaluate(self) -> Callable[[Any, Seat], float]: ...


def choose(
    game: BotGame,
    strategy: Strategy,
    view: msgspec.Struct | None,
    legal: Sequence[msgspec.Struct],
    seat: Seat,
    rng: random.Random,
) -> msgspec.Struct:
    """The command a bot of `strategy` sends, from what the seat knows (the random bot needs
    only the legal commands: its view may be None). Raises NoLegalCommand with none to choose."""
    if not legal:
        raise NoLegalCommand(seat)
    if strategy == "random":
        return random_choice(legal, rng)
    if view is None:
        raise ValueError("a greedy bot needs the seat's view")
    return greedy(game, view, legal, seat, rng)


def random_choice(legal: Sequence[T], rng: random.Random) -> T:
    """The random bot: one of the legal commands, uniformly (whatever their form: Structs, or
    the JSON a client holds)."""
    if not legal:
        raise ValueError("a bot is asked to play with no legal command")
    return legal[rng.randrange(len(legal))]


def play(
    game: BotGame, strategy: Strategy, state: Any, seat: Seat, rng: random.Random
) -> msgspec.Struct:
    """The bot's command for `seat` in `state`; the state reaches it only through the view."""
    return choose(
        game, strategy, game.view(state, seat), game.legal_commands(state, seat), seat, rng
    )


def greedy(
    game: BotGame,
    view: msgspec.Struct,
    legal: Sequence[msgspec.Struct],
    seat: Seat,
    rng: random.Random,
) -> msgspec.Struct:
    """One step of lookahead, scored by the game's own scoring (see the module docstring)."""
    imagine, evaluate = game.imagine, game.evaluate
    worlds = [imagine(view, seat, rng) for _ in range(WORLDS)]
    candidates = _candidates(legal, rng)
    best, best_key = candidates[0], (False, float("-inf"))
    for command in candidates:
        values = [_value_after(game, evaluate, world, seat, command, rng) for world in worlds]
        key = _weight(values)
        if key > best_key:
            best, best_key = command, key
    return best


def _weight(values: Sequence[float]) -> tuple[bool, float]:
    """A command's worth over the worlds: whether any world leaves it hope, then its mean (a
    world that refuses it counts as a lost game, so that the mean stays a number)."""
    values = [max(value, -WIN) for value in values]
    return any(value > -WIN for value in values), sum(values) / len(values)


def _candidates(legal: Sequence[msgspec.Struct], rng: random.Random) -> list[msgspec.Struct]:
    """Every legal command, or CANDIDATES of them (see `candidate_indices`)."""
    if len(legal) <= CANDIDATES:
        return list(legal)
    return [legal[index] for index in candidate_indices(len(legal), rng)]


def candidate_indices(total: int, rng: random.Random) -> list[int]:
    """The positions, in the game's order, of the commands the greedy bot weighs among `total`
    legal ones: all of them up to CANDIDATES; past that the first CANDIDATES // 2 and a random
    sample of the rest (a client reading a long list by pages reads these)."""
    if total <= CANDIDATES:
        return list(range(total))
    first = CANDIDATES // 2
    return [*range(first), *sorted(rng.sample(range(first, total), CANDIDATES - first))]


def _value_after(
    game: BotGame,
    evaluate: Callable[[Any, Seat], float],
    world: Any,
    seat: Seat,
    command: msgspec.Struct,
    rng: random.Random,
) -> float:
    """The seat's score once `command` and the referee's steps after it are played in `world`."""
    try:
        events = game.decide(world, seat, command, Chance(rng.randbytes(32)))
    except RuleViolation:  # legal in the real world, not in this imagined one
        return float("-inf")
    for event in events:
        world = game.evolve(world, event)
    return evaluate(world, seat)


# -- for the games' `evaluate` --------------------------------------------------------------------

WIN = 1_000_000.0  # an evaluation past any score: the game won (or, negated, lost)


def ended(winners: Sequence[Seat], seat: Seat) -> float:
    """The value of a finished game to `seat`."""
    return WIN if seat in winners else -WIN


def lead(scores: Sequence[float], seat: Seat) -> float:
    """How far `seat` is ahead of the best of the others (negative: behind)."""
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - max(others, default=0.0)

"""What a seat has not seen, dealt at random: the bots' imagined hands and piles.

A bot imagining the hidden part of a game (referee/kernel/bots.py) takes the game's components,
removes every one its seat can see, and deals the rest into the hidden places at random. The
randomness is the bot's own (`random.Random`), never the game's `Chance`: an imagined deal is a
guess, not a draw any third party must re-derive, so it does not start from a canonical order
(which is why this is not `piles.py`, whose shuffles are the referee's).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from referee.kernel.piles import without

T = TypeVar("T", bound=Hashable)
World = TypeVar("World")


def deal_unseen(
    components: Sequence[T], seen: Iterable[T], sizes: Sequence[int], rng: random.Random
) -> tuple[tuple[T, ...], ...]:
    """`components` less those `seen`, shuffled and dealt into places of the given `sizes`.

    The sizes must hold every unseen component exactly: a guess that lost or invented one would
    not be a state the rules can play on. The unseen components keep the order of
    `components` before the shuffle, so the same `rng` gives the same deal whatever the order of
    `seen`.
    """
    unseen = list(without(tuple(components), seen))
    if sum(sizes) != len(unseen) or any(size < 0 for size in sizes):
        raise ValueError(f"{len(unseen)} unseen components do not fill places of sizes {sizes}")
    rng.shuffle(unseen)
    places = []
    start = 0
    for size in sizes:
        places.append(tuple(unseen[start : start + size]))
        start += size
    return tuple(places)


def deal_until_it_fits(
    deal: Callable[[], World], fits: Callable[[World], bool], attempts: int
) -> World:
    """A deal that `fits` (one the seat's view allows), dealt again up to `attempts` times; the
    last deal if none did (rare: the lookahead then weighs a world a little off)."""
    world = deal()
    for _ in range(attempts):
        if fits(world):
            break
        world = deal()
    return world

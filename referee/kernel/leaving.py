"""What follows when seats leave a game (a resignation, a timeout) or the game is abandoned.

The same for every game, so that a client meets one rule:
- A side (a seat, or a team where the game has teams) that loses a seat leaves with it.
- Once fewer than two sides are left, the game is over: the side left wins, and the sides
  that left rank below it, the last to leave first.
- Until then the game goes on: whenever it waits for a seat that has left, the referee plays
  for it, choosing the first of its legal commands in the game's own order (`stand_in`). That
  seat can no longer win: once the game ends by its rules, the seats that left rank last.
- An abandoned game ends with no winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from referee.kernel.contract import Game, NoLegalCommand, Outcome, Seat
from referee.kernel.lifecycle import Departure


def sides_left(sides: Sequence[frozenset[Seat]], departed: Sequence[Seat]) -> list[frozenset[Seat]]:
    gone = set(departed)
    return [side for side in sides if not side & gone]


def outcome(
    base: Outcome,
    sides: Sequence[frozenset[Seat]],
    departures: Sequence[tuple[Seat, Departure]],
    *,
    abandoned: bool,
) -> Outcome:
    """The game's outcome (`base`, from its rules) once the kernel's events are counted."""
    if abandoned:
        return Outcome(finished=True, scores=base.scores, ending="abandoned")
    if not departures:
        return msgspec.structs.replace(base, ending="rules") if base.finished else base
    departed = [seat for seat, _ in departures]
    left = sides_left(sides, departed)
    below = _departed_ranking(sides, departed)
    if len(left) < 2:
        winners = tuple(sorted(left[0])) if left else ()
        return Outcome(
            finished=True,
            winners=winners,
            ranking=((winners,) if winners else ()) + below,
            scores=base.scores,
            ending=departures[-1][1],
        )
    if not base.finished:
        return base
    gone = set(departed)
    ranking = tuple(
        kept for group in base.ranking if (kept := tuple(s for s in group if s not in gone))
    )
    winners = tuple(seat for seat in base.winners if seat not in gone)
    if not winners and ranking:
        winners = ranking[0]
    return Outcome(
        finished=True, winners=winners, ranking=ranking + below, scores=base.scores, ending="rules"
    )


def _departed_ranking(
    sides: Sequence[frozenset[Seat]], departed: Sequence[Seat]
) -> tuple[tuple[Seat, ...], ...]:
    """The sides that left, the last to leave first (it held on longest)."""
    ranked: list[tuple[Seat, ...]] = []
    for seat in reversed(departed):
        side = tuple(sorted(next(side for side in sides if seat in side)))
        if side not in ranked:
            ranked.append(side)
    return tuple(ranked)


def stand_in(game: Game[Any, Any, Any, Any], state: Any, seat: Seat) -> msgspec.Struct:
    """The referee's move for a seat that has left: its first legal command. Raises
    NoLegalCommand where it has none (only a game of an older rules version can hold such a
    position): the command that made the seat leave is then refused, and changes nothing."""
    legal = game.legal_commands(state, seat)
    if not legal:
        raise NoLegalCommand(seat)
    return legal[0]

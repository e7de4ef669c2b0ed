"""Resources: who is left unfed (5.2, WR-4), what a player earns (5.3.2, WR-5), who pays to
have a teepee enter their space (5.3.1)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.wind_river.board import Space, Target
from referee.games.wind_river.data import ENTRY_FEE, STOCK_LIMIT, SUPPLY_COST
from referee.games.wind_river.state import State, board_of
from referee.kernel.contract import Seat
from referee.kernel.piles import distinct_selections


def unfed(state: State, seat: Seat) -> tuple[Space, ...]:
    """`seat`'s teepees left without a buffalo, one entry per teepee, in board order.

    In each space the buffalo feed the other players' teepees first (WR-4): what is left over
    feeds `seat`'s, one buffalo each.
    """
    left_unfed: list[Space] = []
    for space in board_of(state).spaces:
        counts = state.teepees_at(space)
        mine = counts[seat]
        if mine:
            spare = max(0, state.buffalo_at(space) - (sum(counts) - mine))
            left_unfed += [space] * max(0, mine - spare)
    return tuple(left_unfed)


def affordable(state: State, seat: Seat, unfed_count: int) -> int:
    """How many unfed teepees `seat` pays for: all it can (no voluntary starving, 5.2)."""
    return min(unfed_count, state.resources[seat] // SUPPLY_COST)


def send_back_options(state: State, seat: Seat) -> Sequence[tuple[Space, ...]]:
    """Every different choice of the unfed teepees that go back to the stock (WR-4): as many
    as the stock cannot pay for; a single choice when the stock pays for all (none go back)."""
    hungry = unfed(state, seat)
    return distinct_selections(hungry, len(hungry) - affordable(state, seat, len(hungry)))


def own_spaces(state: State, seat: Seat) -> tuple[Space, ...]:
    """The spaces where `seat`, and nobody else, has teepees."""
    return tuple(
        space
        for space in board_of(state).spaces
        if (counts := state.teepees_at(space))[seat] and sum(counts) == counts[seat]
    )


def earnings(state: State, seat: Seat) -> tuple[int, int]:
    """(counted, earned): buffalo minus `seat`'s teepees summed over its own spaces, clamped at
    0 as a whole (WR-5, WR-9), then what fits below the stock's limit of ten (5.3.2)."""
    counted = max(
        0,
        sum(
            state.buffalo_at(space) - state.teepees_at(space)[seat]
            for space in own_spaces(state, seat)
        ),
    )
    return counted, min(counted, STOCK_LIMIT - state.resources[seat])


def entry_payers(state: State, seat: Seat, target: Target) -> tuple[Seat, ...]:
    """5.3.1: entering a space where others have teepees costs everyone there (the mover too)
    one resource; a player with none pays nothing. The open plains cost nothing (WR-10)."""
    if not isinstance(target, Space) or not state.others_at(target, seat):
        return ()
    counts = state.teepees_at(target)
    return tuple(
        player
        for player in range(state.seats)
        if (counts[player] or player == seat) and state.resources[player] >= ENTRY_FEE
    )

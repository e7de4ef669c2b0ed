"""Why a command is refused: the predicates that `decide` raises and `legal` filters with.

Each `*_refusal` returns the RuleViolation that refuses the command, or None when the rules
accept it, so that what is legal is written once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NoReturn

from referee.games.wind_river.board import LIGHTER_LANE, Space, Target, index
from referee.games.wind_river.data import ENTRY_FEE, INSERT_COST, MAX_BUFFALO_PER_SPACE
from referee.games.wind_river.state import State, board_of
from referee.games.wind_river.supply import affordable, unfed
from referee.kernel.contract import Refusals, RuleViolation, Seat
from referee.kernel.piles import contains

KIND = "wind-river"
refusal = Refusals(KIND)


def refuse(rule: str, message: str) -> NoReturn:
    raise refusal(rule, message)


def describe(target: Target) -> str:
    if isinstance(target, Space):
        return f"lane {target.lane}, column {target.column}"
    return "the open plains"


def space_refusal(state: State, space: Space) -> RuleViolation | None:
    if space in board_of(state):
        return None
    if space.lane == LIGHTER_LANE:
        return refusal("lane-not-in-play", "With three players the lighter lane 1 is not used.")
    return refusal("no-such-space", f"There is no space at {describe(space)}.")


def placement_refusal(state: State, at: Space) -> RuleViolation | None:
    if found := space_refusal(state, at):
        return found
    if any(state.teepees_at(at)):
        return refusal(
            "space-not-vacant",
            f"A teepee of the set-up goes on a vacant space; {describe(at)} has a teepee.",
        )
    return None


def buffalo_move_refusal(
    state: State, source: Space, target: Target, *, extra: bool
) -> RuleViolation | None:
    """5.1 (and 5.3.4 with `extra`, where a buffalo moved in 5.1 may move again)."""
    if found := space_refusal(state, source):
        return found
    herd = state.buffalo_at(source)
    if not herd:
        return refusal("no-buffalo-there", f"There is no buffalo on {describe(source)}.")
    if not extra and herd == state.moved[index(source)]:
        return refusal(
            "buffalo-moved-already",
            f"Each buffalo moves at most once in this step; those on {describe(source)} have.",
        )
    if isinstance(target, Space) and (found := space_refusal(state, target)):
        return found
    if target not in board_of(state).buffalo_targets(source):
        return refusal(
            "not-ahead",
            "A buffalo moves one space straight or diagonally ahead (east), never backwards "
            "nor off a side, and into the open plains only from the last column.",
        )
    if isinstance(target, Space) and state.buffalo_at(target) >= MAX_BUFFALO_PER_SPACE:
        return refusal(
            "space-full",
            f"No more than {MAX_BUFFALO_PER_SPACE} buffalo may be on one space; "
            f"{describe(target)} is full.",
        )
    return None


def buffalo_moves(state: State, *, extra: bool) -> list[tuple[Space, Target]]:
    """Every (from, to) of a buffalo move the rules allow now."""
    return list(_each_buffalo_move(state, extra=extra))


def can_move_a_buffalo(state: State, *, extra: bool) -> bool:
    """Whether any buffalo move is allowed now (the first found: the stage asks often)."""
    return next(_each_buffalo_move(state, extra=extra), None) is not None


def _each_buffalo_move(state: State, *, extra: bool) -> Iterator[tuple[Space, Target]]:
    board = board_of(state)
    return (
        (source, target)
        for source in board.spaces
        if state.buffalo_at(source)
        for target in board.buffalo_targets(source)
        if buffalo_move_refusal(state, source, target, extra=extra) is None
    )


def send_back_refusal(state: State, seat: Seat, spaces: tuple[Space, ...]) -> RuleViolation | None:
    """WR-4: all the stock can pay for is paid; the player chooses which of the others go."""
    hungry = unfed(state, seat)
    due = len(hungry) - affordable(state, seat, len(hungry))
    if len(spaces) != due:
        if due == 0:
            return refusal(
                "send-back-count", "Your stock pays for every unfed teepee: none goes back."
            )
        return refusal(
            "send-back-count",
            f"Your stock pays for {len(hungry) - due} of your {len(hungry)} unfed teepees: "
            f"send back exactly {due}.",
        )
    if list(spaces) != sorted(spaces, key=index):
        return refusal(
            "send-back-order",
            "List the teepees to send back in board order: lane by lane from the north, "
            "each lane from the west.",
        )
    if not contains(hungry, spaces):
        return refusal(
            "send-back-fed",
            "Only teepees left without a buffalo go back: "
            + ", ".join(describe(space) for space in dict.fromkeys(hungry))
            + ".",
        )
    return None


def teepee_move_refusal(
    state: State, seat: Seat, source: Space, target: Target
) -> RuleViolation | None:
    """5.3.1: one teepee to a neighbouring space; the entry fee must be payable."""
    if found := space_refusal(state, source):
        return found
    if not state.teepees_at(source)[seat]:
        return refusal("no-teepee-there", f"You have no teepee on {describe(source)}.")
    if isinstance(target, Space) and (found := space_refusal(state, target)):
        return found
    if target not in board_of(state).teepee_targets(source):
        return refusal(
            "not-adjacent",
            "A teepee moves to a neighbouring space, and leaves the board only from the last "
            "column, into the open plains.",
        )
    if (
        isinstance(target, Space)
        and state.others_at(target, seat)
        and state.resources[seat] < ENTRY_FEE
    ):
        return refusal(
            "entry-unpaid",
            f"Other players have teepees on {describe(target)}: you may not enter it without "
            "a resource to pay.",
        )
    return None


def insert_refusal(state: State, seat: Seat, at: Space) -> RuleViolation | None:
    """5.3.3: three resources, a teepee in stock, a space where only you have teepees."""
    if found := space_refusal(state, at):
        return found
    if not state.teepees_at(at)[seat] or state.others_at(at, seat):
        return refusal(
            "insert-not-own-space",
            "A new teepee goes only where you, and nobody else, already have a teepee.",
        )
    if not state.stock[seat]:
        return refusal("no-teepee-in-stock", "You have no teepee left in your stock.")
    if state.resources[seat] < INSERT_COST:
        return refusal("insert-unpaid", f"Inserting a teepee costs {INSERT_COST} resources.")
    return None

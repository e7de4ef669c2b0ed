"""The checks on bids, challenges and Shaman powers, shared by `decide` and `legal_commands`.

Each `*_refusal` returns the RuleViolation that refuses the command, or None when the rules
accept it; `decide` raises it, `legal_commands` keeps what none refuses.
"""

from __future__ import annotations

from referee.games.coyote.commands import Bid
from referee.games.coyote.data import MAX_BID, MIN_BID, TARGETED_POWERS
from referee.games.coyote.state import State
from referee.kernel.contract import RuleViolation, Seat


def refuse(rule: str, message: str) -> RuleViolation:
    """The refusal `coyote.<rule>`, returned for `decide` to raise."""
    return RuleViolation(f"coyote.{rule}", message)


def rebid_pending(state: State) -> bool:
    """A Cancel was played: the bidder must now bid again (CY-8)."""
    return state.canceller is not None


def bid_floor(state: State) -> int:
    """A bid must be strictly higher than this (after a Cancel: the bid before the cancelled)."""
    return state.current_bid or 0


def power_refusal(state: State, seat: Seat) -> RuleViolation | None:
    if not state.shaman:
        return refuse("shaman-not-in-play", "This game is played without the Shaman variant.")
    if state.shaman_used[seat]:
        return refuse("shaman-used", "You have already used your Shaman card.")
    return None


def _must_rebid(state: State) -> RuleViolation | None:
    if rebid_pending(state):
        return refuse("must-rebid", "Your bid was cancelled: bid a different number.")
    return None


def bid_refusal(state: State, seat: Seat, bid: Bid) -> RuleViolation | None:
    if not MIN_BID <= bid.number <= MAX_BID:
        return refuse("bid-out-of-range", f"A bid is a number from {MIN_BID} to {MAX_BID}.")
    floor = bid_floor(state)
    if rebid_pending(state):
        if bid.power is not None or bid.target is not None:
            return refuse("rebid-no-power", "A bid forced by a Cancel carries no power.")
        if bid.number == state.cancelled_bid:
            return refuse("rebid-same-number", "After a Cancel you must bid a different number.")
    if bid.number <= floor:
        return refuse("bid-not-higher", f"Your bid must be higher than {floor}.")
    return declaration_refusal(state, seat, bid)


def declaration_refusal(state: State, seat: Seat, bid: Bid) -> RuleViolation | None:
    if bid.power is None:
        if bid.target is not None:
            return refuse("target-without-power", "Only a Shaman power names a target.")
        return None
    if refusal := power_refusal(state, seat):
        return refusal
    if bid.power not in TARGETED_POWERS:
        if bid.target is not None:
            return refuse("target-not-allowed", f"{bid.power} does not name a player.")
        return None
    if bid.target is None:
        return refuse("target-required", f"{bid.power} must name a player.")
    if bid.target not in state.in_play:
        return refuse("target-not-in-play", f"Seat {bid.target} is not in the game.")
    if bid.power == "it-is-your-turn" and bid.target == seat:
        return refuse("target-self", "It Is Your Turn must name another player.")
    return None


def challenge_refusal(state: State) -> RuleViolation | None:
    if refusal := _must_rebid(state):
        return refusal
    if state.current_bid is None:
        return refuse("no-bid-to-challenge", "Nobody has bid yet: open the round with a bid.")
    return None


def lynx_refusal(state: State, seat: Seat) -> RuleViolation | None:
    if refusal := _must_rebid(state) or power_refusal(state, seat):
        return refusal
    if state.current_bid is None:
        return refuse("no-bid-to-repeat", "Nobody has bid yet: there is no bid to repeat.")
    if state.lynx_barred:
        return refuse("lynx-barred", "Eye of the Lynx cannot answer Eye of the Lynx.")
    return None


def cancel_refusal(state: State, seat: Seat) -> RuleViolation | None:
    if refusal := _must_rebid(state) or power_refusal(state, seat):
        return refusal
    cancelled = state.current_bid
    if cancelled is None:
        return refuse("no-bid-to-cancel", "Nobody has bid yet: there is no bid to cancel.")
    # The bidder must be able to give another number above the bid before theirs (which equals
    # theirs when they answered with Eye of the Lynx).
    choices = MAX_BID - state.bid_before - (1 if cancelled > state.bid_before else 0)
    if choices < 1:
        return refuse("cancel-impossible", "The bidder would have no other number to bid.")
    return None

"""`decide`: a command checked against the rules and turned into events."""

from __future__ import annotations

from typing import assert_never

from referee.games.coyote.challenge import resolve_challenge
from referee.games.coyote.checks import (
    bid_refusal,
    cancel_refusal,
    challenge_refusal,
    lynx_refusal,
    rebid_pending,
)
from referee.games.coyote.commands import Bid, Cancel, Challenge, Command, EyeOfTheLynx
from referee.games.coyote.dealing import Script, deal
from referee.games.coyote.events import BidCancelled, BidMade, Event, LynxCalled
from referee.games.coyote.state import State
from referee.kernel.chance import Chance
from referee.kernel.contract import RuleViolation, Seat


def _raise_if(refusal: RuleViolation | None) -> None:
    if refusal is not None:
        raise refusal


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    match command:
        case Bid():
            return _bid(state, seat, command, chance)
        case Challenge():
            _raise_if(challenge_refusal(state))
            return resolve_challenge(state, seat, chance)
        case EyeOfTheLynx():
            _raise_if(lynx_refusal(state, seat))
            assert state.current_bid is not None
            return [LynxCalled(seat=seat, number=state.current_bid)]
        case Cancel():
            _raise_if(cancel_refusal(state, seat))
            assert state.current_bid is not None and state.bidder is not None
            return [BidCancelled(seat=seat, bidder=state.bidder, number=state.current_bid)]
    assert_never(command)


def _bid(state: State, seat: Seat, bid: Bid, chance: Chance) -> list[Event]:
    _raise_if(bid_refusal(state, seat, bid))
    script = Script(state)
    script.emit(
        BidMade(
            seat=seat,
            number=bid.number,
            power=bid.power,
            target=bid.target,
            rebid=rebid_pending(state),
        )
    )
    if bid.power == "take-a-card" and bid.target is not None:
        deal(script, chance, bid.target, extra=True)
    return script.events

"""Coyote! The reveal, the count, the feather lost, and the next round (or the end)."""

from __future__ import annotations

from referee.games.coyote.count import count_indians
from referee.games.coyote.data import PENALTY, TWO_FEATHERS_PENALTY
from referee.games.coyote.dealing import Script, shuffled, start_round, top_card
from referee.games.coyote.events import (
    Challenged,
    Counted,
    Eliminated,
    Event,
    GameWon,
    RoundEnded,
    TeepeeDrew,
)
from referee.games.coyote.state import State
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat


def teepee_holder(state: State) -> Seat | None:
    for seat, hand in enumerate(state.hands):
        if any(card.kind == "teepee" for card in hand):
            return seat
    return None


def penalty(state: State) -> int:
    """The feathers a challenge costs its loser (CY-4; two with 2 Feathers)."""
    return TWO_FEATHERS_PENALTY if state.two_feathers else PENALTY


def resolve_challenge(state: State, challenger: Seat, chance: Chance) -> list[Event]:
    bid, bidder = state.current_bid, state.bidder
    assert bid is not None and bidder is not None, "a challenge needs a bid"
    script = Script(state)
    script.emit(Challenged(seat=challenger, bidder=bidder, bid=bid, hands=state.hands))
    holder = teepee_holder(state)
    if holder is not None:  # CY-3a, with CY-7 if the draw pile is empty
        script.emit(TeepeeDrew(seat=holder, card=top_card(script, chance)))
    total = count_indians(script.state.cards_in_play)
    loser = challenger if bid <= total else bidder  # CY-4
    lost = min(penalty(state), state.feathers[loser])
    script.emit(Counted(total=total, loser=loser, feathers_lost=lost))
    if script.state.feathers[loser] == 0:
        script.emit(Eliminated(seat=loser))
    moon = any(card.kind == "moon" for card in script.state.cards_in_play)
    script.emit(RoundEnded(moon=moon))  # CY-6: the cards in play go to the discard pile
    survivors = script.state.in_play
    if len(survivors) == 1:
        (winner,) = survivors
        script.emit(GameWon(seat=winner))
        return script.events
    if moon:  # CY-6: everything is shuffled into a new draw pile
        script.emit(shuffled(script.state, chance, "moon"))
    # CY-5: the loser starts; if the loser is out, the one who beat them.
    beaten_by = bidder if loser == challenger else challenger
    start_round(script, chance, loser if loser in survivors else beaten_by)
    return script.events

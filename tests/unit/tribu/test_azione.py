"""Azione cards (the section AZIONE CARDS; TR-9, TR-10): played from the hand after drawing,
to the played-cards pile; Take 3, Block and Steal, and discarding one instead of playing it."""

from __future__ import annotations

from referee.games.tribu.commands import (
    Block,
    Defend,
    Discard,
    DiscardThree,
    Draw,
    DrawThree,
    PassDefence,
    Steal,
)
from referee.games.tribu.events import (
    AttackResolved,
    CardDrawn,
    ChainEliminated,
    LeaderRevealed,
    ThreeDiscarded,
    TurnSkippedByBlock,
    TurnStarted,
)
from referee.games.tribu.stages import Stage, stage
from referee.games.tribu.state import Chain

from .support import act, chain, chains_of, hand, legal, position, refused, state_of

HAND = ["draw-three", "block", "steal", "wolf", "horse-red"]


def test_take_three_then_discard_three() -> None:
    table = position(hands={0: HAND}, draw_top=["drum-red", "flag-blue", "canoe-red", "bison"])
    act(table, 0, Draw())
    events = act(table, 0, DrawThree())
    drawn = [e.card for e in events if isinstance(e, CardDrawn)]
    assert drawn == ["flag-blue", "canoe-red", "bison"]  # never from the discard pile
    assert state_of(table).played == ("draw-three",) and len(hand(table, 0)) == 8
    assert stage(state_of(table)) is Stage.DISCARDING and state_of(table).discards_due == 3
    refused(table, 0, DiscardThree(cards=("wolf", "bison")), "discard-count")
    refused(table, 0, DiscardThree(cards=("wolf", "bison", "totem")), "not-in-hand")
    events = act(table, 0, DiscardThree(cards=("wolf", "bison", "block")))
    assert events[0] == ThreeDiscarded(seat=0, cards=("wolf", "bison", "block"))
    assert state_of(table).discard[:3] == ("block", "bison", "wolf")  # the last one on top
    assert len(hand(table, 0)) == 5 and state_of(table).current == 1


def test_take_three_with_fewer_cards_left_draws_and_discards_what_there_is() -> None:
    table = position(
        hands={0: HAND}, draw_pile=["drum-red", "flag-blue"], discard=["totem"], rest_to="played"
    )
    act(table, 0, Draw())
    act(table, 0, DrawThree())
    assert state_of(table).discards_due == 1  # one card left in the draw pile, none to rebuild
    assert DiscardThree(cards=("wolf",)) in legal(table, 0)
    act(table, 0, DiscardThree(cards=("wolf",)))
    assert len(hand(table, 0)) == 5


def test_block_skips_the_targets_next_turn_and_then_goes_to_the_played_pile() -> None:
    table = position(seats=3, hands={0: HAND}, chains={1: [chain("elder", "drum-red")]})
    act(table, 0, Draw())
    refused(table, 0, Block(seat=2), "block-needs-chain")
    events = act(table, 0, Block(seat=1))
    # Block cannot be defended: no answer is awaited, and seat 1's turn is skipped at once.
    assert TurnStarted(seat=1, turn=3) in events and TurnSkippedByBlock(seat=1) in events
    assert events[-1] == TurnStarted(seat=2, turn=4) and table.to_act() == {2}
    assert state_of(table).played == ("block",) and not state_of(table).players[1].blocked


def test_a_blocked_player_cannot_be_blocked_again() -> None:
    table = position(seats=3, hands={0: HAND}, chains={1: [chain("elder")]}, blocked=[1])
    act(table, 0, Draw())
    refused(table, 0, Block(seat=1), "already-blocked")


def test_steal_takes_the_last_card_onto_your_chain_where_it_fits() -> None:
    chains = {0: [chain("shaman", "statue-red")], 1: [chain("warrior", "horse-blue")]}
    table = position(hands={0: HAND}, chains=chains)
    act(table, 0, Draw())
    assert Steal(seat=1, chain="warrior", into="shaman") in legal(table, 0)
    act(table, 0, Steal(seat=1, chain="warrior", into="shaman"))
    assert table.to_act() == {1}  # the defence window opens on a Steal
    events = act(table, 1, PassDefence())
    assert (
        AttackResolved(
            seat=0, card="steal", target=1, chain="warrior", stolen="horse-blue", into="shaman"
        )
        in events
    )
    assert chains_of(table, 0)["shaman"] == ("statue-red", "horse-blue")
    assert chains_of(table, 1)["warrior"] == ()
    assert state_of(table).played == ("steal",)


def test_a_card_that_cannot_be_placed_at_once_cannot_be_stolen() -> None:
    chains = {
        0: [chain("elder")],
        1: [chain("warrior", "horse-blue")],
    }
    table = position(hands={0: HAND}, chains=chains)
    act(table, 0, Draw())
    refused(table, 0, Steal(seat=1, chain="warrior", into="elder"), "steal-does-not-fit")
    protected = chain("warrior", "horse-red", "drum-red", "bow-red", "totem")
    table = position(hands={0: HAND}, chains={0: [chain("hunter")], 1: [protected]})
    act(table, 0, Draw())
    refused(table, 0, Steal(seat=1, chain="warrior", into="hunter"), "chain-protected")


def test_any_protezione_stops_a_steal() -> None:
    guarded = chain("warrior", "horse-blue", active="feathers-of-strength")
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-red")], 1: [guarded]})
    act(table, 0, Draw())
    act(table, 0, Steal(seat=1, chain="warrior", into="shaman"))
    events = act(table, 1, Defend(active="warrior"))
    assert AttackResolved(seat=0, card="steal", target=1, chain="warrior") in events
    assert chains_of(table, 1)["warrior"] == ("horse-blue",)
    assert state_of(table).played == ("steal",)


def test_an_azione_card_may_be_discarded_instead() -> None:
    table = position(hands={0: HAND})
    act(table, 0, Draw())
    act(table, 0, Discard(card="steal"))
    assert state_of(table).discard[0] == "steal" and state_of(table).played == ()


def test_a_skipped_turn_counts_as_a_turn_for_lone_tribe_cards() -> None:
    # TR-9: seat 1 placed a warrior in its last turn; blocked, its skipped turn still ends with
    # the warrior alone: it goes. Its leader's lone card survives, and that reveals the leader.
    placed = [Chain(character="warrior", fresh=True), Chain(character="hunter", fresh=True)]
    table = position(
        seats=3, hands={0: HAND}, chains={1: placed}, leaders=["shaman", "hunter", "elder"]
    )
    act(table, 0, Draw())
    events = act(table, 0, Block(seat=1))
    assert TurnSkippedByBlock(seat=1) in events
    assert ChainEliminated(seat=1, chain="warrior", active=None, had_active=False) in events
    assert LeaderRevealed(seat=1, leader="hunter") in events
    assert chains_of(table, 1) == {"hunter": ()}


def test_a_steal_may_give_a_lone_tribe_card_its_first_vase() -> None:
    chains = {0: [chain("shaman")], 1: [chain("elder", "drum-red", "statue-blue")]}
    table = position(hands={0: HAND}, chains=chains, leaders=["hunter", "elder"])
    act(table, 0, Draw())
    events = act(table, 0, Steal(seat=1, chain="elder", into="shaman"))
    events += act(table, 1, PassDefence())
    assert chains_of(table, 0) == {"shaman": ("statue-blue",)}  # not eliminated at the turn's end
    assert not any(isinstance(e, ChainEliminated) for e in events)


def test_a_multidiorama_may_be_stolen_and_the_victims_lone_card_then_goes() -> None:
    chains = {0: [chain("shaman", "statue-red")], 1: [chain("warrior", "multidiorama")]}
    table = position(hands={0: HAND}, chains=chains, leaders=["hunter", "elder"])
    act(table, 0, Draw())
    act(table, 0, Steal(seat=1, chain="warrior", into="shaman"))
    act(table, 1, PassDefence())
    assert chains_of(table, 0) == {"shaman": ("statue-red", "multidiorama")}
    act(table, 1, Draw())
    events = act(table, 1, Discard(card=state_of(table).players[1].hand[0]))
    assert ChainEliminated(seat=1, chain="warrior", active=None, had_active=False) in events

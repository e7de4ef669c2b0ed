"""The turn (TR-3): exactly one of [A]-[G], and five cards in hand at its end.

[A] draw, discard; [B] draw, play an Azione card (test_azione); [C] draw, place a Tribù card;
[D] draw, place a Diorama card; [E] draw, activate a card; [F] draw, swap an active card, then
discard, place, activate or play; [G] without drawing, use an active card (a Diorama to
continue a chain here; an Evento in test_attacks)."""

from __future__ import annotations

import pytest

from referee.games.tribu.commands import (
    Activate,
    Attack,
    ContinueChain,
    Discard,
    Draw,
    PlaceDiorama,
    PlaceTribe,
    SwapActive,
)
from referee.games.tribu.events import CardDrawn, TurnStarted
from referee.games.tribu.stages import Stage, stage
from referee.kernel import RuleViolation

from .support import act, chain, chains_of, hand, legal, position, refused, state_of

HAND = ["shaman", "statue-red", "horse-blue", "wolf", "feathers-of-strength"]


def ends_with_five(table: object, seat: int = 0) -> None:
    state = state_of(table)  # type: ignore[arg-type]
    assert len(state.players[seat].hand) == 5
    assert state.current == 1 and stage(state) is Stage.START_OF_TURN


def test_a_draw_discard_turn() -> None:
    table = position(hands={0: HAND}, draw_top=["flag-red"])
    events = act(table, 0, Draw())
    assert events == [CardDrawn(seat=0, source="draw-pile", card="flag-red")]
    assert len(hand(table, 0)) == 6 and stage(state_of(table)) is Stage.AFTER_DRAW
    events = act(table, 0, Discard(card="wolf"))
    assert state_of(table).discard[0] == "wolf"
    assert TurnStarted(seat=1, turn=3) in events
    ends_with_five(table)


def test_the_discard_pile_only_when_its_top_is_a_diorama() -> None:
    table = position(hands={0: HAND}, discard=["wolf", "drum-red"])
    refused(table, 0, Draw(source="discard-pile"), "discard-top-not-diorama")
    assert Draw(source="discard-pile") not in legal(table, 0)
    table = position(hands={0: HAND}, discard=["drum-red", "wolf"])
    events = act(table, 0, Draw(source="discard-pile"))
    assert events == [CardDrawn(seat=0, source="discard-pile", card="drum-red")]
    assert state_of(table).discard == ("wolf",)


def test_c_place_a_tribe_card_to_start_a_chain() -> None:
    table = position(hands={0: HAND})
    act(table, 0, Draw())
    act(table, 0, PlaceTribe(card="shaman"))
    assert chains_of(table, 0) == {"shaman": ()}
    ends_with_five(table)


def test_no_doubles_in_a_tribe() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-blue")]})
    act(table, 0, Draw())
    refused(table, 0, PlaceTribe(card="shaman"), "double")
    assert PlaceTribe(card="shaman") not in legal(table, 0)


def test_d_place_a_diorama_card_as_the_next_vase() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman")]})
    act(table, 0, Draw())
    refused(table, 0, PlaceDiorama(card="horse-blue", chain="shaman"), "does-not-fit")
    act(table, 0, PlaceDiorama(card="statue-red", chain="shaman"))
    assert chains_of(table, 0) == {"shaman": ("statue-red",)}
    ends_with_five(table)


def test_e_activate_a_card_face_down_one_per_chain_and_no_discard() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-red")]})
    act(table, 0, Draw())
    refused(table, 0, Activate(card="shaman", chain="shaman"), "cannot-activate")
    act(table, 0, Activate(card="wolf", chain="shaman"))
    assert state_of(table).players[0].chains[0].active == "wolf"
    ends_with_five(table)
    table = position(hands={0: HAND}, chains={0: [chain("shaman", active="bison")]})
    act(table, 0, Draw())
    refused(table, 0, Activate(card="wolf", chain="shaman"), "chain-has-active")


def test_azione_cards_cannot_be_made_active() -> None:
    table = position(hands={0: [*HAND[:4], "block"]}, chains={0: [chain("elder")]})
    act(table, 0, Draw())
    refused(table, 0, Activate(card="block", chain="elder"), "cannot-activate")


def test_f_swap_an_active_card_then_one_more_action() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-red", active="bison")]})
    act(table, 0, Draw())
    refused(table, 0, SwapActive(chain="shaman", card="shaman"), "cannot-activate")
    act(table, 0, SwapActive(chain="shaman", card="wolf"))
    state = state_of(table)
    assert state.players[0].chains[0].active == "wolf" and "bison" in hand(table, 0)
    assert stage(state) is Stage.AFTER_SWAP and table.to_act() == {0}
    assert not any(isinstance(command, SwapActive) for command in legal(table, 0))
    refused(table, 0, SwapActive(chain="shaman", card="bison"), "not-now")
    act(table, 0, Discard(card="bison"))
    ends_with_five(table)


def test_a_swap_takes_a_different_card() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-red", active="wolf")]})
    act(table, 0, Draw())
    refused(table, 0, SwapActive(chain="shaman", card="wolf"), "swap-same-card")


def test_g_an_active_diorama_continues_any_chain_where_it_fits_without_a_draw() -> None:
    chains = [chain("shaman", active="horse-red"), chain("warrior")]
    table = position(hands={0: HAND}, chains={0: chains})
    assert ContinueChain(active="shaman", chain="warrior") in legal(table, 0)  # TR-10
    refused(table, 0, ContinueChain(active="shaman", chain="shaman"), "does-not-fit")
    before = hand(table, 0)
    act(table, 0, ContinueChain(active="shaman", chain="warrior"))
    assert chains_of(table, 0) == {"shaman": (), "warrior": ("horse-red",)}
    assert state_of(table).players[0].chains[0].active is None and hand(table, 0) == before
    ends_with_five(table)


def test_after_a_draw_no_active_card_may_be_used() -> None:
    chains = [chain("shaman", active="horse-red"), chain("warrior")]
    table = position(hands={0: HAND}, chains={0: chains, 1: [chain("hunter", "canoe-red")]})
    act(table, 0, Draw())
    refused(table, 0, ContinueChain(active="shaman", chain="warrior"), "not-now")
    refused(table, 0, Attack(active="shaman", seat=1, chain="hunter"), "not-now")


def test_nobody_else_acts_and_only_the_player_to_act_has_commands() -> None:
    table = position(hands={0: HAND})
    assert table.to_act() == {0} and legal(table, 1) == []


def test_the_card_taken_back_from_active_is_not_placed_in_the_same_turn() -> None:
    # TR-R14: a player who draws uses no active card, not even by a swap and a placement.
    chains = [chain("shaman", active="statue-red")]
    table = position(hands={0: ["wolf", *HAND[2:], "horse-red"]}, chains={0: chains})
    act(table, 0, Draw())
    act(table, 0, SwapActive(chain="shaman", card="wolf"))
    refused(table, 0, PlaceDiorama(card="statue-red", chain="shaman"), "returned-card")
    with pytest.raises(RuleViolation, match="ruling TR-14"):  # the message names the ruling
        act(table, 0, PlaceDiorama(card="statue-red", chain="shaman"))
    assert PlaceDiorama(card="statue-red", chain="shaman") not in legal(table, 0)
    twice = position(hands={0: ["wolf", "statue-red", *HAND[2:4]]}, chains={0: chains})
    act(twice, 0, Draw())
    act(twice, 0, SwapActive(chain="shaman", card="wolf"))
    act(twice, 0, PlaceDiorama(card="statue-red", chain="shaman"))  # the copy from the hand

"""Chains (the sections CHAINS, TRIBÙ CARD, DIORAMA CARD, Multidiorama, Totem; TR-5, TR-12):
the vases in order, complete, protected and magical chains, and the lone Tribù card."""

from __future__ import annotations

import pytest

from referee.games.tribu.chains import fits, is_complete, is_magical, is_protected, spheres_on_table
from referee.games.tribu.commands import (
    Attack,
    Discard,
    Draw,
    PassDefence,
    PlaceDiorama,
    PlaceTribe,
)
from referee.games.tribu.events import ChainEliminated, LeaderRevealed
from referee.games.tribu.state import Chain

from .support import act, chain, chains_of, position, refused, state_of

HAND = ["totem", "statue-red", "horse-blue", "multidiorama", "flag-red"]


@pytest.mark.parametrize(
    ("placed", "card", "fit"),
    [
        ((), "statue-red", True),
        ((), "statue-blue", True),  # any colour
        ((), "horse-red", False),  # the vases' order
        (("statue-red",), "horse-blue", True),
        (("statue-red",), "flag-red", False),
        ((), "multidiorama", True),  # in place of any vase
        (("multidiorama",), "multidiorama", False),  # one per chain
        (("multidiorama",), "horse-red", True),
        (("statue-red", "horse-red"), "totem", False),  # only on a complete chain
        (("statue-red", "horse-red", "flag-blue"), "totem", True),
        (("statue-red", "horse-red", "flag-blue"), "flag-red", False),
        (("statue-red", "horse-red", "flag-blue", "totem"), "totem", False),  # one Totem
        ((), "wolf", False),
    ],
)
def test_diorama_cards_follow_the_vases_of_the_tribe_card(
    placed: tuple[str, ...], card: str, fit: bool
) -> None:
    assert fits(card, Chain(character="shaman", dioramas=placed)) is fit  # type: ignore[arg-type]


def test_complete_protected_and_magical_chains() -> None:
    complete = Chain(character="shaman", dioramas=("statue-red", "horse-red", "flag-red"))
    assert is_complete(complete) and not is_protected(complete) and not is_magical(complete)
    totem = Chain(character="shaman", dioramas=(*complete.dioramas, "totem"))
    assert is_protected(totem) and is_magical(totem)
    mixed = Chain(character="shaman", dioramas=("statue-red", "horse-blue", "flag-red", "totem"))
    assert is_protected(mixed) and not is_magical(mixed)
    # TR-12: a Multidiorama counts as either colour.
    multi = Chain(
        character="shaman", dioramas=("statue-blue", "multidiorama", "flag-blue", "totem")
    )
    assert is_magical(multi)
    assert spheres_on_table(multi) == 5 + 1 + 3 + 1 + 5


def test_a_protected_chain_takes_no_more_cards() -> None:
    done = chain("shaman", "statue-red", "horse-red", "flag-red", "totem")
    table = position(hands={0: ["statue-blue", *HAND[1:]]}, chains={0: [done]})
    act(table, 0, Draw())
    refused(table, 0, PlaceDiorama(card="statue-blue", chain="shaman"), "chain-protected")


def test_a_totem_needs_three_diorama_cards_first() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "statue-red", "horse-red")]})
    act(table, 0, Draw())
    refused(table, 0, PlaceDiorama(card="totem", chain="shaman"), "totem-needs-complete-chain")
    act(table, 0, PlaceDiorama(card="flag-red", chain="shaman"))
    assert chains_of(table, 0)["shaman"] == ("statue-red", "horse-red", "flag-red")


def test_one_multidiorama_per_chain() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", "multidiorama")]})
    act(table, 0, Draw())
    refused(table, 0, PlaceDiorama(card="multidiorama", chain="shaman"), "one-multidiorama")


def play_a_discard_turn(table: object, seat: int, card: str) -> list[object]:
    act(table, seat, Draw())  # type: ignore[arg-type]
    return act(table, seat, Discard(card=card))  # type: ignore[arg-type,arg-type]


def test_a_lone_tribe_card_survives_the_turn_it_is_placed_in() -> None:
    table = position(hands={0: ["warrior", *HAND[1:]]})
    act(table, 0, Draw())
    act(table, 0, PlaceTribe(card="warrior"))
    assert chains_of(table, 0) == {"warrior": ()} and state_of(table).current == 1


def test_alone_at_the_end_of_its_owners_next_turn_it_goes_with_its_active_card() -> None:
    # Seat 0 (leader: shaman) placed a warrior in its last turn and activated a Wolf beside
    # it; still alone at the end of seat 0's next turn, it is eliminated: under the discard
    # pile, the Tribù card first, then its active card (TR-5, TR-11).
    placed = Chain(character="warrior", active="wolf", fresh=True)
    table = position(hands={0: HAND}, chains={0: [placed]}, current=1)
    play_a_discard_turn(table, 1, state_of(table).players[1].hand[0])
    assert chains_of(table, 0) == {"warrior": ()}
    events = play_a_discard_turn(table, 0, "flag-red")
    assert ChainEliminated(seat=0, chain="warrior", active="wolf", had_active=True) in events
    assert chains_of(table, 0) == {}
    assert state_of(table).discard[-2:] == ("warrior", "wolf")


def test_a_lone_tribe_card_that_gets_its_diorama_stays() -> None:
    table = position(hands={0: ["warrior", "horse-red", *HAND[2:]]})
    act(table, 0, Draw())
    act(table, 0, PlaceTribe(card="warrior"))
    play_a_discard_turn(table, 1, state_of(table).players[1].hand[0])
    act(table, 0, Draw())
    act(table, 0, PlaceDiorama(card="horse-red", chain="warrior"))
    assert chains_of(table, 0) == {"warrior": ("horse-red",)}


def test_the_leaders_character_is_never_eliminated_and_that_reveals_the_leader() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman")]}, leaders=["shaman", "hunter"])
    events = play_a_discard_turn(table, 0, "flag-red")
    assert LeaderRevealed(seat=0, leader="shaman") in events
    assert chains_of(table, 0) == {"shaman": ()}
    assert state_of(table).players[0].leader_revealed
    play_a_discard_turn(table, 1, state_of(table).players[1].hand[0])
    events = play_a_discard_turn(table, 0, "statue-red")
    assert not [e for e in events if isinstance(e, LeaderRevealed | ChainEliminated)]


def test_a_chain_left_alone_by_an_attack_must_be_repaired_in_its_owners_next_turn() -> None:
    chains = {0: [chain("elder", active="wolf")], 1: [chain("warrior", "horse-red")]}
    table = position(hands={0: HAND}, chains=chains, leaders=["shaman", "hunter"])
    act(table, 0, Attack(active="elder", seat=1, chain="warrior"))
    act(table, 1, PassDefence())
    assert chains_of(table, 1) == {"warrior": ()}
    # Seat 1 does not place its first vase again: the lone warrior goes at its turn's end.
    events = play_a_discard_turn(table, 1, state_of(table).players[1].hand[0])
    assert ChainEliminated(seat=1, chain="warrior", active=None, had_active=False) in events

"""Trials of Strength, identical Heroes, protected pairs and the sacrifice, two Heroes at most."""

from __future__ import annotations

import itertools

import pytest

from referee.games.big_manitou.commands import PlayCard
from referee.games.big_manitou.data import DEFEATS, HEROES, HUNTERS, HeroKind
from referee.games.big_manitou.events import CardPlayed
from referee.games.big_manitou.heroes import face_up_heroes
from referee.kernel import RuleViolation, Table

from .support import act, cards_in, hunt_position, plays, state_of, two_player_hunt


def owners_face_up(table: Table, ground: int) -> set[int]:
    g = state_of(table).grounds[ground]
    return {g.cards[p].owner for p in face_up_heroes(g)}


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(HEROES, 2)))
def test_the_stronger_hero_turns_the_weaker_face_down(first: HeroKind, second: HeroKind) -> None:
    table = two_player_hunt([first], [second])
    events = plays(table, (0, first, 0), (1, second, 0))
    second_wins = first in DEFEATS[second]
    assert cards_in(table, 0) == [(0, first, not second_wins), (1, second, second_wins)]
    played = [e for e in events if isinstance(e, CardPlayed)][-1]
    assert played.turned_down == ((0,) if second_wins else (1,))


@pytest.mark.parametrize("hero", HEROES)
def test_identical_heroes_eliminate_each_other(hero: HeroKind) -> None:
    table = two_player_hunt([hero], [hero])
    plays(table, (0, hero, 1), (1, hero, 1))
    assert cards_in(table, 1) == [(0, hero, False), (1, hero, False)]
    assert owners_face_up(table, 1) == set()


def protected_scout(attacker: HeroKind) -> Table:
    """Alex (seat 0) protects his Scout with a Chief in ground 0; Mario (seat 1) attacks."""
    table = two_player_hunt(["scout", "chief"], ["hunter-1", attacker])
    plays(table, (0, "scout", 0), (1, "hunter-1", 2), (0, "chief", 0))
    return table


@pytest.mark.parametrize("sacrifice", ["squaw", "chief"])
def test_a_pair_falls_only_to_a_sacrifice_at_least_as_strong_as_its_top_hero(
    sacrifice: HeroKind,
) -> None:
    table = protected_scout(sacrifice)
    plays(table, (1, sacrifice, 0))
    assert cards_in(table, 0) == [(0, "scout", True), (0, "chief", False), (1, sacrifice, False)]


@pytest.mark.parametrize("weaker", ["scout", "medicine-man", "rain-maker"])
def test_a_weaker_attack_on_a_pair_fails_and_only_the_attacker_goes_down(weaker: HeroKind) -> None:
    # BM-7. The Rain Maker would beat the Scout underneath, but the Chief on top protects it.
    table = protected_scout(weaker)
    plays(table, (1, weaker, 0))
    assert cards_in(table, 0) == [(0, "scout", True), (0, "chief", True), (1, weaker, False)]


def test_after_a_sacrifice_the_remaining_hero_meets_a_normal_trial() -> None:
    table = two_player_hunt(
        ["scout", "chief", "hunter-9", "hunter-8"], ["hunter-1", "squaw", "rain-maker"]
    )
    plays(
        table,
        (0, "scout", 0),
        (1, "hunter-1", 2),
        (0, "chief", 0),
        (1, "squaw", 0),  # the sacrifice: Chief and Squaw go down
        (0, "hunter-9", 1),
        (1, "rain-maker", 0),  # the Rain Maker defeats the Scout, now alone
    )
    assert cards_in(table, 0) == [
        (0, "scout", False),
        (0, "chief", False),
        (1, "squaw", False),
        (1, "rain-maker", True),
    ]
    assert owners_face_up(table, 0) == {1}


def test_the_attacked_player_may_make_a_pair_again() -> None:
    table = two_player_hunt(["scout", "chief", "chief"], ["hunter-1", "squaw", "hunter-2"])
    plays(table, (0, "scout", 0), (1, "hunter-1", 2), (0, "chief", 0), (1, "squaw", 0))
    plays(table, (0, "chief", 0))
    assert [c for c in cards_in(table, 0) if c[2]] == [(0, "scout", True), (0, "chief", True)]
    assert owners_face_up(table, 0) == {0}


def test_no_player_may_have_three_face_up_heroes_in_a_ground() -> None:
    table = two_player_hunt(["scout", "chief", "squaw"], ["hunter-1", "hunter-2"])
    plays(table, (0, "scout", 0), (1, "hunter-1", 1), (0, "chief", 0), (1, "hunter-2", 1))
    before = state_of(table)
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, PlayCard(card="squaw", ground=0))
    assert refusal.value.rule_id == "big-manitou.two-heroes"
    assert table.state == before
    act(table, 0, PlayCard(card="hunter-10", ground=0))  # a Hunter may still join them


def test_face_down_heroes_of_ones_own_do_not_count_towards_the_two() -> None:
    table = two_player_hunt(
        ["scout", "chief", "medicine-man", "rain-maker"], ["hunter-1", "chief", "hunter-2"]
    )
    plays(
        table,
        (0, "scout", 0),
        (1, "hunter-1", 1),
        (0, "chief", 0),
        (1, "chief", 0),  # a sacrifice: one of seat 0's Heroes is left face up
        (0, "medicine-man", 0),
        (1, "hunter-2", 1),
        (0, "rain-maker", 2),
    )
    assert [c for c in cards_in(table, 0) if c[2]] == [
        (0, "scout", True),
        (0, "medicine-man", True),
    ]


def test_a_hero_placed_over_ones_own_face_down_hero_stands_alone() -> None:
    table = two_player_hunt(["chief", "scout"], ["squaw", "hunter-3"])
    plays(table, (0, "chief", 0), (1, "squaw", 0), (0, "scout", 0))
    # The Scout fights the Squaw alone (the Chief underneath is face down) and wins.
    assert cards_in(table, 0) == [(0, "chief", False), (1, "squaw", False), (0, "scout", True)]


def test_heroes_of_three_players_leave_one_owner_face_up() -> None:
    table = hunt_position(
        3,
        {
            0: ("squaw", *HUNTERS[:8]),
            1: ("medicine-man", *HUNTERS[:7]),
            2: ("scout", *HUNTERS[:6]),
        },
    )
    plays(table, (0, "squaw", 0))
    assert owners_face_up(table, 0) == {0}
    plays(table, (1, "medicine-man", 0))
    assert owners_face_up(table, 0) == {1}
    plays(table, (2, "scout", 0))
    assert owners_face_up(table, 0) == {2}
    assert cards_in(table, 0) == [
        (0, "squaw", False),
        (1, "medicine-man", False),
        (2, "scout", True),
    ]

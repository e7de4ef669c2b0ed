"""The components as data: each player's set, the Trials of Strength, the tiles, the set-up."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from referee.games.big_manitou.data import (
    CARD_SET,
    DEALER_CHOOSES,
    DEFEATS,
    FIRST_PLAYER_CHOOSES,
    HEROES,
    HUNTER_VALUES,
    HUNTS,
    OTHERS_CHOOSE,
    PLAYS_PER_HUNT,
    TILE_BAG,
    TILES_PER_GROUND,
)
from referee.games.big_manitou.heroes import defeats


def test_a_set_holds_seven_heroes_and_ten_hunters_valued_1_to_10() -> None:
    counts = Counter(CARD_SET)
    assert len(CARD_SET) == 17  # the 18th card, the Tribe card, is a reminder only
    assert {card: counts[card] for card in HEROES} == {
        "chief": 2,
        "squaw": 2,
        "rain-maker": 1,
        "scout": 1,
        "medicine-man": 1,
    }
    assert sorted(HUNTER_VALUES[card] for card in CARD_SET if card in HUNTER_VALUES) == list(
        range(1, 11)
    )


RULINGS_TABLE = {
    "chief": ({"medicine-man", "rain-maker", "scout"}, {"squaw"}),
    "squaw": ({"chief"}, {"medicine-man", "rain-maker", "scout"}),
    "medicine-man": ({"rain-maker", "squaw"}, {"chief", "scout"}),
    "rain-maker": ({"scout", "squaw"}, {"chief", "medicine-man"}),
    "scout": ({"medicine-man", "squaw"}, {"chief", "rain-maker"}),
}


@pytest.mark.parametrize("hero", HEROES)
def test_who_defeats_whom_is_the_rulings_table(hero: str) -> None:
    beats, beaten_by = RULINGS_TABLE[hero]
    assert DEFEATS[hero] == beats
    assert {other for other in HEROES if hero in DEFEATS[other]} == beaten_by


def test_every_two_different_heroes_have_exactly_one_winner() -> None:
    for first, second in itertools.combinations(HEROES, 2):
        assert defeats(first, second) != defeats(second, first), (first, second)


def test_the_bag_holds_the_60_tiles_of_bm_2() -> None:
    assert Counter(TILE_BAG) == {
        "tepee-1": 8,
        "tepee-2": 6,
        "tepee-3": 6,
        "buffalo-1": 8,
        "buffalo-2": 6,
        "buffalo-3": 6,
        "totem": 8,
        "horse": 6,
        "tomahawk": 6,
    }


def test_hunts_per_player_count() -> None:
    assert HUNTS == {2: 4, 3: 3, 4: 4, 5: 5}


def test_tiles_per_ground_follow_bm_1_and_the_bag_never_runs_dry() -> None:
    assert TILES_PER_GROUND == {2: (4, 3, 3), 3: (4, 4, 3), 4: (4, 4, 4), 5: (4, 4, 4)}
    for seats, grounds in TILES_PER_GROUND.items():
        assert sum(grounds) * HUNTS[seats] <= len(TILE_BAG)
    assert sum(TILES_PER_GROUND[5]) * HUNTS[5] == len(TILE_BAG)


def test_every_player_has_cards_for_two_hunts() -> None:
    # Hunts 2 and 4 are chosen from the cards not played in hunts 1 and 3.
    for seats in HUNTS:
        most = max(FIRST_PLAYER_CHOOSES[seats], OTHERS_CHOOSE, DEALER_CHOOSES)
        assert most <= len(CARD_SET) - PLAYS_PER_HUNT
    assert FIRST_PLAYER_CHOOSES == {2: 8, 3: 9, 4: 9, 5: 9}
    assert (OTHERS_CHOOSE, DEALER_CHOOSES) == (8, 7)

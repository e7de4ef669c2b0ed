"""The house deck (TR-1) and the leaders (TR-2): 100 cards as the rule text counts them."""

from __future__ import annotations

from collections import Counter

from referee.games.tribu.data import CARDS, CHARACTERS, DECK, LEADERS, VASES, family, spheres


def test_a_hundred_cards_in_the_families_the_rule_text_counts() -> None:
    assert len(DECK) == 100
    assert Counter(family(card) for card in DECK) == {
        "tribe": 20,
        "diorama": 52,
        "evento": 8,
        "azione": 12,
        "protezione": 8,
    }
    assert set(Counter(DECK).values()) == {4}  # four copies of every type
    types = Counter(family(card) for card in CARDS)
    assert types == {"tribe": 5, "diorama": 13, "evento": 2, "azione": 3, "protezione": 2}


def test_the_house_vases_of_tr_1_the_shaman_as_in_the_rule_texts_example() -> None:
    assert VASES["shaman"] == ("statue", "horse", "flag")
    assert VASES == {
        "shaman": ("statue", "horse", "flag"),
        "warrior": ("horse", "drum", "bow"),
        "hunter": ("canoe", "bow", "horse"),
        "elder": ("drum", "statue", "canoe"),
        "scout": ("flag", "canoe", "drum"),
    }


def test_spheres_only_on_tribe_and_diorama_cards() -> None:
    expected = {"statue": 1, "horse": 2, "flag": 1, "drum": 2, "canoe": 3, "bow": 3}
    for info in CARDS.values():
        if info.family == "tribe":
            assert info.spheres == 5
        elif info.vase is not None:
            assert info.spheres == expected[info.vase]
        elif info.family != "diorama":
            assert info.spheres == 0
    assert spheres("multidiorama") == 3 and spheres("totem") == 5


def test_eleven_coloured_vases_bow_in_red_only() -> None:
    coloured = [card for card, info in CARDS.items() if info.colour is not None]
    assert len(coloured) == 11
    assert [card for card in coloured if CARDS[card].vase == "bow"] == ["bow-red"]


def test_protection_and_evento_strengths() -> None:
    assert CARDS["wolf"].strength == 1 and CARDS["bison"].strength == 2
    assert CARDS["feathers-of-strength"].strength == 1
    assert CARDS["feathers-of-courage"].strength == 2


def test_the_four_leaders_are_the_first_four_characters() -> None:
    assert LEADERS == CHARACTERS[:4] == ("shaman", "warrior", "hunter", "elder")

"""The components ("THE CARDS") and the canonical order (RULES.md)."""

from __future__ import annotations

from collections import Counter

import msgspec

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import PlayLand, PlaySpecialty
from referee.games.manitou_island.data import LAND_CARD_IDS, LAND_CARDS, SPECIALTY_CARDS
from referee.kernel import Codec
from referee.kernel.hexgrid import Hex


def test_forty_land_cards_two_of_each_number_per_colour() -> None:
    assert len(LAND_CARDS) == 40
    counts = Counter((card.colour, card.number) for card in LAND_CARDS)
    assert counts == {(colour, n): 2 for colour in ("day", "night") for n in range(1, 11)}


def test_canonical_order_day_then_night_by_number() -> None:
    assert tuple(range(40)) == LAND_CARD_IDS
    assert [card.id for card in LAND_CARDS] == list(range(40))
    assert [(c.colour, c.number) for c in LAND_CARDS[:4]] == [
        ("day", 1),
        ("day", 1),
        ("day", 2),
        ("day", 2),
    ]
    assert (LAND_CARDS[19].colour, LAND_CARDS[19].number) == ("day", 10)
    assert (LAND_CARDS[20].colour, LAND_CARDS[20].number) == ("night", 1)


def test_three_double_faced_specialty_cards_per_side() -> None:
    # MI-3: W/L, L/B, B/W; each face twice ("2 whirlpool specialty cards", ...).
    assert [card.faces for card in SPECIALTY_CARDS] == [
        ("whirlpool", "lighthouse"),
        ("lighthouse", "bridge"),
        ("bridge", "whirlpool"),
    ]
    faces = Counter(face for card in SPECIALTY_CARDS for face in card.faces)
    assert faces == {"whirlpool": 2, "lighthouse": 2, "bridge": 2}
    # 1 reference card + 1 origin + 40 land + 3 specialty per side = 48 cards.
    assert 1 + 1 + len(LAND_CARDS) + 2 * len(SPECIALTY_CARDS) == 48


def test_commands_decode_from_json_as_a_client_sends_them() -> None:
    codec = Codec(GAME)
    land = b'{"type": "manitou-island.play-land", "card": 7, "at": {"q": 1, "r": -1}}'
    assert codec.decode_command(land) == PlayLand(card=7, at=Hex(1, -1))
    specialty = (
        b'{"type": "manitou-island.play-specialty", "card": "lighthouse-bridge",'
        b' "face": "bridge", "at": {"q": 0, "r": 2}}'
    )
    assert codec.decode_command(specialty) == PlaySpecialty(
        card="lighthouse-bridge", face="bridge", at=Hex(0, 2)
    )
    bad = b'{"type": "manitou-island.play-specialty", "card": "x", "face": "bridge", "at": {}}'
    try:
        codec.decode_command(bad)
    except msgspec.ValidationError:
        pass
    else:
        raise AssertionError("an unknown specialty card must not decode")

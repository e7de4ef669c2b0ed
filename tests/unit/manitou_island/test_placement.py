"""Placing land cards: "THE PLAY", MI-2, and Common Questions 1, 2, 4 and 6."""

from __future__ import annotations

import pytest

from referee.games.manitou_island import GAME
from referee.games.manitou_island.board import fits, matches
from referee.games.manitou_island.commands import PlayLand
from referee.games.manitou_island.data import LAND_CARD_IDS, land_card
from referee.games.manitou_island.events import LandDrawn, LandPlayed
from referee.games.manitou_island.options import Borders, Options
from referee.games.manitou_island.state import State
from referee.kernel import RuleViolation
from referee.kernel.hexgrid import ORIGIN, Hex, offset_to_axial

from .support import (
    bridge,
    content_at,
    day,
    land,
    lighthouse,
    night,
    play,
    position,
    state_of,
    water,
    whirlpool,
)

HAND = (day(3), day(5, 1), night(5), night(3), night(7))


def refused(table, seat: int, command: PlayLand) -> str:
    before = (table.state, table.version)
    with pytest.raises(RuleViolation) as refusal:
        play(table, seat, command)
    assert (table.state, table.version) == before  # a refusal changes nothing
    return refusal.value.rule_id


def test_first_card_goes_next_to_the_origin() -> None:
    table = position(hands=(HAND, (day(1),)))
    events = play(table, 0, PlayLand(card=night(7), at=Hex(0, 1)))
    assert events[0] == LandPlayed(seat=0, card=night(7), at=Hex(0, 1), flooded=())
    assert content_at(table, 0, 1) == "land"


def test_a_land_card_must_touch_a_land_card_or_the_origin() -> None:
    table = position([land(1, 0, day(5))], hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=day(3), at=Hex(3, 0))) == (
        "manitou-island.not-touching-land"
    )
    play(table, 0, PlayLand(card=day(3), at=Hex(2, 0)))  # along the edge of the day 5
    assert content_at(table, 2, 0) == "land"


def test_water_does_not_hold_a_land_card_up_and_is_never_matched() -> None:
    # MI-2: water, whirlpools, lighthouses and bridges neither support nor constrain.
    table = position([water(1, 0, day(5))], hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=night(3), at=Hex(2, 0))) == (
        "manitou-island.not-touching-land"
    )
    play(table, 0, PlayLand(card=night(3), at=Hex(1, -1)))  # touches the origin and the water
    assert content_at(table, 1, -1) == "land"


@pytest.mark.parametrize(
    "cell",
    [whirlpool(1, 0), bridge(1, 0, day(9)), lighthouse(1, 0, day(9))],
    ids=["whirlpool", "bridge", "lighthouse"],
)
def test_specialty_cards_neither_support_nor_constrain(cell) -> None:
    table = position([cell], hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=night(3), at=Hex(2, 0))) == (
        "manitou-island.not-touching-land"
    )
    play(table, 0, PlayLand(card=night(3), at=Hex(1, -1)))


def test_common_question_4_a_land_card_may_be_played_next_to_a_lighthouse() -> None:
    # "If those conditions are met, and your card is also adjacent to a lighthouse, then yes."
    table = position([land(1, -1, day(5)), lighthouse(1, 0, day(9))], hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=night(3), at=Hex(2, 0))) == (
        "manitou-island.not-touching-land"
    )
    play(table, 0, PlayLand(card=day(3), at=Hex(2, -1)))  # next to the day 5 and the lighthouse
    assert content_at(table, 2, -1) == "land"


def test_a_card_must_match_every_adjacent_land_card_by_colour_or_number() -> None:
    # (2, -1) touches a day 5 at (1, 0) and a night 7 at (1, -1).
    cells = [land(1, 0, day(5)), land(1, -1, night(7, 1))]
    table = position(cells, hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=day(3), at=Hex(2, -1))) == (
        "manitou-island.does-not-match"
    )  # matches the day 5 by colour, the night 7 by nothing
    assert refused(table, 0, PlayLand(card=night(3), at=Hex(2, -1))) == (
        "manitou-island.does-not-match"
    )
    events = play(table, 0, PlayLand(card=night(5), at=Hex(2, -1)))
    assert events[0] == LandPlayed(seat=0, card=night(5), at=Hex(2, -1), flooded=(Hex(1, 0),))


def test_same_number_of_the_other_colour_turns_to_water() -> None:
    table = position([land(1, 0, day(5))], hands=(HAND, (day(1),)))
    events = play(table, 0, PlayLand(card=night(5), at=Hex(2, 0)))
    assert events[0] == LandPlayed(seat=0, card=night(5), at=Hex(2, 0), flooded=(Hex(1, 0),))
    assert content_at(table, 1, 0) == "water"
    assert content_at(table, 2, 0) == "land"


def test_same_number_same_colour_stays() -> None:
    table = position([land(1, 0, day(5))], hands=(HAND, (day(1),)))
    play(table, 0, PlayLand(card=day(5, 1), at=Hex(2, 0)))
    assert content_at(table, 1, 0) == "land"


def test_common_question_2_two_land_cards_flipped_in_a_single_move() -> None:
    # (1, 1) touches night 5s at (1, 0) and (0, 1): a day 5 turns both to water.
    cells = [land(1, 0, night(5)), land(0, 1, night(5, 1)), land(2, -1, day(5, 1))]
    table = position(cells, hands=((day(5), day(1)), (day(2),)))
    events = play(table, 0, PlayLand(card=day(5), at=Hex(1, 1)))
    played = events[0]
    assert isinstance(played, LandPlayed)
    assert set(played.flooded) == {Hex(1, 0), Hex(0, 1)}
    assert content_at(table, 1, 0) == content_at(table, 0, 1) == "water"
    assert content_at(table, 2, -1) == "land"  # not adjacent: only adjacent cards turn


def test_common_question_6_a_lighthouse_does_not_protect_against_the_same_number() -> None:
    cells = [land(1, 0, night(5)), lighthouse(1, -1, day(9))]
    table = position(cells, hands=((day(5), day(1)), (day(2),)))
    play(table, 0, PlayLand(card=day(5), at=Hex(2, 0)))
    assert content_at(table, 1, 0) == "water"


@pytest.mark.parametrize(
    "cells",
    [[], [land(1, 0, day(5))], [water(1, 0, day(5))], [whirlpool(1, 0)]],
    ids=["origin", "land", "water", "whirlpool"],
)
def test_common_question_1_no_card_on_top_of_another(cells) -> None:
    table = position(cells, hands=(HAND, (day(1),)))
    target = Hex(1, 0) if cells else ORIGIN
    assert refused(table, 0, PlayLand(card=day(5, 1), at=target)) == "manitou-island.space-taken"


def test_a_recorded_land_card_on_a_taken_space_does_not_fold() -> None:
    # Only a forged stream holds one (decide refuses it above); the verifier reports it.
    state = state_of(position([land(1, 0, day(5))], hands=(HAND, (day(1),))))
    forged = LandPlayed(seat=0, card=day(3), at=Hex(1, 0), flooded=())
    with pytest.raises(ValueError, match="taken space"):
        GAME.evolve(state, forged)


def test_a_recorded_land_card_that_is_not_in_the_hand_does_not_fold() -> None:
    state = state_of(position(hands=(HAND, (day(1),))))
    forged = LandPlayed(seat=0, card=day(1), at=Hex(1, 0), flooded=())
    with pytest.raises(ValueError, match="not in seat 0's hand"):
        GAME.evolve(state, forged)


def test_a_recorded_draw_of_a_card_not_on_top_of_the_pile_does_not_fold() -> None:
    state = state_of(position(hands=(HAND, (day(1),))))
    below_the_top = state.pile[1]
    with pytest.raises(ValueError, match="not the top of the pile"):
        GAME.evolve(state, LandDrawn(seat=0, card=below_the_top))
    emptied = state_of(position(hands=(HAND, (day(1),)), pile=()))
    with pytest.raises(ValueError, match="not the top of the pile"):
        GAME.evolve(emptied, LandDrawn(seat=0, card=state.pile[0]))


def test_either_colour_may_be_played() -> None:
    # Seat 0 owns day (first player) and plays night; seat 1 owns night and plays day.
    table = position(hands=(HAND, (day(1), night(1))))
    play(table, 0, PlayLand(card=night(7), at=Hex(1, 0)))
    play(table, 1, PlayLand(card=day(1), at=Hex(-1, 0)))
    assert content_at(table, -1, 0) == "land"


def test_only_cards_in_hand() -> None:
    table = position(hands=(HAND, (day(1),)))
    assert refused(table, 0, PlayLand(card=day(1), at=Hex(1, 0))) == (
        "manitou-island.card-not-in-hand"
    )
    assert refused(table, 0, PlayLand(card=99, at=Hex(1, 0))) == "manitou-island.card-not-in-hand"
    assert refused(table, 0, PlayLand(card=-1, at=Hex(1, 0))) == "manitou-island.card-not-in-hand"


def test_each_turn_ends_with_a_draw_and_play_alternates() -> None:
    table = position(hands=(HAND, (day(1),)))
    state = table.state
    assert isinstance(state, State)
    top = state.pile[0]
    events = play(table, 0, PlayLand(card=night(7), at=Hex(1, 0)))
    assert events[1] == LandDrawn(seat=0, card=top)
    after = table.state
    assert isinstance(after, State)
    assert len(after.hands[0]) == len(HAND) and top in after.hands[0]
    assert after.pile == state.pile[1:]
    assert table.to_act() == frozenset({1})


def test_no_draw_once_the_pile_is_empty() -> None:
    table = position(hands=(HAND, (day(1),)), pile=())
    events = play(table, 0, PlayLand(card=night(7), at=Hex(1, 0)))
    assert [type(e) for e in events] == [LandPlayed]


def test_a_night_4_may_go_wherever_every_adjacent_land_card_is_night_or_a_4() -> None:
    # The rule text's picture ("a nighttime 4 may be played in any space with a green
    # checkmark"), rebuilt: the legal spaces are exactly the open spaces touching land or the
    # origin whose adjacent face-up land cards are all night or all 4s (either will do).
    cells = [land(1, 0, day(4)), land(1, -1, night(8)), land(-1, 0, day(6)), land(0, 1, night(2))]
    table = position(cells, hands=((night(4),), (day(1),)))
    spaces = {c.at for c in GAME.legal_commands(state_of(table), 0) if isinstance(c, PlayLand)}
    assert Hex(2, -1) in spaces  # day 4 and night 8
    assert Hex(1, 1) in spaces  # day 4 and night 2
    assert Hex(-1, 1) not in spaces  # day 6
    assert Hex(0, -1) not in spaces  # night 8, but also day 6
    assert Hex(-2, 0) not in spaces  # day 6
    assert spaces == {
        Hex(2, -1), Hex(2, 0), Hex(1, 1), Hex(0, 2), Hex(-1, 2), Hex(1, -2), Hex(2, -2),
    }  # fmt: skip


def test_borders_keep_cards_on_the_playing_area() -> None:
    borders = Borders(columns=7, rows=6, origin_column=0, origin_row=0)
    origin = offset_to_axial(0, 0)
    table = position(hands=(HAND, (day(1),)), options=Options(borders=borders), origin=origin)
    outside = origin.neighbour(3)  # west of the top-left corner
    assert refused(table, 0, PlayLand(card=day(3), at=outside)) == "manitou-island.off-the-board"
    spaces = {c.at for c in GAME.legal_commands(state_of(table), 0)}
    assert spaces == {offset_to_axial(1, 0), offset_to_axial(0, 1)}


def test_the_fast_fit_is_the_rule_for_every_card_beside_any_two() -> None:
    """`fits` (the legal read's check) says what `matches` says of every neighbour, for each
    land card beside every pair of land cards and beside none."""
    cards = [land_card(card) for card in LAND_CARD_IDS]
    for card in cards:
        assert fits(card, [])
        for first in cards:
            for second in cards:
                expected = matches(card, first) and matches(card, second)
                assert fits(card, [first, second]) == expected, (card, first, second)

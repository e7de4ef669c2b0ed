"""Specialty cards: whirlpool, lighthouse, bridge (MI-3..MI-5); Common Questions 5, 8 and 9."""

from __future__ import annotations

import pytest

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import PlayLand, PlaySpecialty
from referee.games.manitou_island.events import SpecialtyPlayed
from referee.games.manitou_island.options import Options
from referee.games.manitou_island.scoring import populations
from referee.kernel import RuleViolation
from referee.kernel.hexgrid import Hex

from .support import (
    bridge,
    cell_at,
    content_at,
    day,
    fresh_specialty,
    land,
    lighthouse,
    night,
    night_9_trap,
    play,
    position,
    state_of,
    water,
    whirlpool,
)

HAND = (day(3), day(5, 1), night(5), night(3), night(7))
OTHER = (day(1), night(1))


def refused(table, seat: int, command) -> str:
    before = (table.state, table.version)
    with pytest.raises(RuleViolation) as refusal:
        play(table, seat, command)
    assert (table.state, table.version) == before
    return refusal.value.rule_id


def whirl(at: Hex, card: str = "whirlpool-lighthouse") -> PlaySpecialty:
    return PlaySpecialty(card=card, face="whirlpool", at=at)  # type: ignore[arg-type]


def light(at: Hex, card: str = "whirlpool-lighthouse") -> PlaySpecialty:
    return PlaySpecialty(card=card, face="lighthouse", at=at)  # type: ignore[arg-type]


def bridge_at(at: Hex, card: str = "lighthouse-bridge") -> PlaySpecialty:
    return PlaySpecialty(card=card, face="bridge", at=at)  # type: ignore[arg-type]


# -- the turn --------------------------------------------------------------------------------------


def test_a_specialty_card_comes_before_the_land_card_of_the_same_turn() -> None:
    table = position([land(1, 0, day(5))], hands=(HAND, OTHER))
    events = play(table, 0, whirl(Hex(2, 0)))
    assert events == [
        SpecialtyPlayed(
            seat=0,
            card="whirlpool-lighthouse",
            face="whirlpool",
            at=Hex(2, 0),
            flooded=(Hex(1, 0),),
        )
    ]
    assert table.to_act() == frozenset({0})  # the same seat now plays its land card
    assert state_of(table).stage == "specialty-played"
    assert all(isinstance(c, PlayLand) for c in GAME.legal_commands(state_of(table), 0))
    play(table, 0, PlayLand(card=night(7), at=Hex(0, 1)))
    assert table.to_act() == frozenset({1})


def test_one_specialty_card_per_turn() -> None:
    table = position([land(1, 0, day(5))], hands=(HAND, OTHER))
    play(table, 0, whirl(Hex(2, 0)))
    assert refused(table, 0, light(Hex(0, 1), "lighthouse-bridge")) == (
        "manitou-island.one-specialty-per-turn"
    )


def test_a_played_card_is_gone_and_a_card_has_only_its_two_faces() -> None:
    table = position([land(1, 0, day(5)), land(-1, 0, day(6))], hands=(HAND, OTHER))
    assert refused(table, 0, bridge_at(Hex(2, 0), "whirlpool-lighthouse")) == (
        "manitou-island.face-not-on-card"
    )
    play(table, 0, whirl(Hex(2, 0)))
    play(table, 0, PlayLand(card=night(7), at=Hex(0, 1)))
    play(table, 1, PlayLand(card=day(1), at=Hex(0, -1)))
    assert refused(table, 0, light(Hex(-1, 0))) == "manitou-island.specialty-card-used"


def test_two_whirlpools_from_the_two_cards_that_carry_one() -> None:
    # "you may choose to play two of one specialty type and one of another".
    table = position([land(1, 0, day(5)), land(-1, 0, day(6))], hands=(HAND, OTHER))
    play(table, 0, whirl(Hex(2, 0), "whirlpool-lighthouse"))
    play(table, 0, PlayLand(card=night(7), at=Hex(0, 1)))
    play(table, 1, PlayLand(card=day(1), at=Hex(0, -1)))
    play(table, 0, whirl(Hex(-2, 0), "bridge-whirlpool"))
    assert content_at(table, -1, 0) == "water"
    left = [card for card in state_of(table).specialty[0] if card.played_face is None]
    assert [card.card for card in left] == ["lighthouse-bridge"]


def test_no_specialty_cards_when_the_option_leaves_them_out() -> None:
    options = Options(specialty_cards=False)
    table = position([land(1, 0, day(5))], hands=(HAND, OTHER), options=options)
    assert refused(table, 0, whirl(Hex(2, 0))) == "manitou-island.no-specialty-cards"
    assert all(isinstance(c, PlayLand) for c in GAME.legal_commands(state_of(table), 0))


def test_teammates_share_one_set_of_specialty_cards() -> None:
    hands = (HAND, (day(1),), (night(9), day(9)), (day(2),))
    table = position([land(1, 0, day(5)), land(-1, 0, day(6))], hands=hands, seats=4)
    play(table, 0, whirl(Hex(2, 0)))
    play(table, 0, PlayLand(card=night(7), at=Hex(0, 1)))
    play(table, 1, PlayLand(card=day(1), at=Hex(0, -1)))
    assert refused(table, 2, whirl(Hex(-2, 0))) == "manitou-island.specialty-card-used"
    play(table, 2, whirl(Hex(-2, 0), "bridge-whirlpool"))  # the team's other whirlpool
    assert content_at(table, -1, 0) == "water"


def test_a_specialty_card_that_would_leave_no_land_card_playable_is_refused() -> None:
    # Our ruling MI-R3. The origin is ringed with water but for a day 2; the hand is a day 9.
    ring = [water(1, -1, night(1)), water(0, -1, night(2)), water(-1, 0, night(3))]
    ring += [water(-1, 1, night(4)), water(0, 1, night(6))]
    table = position([land(1, 0, day(2)), *ring], hands=((day(9),), OTHER))
    assert refused(table, 0, whirl(Hex(2, 0))) == "manitou-island.specialty-strands-land-card"
    assert refused(table, 0, light(Hex(1, 0))) == "manitou-island.specialty-strands-land-card"
    legal = GAME.legal_commands(state_of(table), 0)
    assert whirl(Hex(2, 0)) not in legal and light(Hex(1, 0)) not in legal
    assert whirl(Hex(-2, 1)) in legal  # touches water only: floods nothing
    play(table, 0, whirl(Hex(-2, 1)))
    play(table, 0, PlayLand(card=day(9), at=Hex(2, 0)))


def test_a_specialty_card_can_open_the_only_way_to_play() -> None:
    # The night 9 fits only at (4, 0), next to a night 4 but also a day 2 (seat 0's colour).
    # A lighthouse on the day 2, or a whirlpool that floods it alone, makes room.
    cells = night_9_trap()
    table = position(cells, hands=((night(9),), OTHER))
    legal = GAME.legal_commands(state_of(table), 0)
    assert legal and not any(isinstance(c, PlayLand) for c in legal)
    assert light(Hex(5, 0)) in legal and light(Hex(5, 0), "lighthouse-bridge") in legal
    whirl_spaces = {c.at for c in legal if isinstance(c, PlaySpecialty) and c.face == "whirlpool"}
    assert whirl_spaces == {Hex(6, 0), Hex(6, -1), Hex(5, -1), Hex(4, 1), Hex(5, 1)}
    play(table, 0, light(Hex(5, 0)))
    assert GAME.legal_commands(state_of(table), 0) == [PlayLand(card=night(9), at=Hex(4, 0))]
    play(table, 0, PlayLand(card=night(9), at=Hex(4, 0)))


# -- whirlpool -------------------------------------------------------------------------------------


def test_whirlpool_turns_every_adjacent_land_card_of_both_colours_to_water() -> None:
    cells = [land(1, 0, day(5)), land(1, -1, night(7, 1)), land(3, -1, day(8))]
    table = position(cells, hands=(HAND, OTHER))
    events = play(table, 0, whirl(Hex(2, -1)))
    played = events[0]
    assert isinstance(played, SpecialtyPlayed)
    assert set(played.flooded) == {Hex(1, 0), Hex(1, -1), Hex(3, -1)}
    assert content_at(table, 1, 0) == content_at(table, 1, -1) == "water"
    assert content_at(table, 2, -1) == "whirlpool"


def test_whirlpool_only_in_an_open_space_that_touches_a_card() -> None:
    table = position([land(1, 0, day(5)), water(-1, 0, day(6))], hands=(HAND, OTHER))
    assert refused(table, 0, whirl(Hex(1, 0))) == "manitou-island.whirlpool-needs-open-space"
    assert refused(table, 0, whirl(Hex(0, 0))) == "manitou-island.whirlpool-needs-open-space"
    assert refused(table, 0, whirl(Hex(5, 5))) == "manitou-island.whirlpool-not-touching"
    play(table, 0, whirl(Hex(-2, 0)))  # MI-4: touching water is touching a card in play


def test_lighthouse_protects_adjacent_land_cards_from_whirlpools() -> None:
    # (1, 1) touches the day 5 at (1, 0), next to the lighthouse, and the night 2 at (0, 1).
    cells = [land(1, 0, day(5)), lighthouse(2, 0, day(8)), land(0, 1, night(2))]
    table = position(cells, hands=(HAND, OTHER))
    events = play(table, 0, whirl(Hex(1, 1)))
    assert events[0].flooded == (Hex(0, 1),)  # type: ignore[attr-defined]
    assert content_at(table, 1, 0) == "land"
    assert content_at(table, 2, 0) == "lighthouse"  # not a land card: whirlpools leave it


def test_a_whirlpool_behaves_like_water() -> None:
    table = position([whirlpool(1, 0), land(2, -1, day(5))], hands=(HAND, OTHER))
    state = state_of(table)
    islands_before = populations({c.at: c for c in state.board}, "day")
    assert islands_before == (5,)
    # Not land: it holds no land card up, and a land card cannot go on it.
    assert refused(table, 0, PlayLand(card=day(3), at=Hex(1, 0))) == "manitou-island.space-taken"


# -- lighthouse ------------------------------------------------------------------------------------


def test_lighthouse_only_on_your_own_land_card_which_is_sacrificed() -> None:
    cells = [land(1, 0, day(5)), land(2, 0, day(4)), land(-1, 0, night(6)), water(0, 1, day(8))]
    table = position(cells, hands=(HAND, OTHER))
    assert populations({c.at: c for c in state_of(table).board}, "day") == (9,)
    assert refused(table, 0, light(Hex(-1, 0))) == "manitou-island.lighthouse-needs-own-land"
    assert refused(table, 0, light(Hex(0, 1))) == "manitou-island.lighthouse-needs-own-land"
    assert refused(table, 0, light(Hex(0, 0))) == "manitou-island.lighthouse-needs-own-land"
    assert refused(table, 0, light(Hex(3, 3))) == "manitou-island.lighthouse-needs-own-land"
    play(table, 0, light(Hex(1, 0)))
    cell = cell_at(table, 1, 0)
    assert cell is not None and cell.content == "lighthouse" and cell.card == day(5)
    assert populations({c.at: c for c in state_of(table).board}, "day") == (4,)


def test_night_plays_lighthouses_on_night_land() -> None:
    cells = [land(1, 0, day(5)), land(-1, 0, night(6))]
    table = position(cells, hands=(OTHER, HAND), turn_seat=1)
    assert refused(table, 1, light(Hex(1, 0))) == "manitou-island.lighthouse-needs-own-land"
    play(table, 1, light(Hex(-1, 0)))
    assert content_at(table, -1, 0) == "lighthouse"


def test_common_question_5_a_lighthouse_is_not_a_bridge() -> None:
    # day 3 - lighthouse - day 4 in a row: two islands, not one.
    cells = [land(1, 1, day(3)), land(2, 1, day(7)), land(3, 1, day(4))]
    table = position(cells, hands=(HAND, OTHER))
    assert populations({c.at: c for c in state_of(table).board}, "day") == (14,)
    play(table, 0, light(Hex(2, 1)))
    assert populations({c.at: c for c in state_of(table).board}, "day") == (4, 3)


# -- bridge ----------------------------------------------------------------------------------------


def test_bridge_on_water_next_to_your_own_land_joins_your_islands() -> None:
    cells = [land(1, 1, day(3)), water(2, 1, night(7)), land(3, 1, day(4))]
    table = position(cells, hands=(HAND, OTHER))
    play(table, 0, bridge_at(Hex(2, 1)))
    cell = cell_at(table, 2, 1)
    assert cell is not None and (cell.content, cell.colour, cell.card) == (
        "bridge",
        "day",
        night(7),
    )
    assert populations({c.at: c for c in state_of(table).board}, "day") == (7,)


def test_bridge_needs_water() -> None:
    cells = [land(1, 1, day(3)), land(2, 1, night(7)), land(3, 1, day(4))]
    table = position(cells, hands=(HAND, OTHER))
    assert refused(table, 0, bridge_at(Hex(2, 1))) == "manitou-island.bridge-needs-water"
    assert refused(table, 0, bridge_at(Hex(2, 2))) == "manitou-island.bridge-needs-water"
    assert refused(table, 0, bridge_at(Hex(0, 0))) == "manitou-island.bridge-needs-water"


def test_common_question_8_no_bridge_on_a_whirlpool() -> None:
    cells = [land(1, 1, day(3)), whirlpool(2, 1), land(3, 1, day(4))]
    table = position(cells, hands=(HAND, OTHER))
    with pytest.raises(RuleViolation) as refusal:
        play(table, 0, bridge_at(Hex(2, 1)))
    assert refusal.value.rule_id == "manitou-island.bridge-needs-water"
    assert "whirlpool" in refusal.value.message


def test_bridge_must_touch_your_own_land_card() -> None:
    # Water next to night land only: seat 0 (day) may not bridge it; seat 1 (night) may.
    cells = [land(1, 1, night(3)), water(2, 1, day(7)), land(3, 1, night(4))]
    table = position(cells, hands=(HAND, OTHER))
    assert refused(table, 0, bridge_at(Hex(2, 1))) == "manitou-island.bridge-not-next-to-own-land"
    night_table = position(cells, hands=(OTHER, HAND), turn_seat=1)
    play(night_table, 1, bridge_at(Hex(2, 1)))
    assert populations({c.at: c for c in state_of(night_table).board}, "night") == (7,)


def test_common_question_9_bridges_join_into_a_span_but_each_touches_your_land() -> None:
    # day 3 (1,1) - water (2,1) - water (3,1) - day 4 (4,1); then a third water (3,2)/(2,2)
    # touching only bridges may not be bridged.
    cells = [
        land(1, 1, day(3)),
        water(2, 1, night(7)),
        water(3, 1, night(8)),
        land(4, 1, day(4)),
        water(2, 2, night(9)),
    ]
    table = position(cells, hands=(HAND, OTHER))
    play(table, 0, bridge_at(Hex(2, 1), "lighthouse-bridge"))
    play(table, 0, PlayLand(card=day(3), at=Hex(-1, 0)))
    play(table, 1, PlayLand(card=day(1), at=Hex(0, -1)))
    play(table, 0, bridge_at(Hex(3, 1), "bridge-whirlpool"))
    board = {c.at: c for c in state_of(table).board}
    assert populations(board, "day")[0] == 7  # the span of two bridges joins 3 and 4
    # (2, 2) touches the two bridges and no land card: a third bridge may not go there.
    assert Hex(2, 2) not in Hex(1, 1).neighbours() and Hex(2, 2) not in Hex(4, 1).neighbours()
    state = state_of(table)
    team_cards = (fresh_specialty(), state.specialty[1])
    again = position([*state.board[1:]], hands=state.hands, specialty=team_cards, pile=state.pile)
    assert refused(again, 0, bridge_at(Hex(2, 2))) == "manitou-island.bridge-not-next-to-own-land"


def test_an_opponents_bridge_does_not_join_your_islands() -> None:
    cells = [land(1, 1, day(3)), bridge(2, 1, night(7), "night"), land(3, 1, day(4))]
    table = position(cells, hands=(HAND, OTHER))
    assert populations({c.at: c for c in state_of(table).board}, "day") == (4, 3)

"""The end of a game, the winner (MI-6), the forfeit, match play (MI-7)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import PlayLand, PlaySpecialty
from referee.games.manitou_island.data import LAND_CARD_IDS
from referee.games.manitou_island.events import FirstPlayerDrawn, GameDealt, GameEnded
from referee.games.manitou_island.options import Options
from referee.games.manitou_island.scoring import compare
from referee.games.manitou_island.state import Cell, SpecialtyCardState, State
from referee.kernel import GameOver, Outcome, RuleViolation, Table
from referee.kernel.hexgrid import Hex

from .support import (
    count_land_cards,
    day,
    land,
    night,
    night_9_trap,
    play,
    position,
    state_of,
    water,
)

ALL_USED = tuple(
    SpecialtyCardState(card=card, played_face="bridge", at=Hex(50, i))  # type: ignore[arg-type]
    for i, card in enumerate(("whirlpool-lighthouse", "lighthouse-bridge", "bridge-whirlpool"))
)


def final_position(cells: list[Cell], last: int, **kwargs: Any) -> Table:
    """Every land card is down (the rest as water far away) but `last`, in seat 1's hand."""
    used = {cell.card for cell in cells} | {last}
    filler = [
        water(q, 30, card) for q, card in enumerate(c for c in LAND_CARD_IDS if c not in used)
    ]
    return position([*cells, *filler], hands=((), (last,)), pile=(), turn_seat=1, **kwargs)


def ended(events: list) -> GameEnded:
    closing = [e for e in events if isinstance(e, GameEnded)]
    assert len(closing) == 1
    return closing[0]


# Day: 7 + 9 = 16 (the rule text's "island with a population of 16") and a lone day 2.
DAY_16_AND_2 = [land(1, 0, day(7)), land(2, 0, day(9)), land(-2, 3, day(2))]


def test_the_game_ends_when_every_land_card_has_been_played() -> None:
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(5))]
    table = final_position(cells, night(1))
    events = play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    result = ended(events).result
    assert result.reason == "all-land-played" and result.forfeited_seat is None
    assert result.islands == ((16, 2), (16,))
    assert result.winner_team == 0  # 16 = 16, then 2 beats nothing
    assert table.outcome() == Outcome(
        finished=True, winners=(0,), ranking=((0,), (1,)), scores=(16, 16), ending="rules"
    )
    assert table.to_act() == frozenset()
    with pytest.raises(GameOver):
        play(table, 1, PlayLand(card=night(1), at=Hex(-4, 0)))


def test_no_specialty_card_after_the_last_land_card() -> None:
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(5))]
    table = final_position(cells, night(1))
    whirlpool = PlaySpecialty(card="whirlpool-lighthouse", face="whirlpool", at=Hex(3, 0))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    with pytest.raises(GameOver):
        play(table, 0, whirlpool)
    # Nor with no land card left to follow it (MI-R3): an empty hand plays no specialty card.
    empty = position([land(1, 0, day(5))], hands=((), (night(1),)), pile=())
    with pytest.raises(RuleViolation) as refusal:
        play(empty, 0, msgspec.structs.replace(whirlpool, at=Hex(2, 0)))
    assert refusal.value.rule_id == "manitou-island.specialty-strands-land-card"


def test_the_single_most_populated_island_wins_smaller_ones_do_not_count() -> None:
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))  # night: 10 + 8 + 1 = 19
    assert table.outcome().winners == (1,)
    assert table.outcome().scores == (16, 19)


def test_tied_largest_islands_compare_the_next_largest() -> None:
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(5)), land(-2, 5, night(3))]
    table = final_position(cells, night(1))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))  # night 16 and 3 beat day 16 and 2
    assert table.outcome().winners == (1,)


def test_all_islands_equal_is_a_draw() -> None:
    cells = [land(1, 0, day(7)), land(2, 0, day(9)), land(-1, 0, night(10)), land(-2, 0, night(5))]
    table = final_position(cells, night(1))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    assert table.outcome() == Outcome(
        finished=True, ranking=((0, 1),), scores=(16, 16), ending="rules"
    )


def test_compare_pads_missing_islands_with_nothing() -> None:
    assert compare((16, 2), (16,)) == 1
    assert compare((5,), (5, 1)) == -1
    assert compare((), ()) == 0
    assert compare((3, 3), (3, 3)) == 0


def trapped(seats: int = 2, specialty: Any = (ALL_USED, ALL_USED), **kwargs: Any) -> Table:
    """Seat 1 (night) to play; then seat 0 (day) holds only a night 9 that fits nowhere:
    every open space touches a day card. Team 0 has used its specialty cards."""
    ring = [water(*at, night(n)) for at, n in zip(
        [(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)], [1, 2, 3, 4, 6], strict=True
    )]  # fmt: skip
    cells = [land(1, 0, day(2)), *ring]
    hands: tuple[tuple[int, ...], ...] = ((night(9),), (day(6),))
    if seats == 4:
        hands = ((night(9),), (day(6),), (night(9, 1),), (day(6, 1),))
    return position(
        cells,
        hands=hands,
        turn_seat=1,
        specialty=specialty,
        **kwargs,
    )


def test_a_player_unable_to_play_a_card_forfeits() -> None:
    table = trapped()
    events = play(table, 1, PlayLand(card=day(6), at=Hex(2, 0)))
    result = ended(events).result
    assert result.reason == "forfeit" and result.forfeited_seat == 0
    assert result.winner_team == 1
    assert result.scores == (0, 0)  # day's island of 8 does not count for the forfeiting side
    outcome = table.outcome()
    assert outcome.finished and outcome.winners == (1,) and outcome.ranking == ((1,), (0,))


def test_no_forfeit_while_a_specialty_card_makes_room() -> None:
    # Seat 0's night 9 fits nowhere, but a lighthouse on the day 2 would free (4, 0).
    rescue = position(night_9_trap(), hands=((night(9),), (day(1),)), turn_seat=1)
    events = play(rescue, 1, PlayLand(card=day(1), at=Hex(6, 0)))
    assert not any(isinstance(e, GameEnded) for e in events)
    assert rescue.to_act() == frozenset({0})
    used = position(
        night_9_trap(), hands=((night(9),), (day(1),)), turn_seat=1, specialty=(ALL_USED, ALL_USED)
    )
    assert ended(play(used, 1, PlayLand(card=day(1), at=Hex(6, 0)))).result.forfeited_seat == 0


def test_whirlpools_and_lighthouses_that_free_nothing_do_not_save_a_player() -> None:
    # The trap above with the specialty cards unused: flooding or sacrificing day land leaves
    # only day land (or nothing) to touch, which a night 9 never matches.
    table = trapped(specialty=None)
    events = play(table, 1, PlayLand(card=day(6), at=Hex(2, 0)))
    assert ended(events).result.forfeited_seat == 0


def test_with_four_players_the_team_forfeits() -> None:
    table = trapped(seats=4)
    state = table.state
    assert isinstance(state, State)
    # Seat 1 plays, seat 2 (team 0, holding a night 9 that fits nowhere) is next.
    events = play(table, 1, PlayLand(card=day(6), at=Hex(2, 0)))
    result = ended(events).result
    assert result.forfeited_seat == 2
    assert table.outcome().winners == (1, 3)
    assert table.outcome().ranking == ((1, 3), (0, 2))


# -- match play ------------------------------------------------------------------------------------


def test_match_play_keeps_a_tally_and_deals_the_next_game() -> None:
    options = Options(match_play=True)
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1), options=options, totals=(150, 170))
    events = play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    closing = ended(events)
    assert closing.result.scores == (16, 19)
    assert closing.totals == (166, 189) and not closing.match_over
    assert isinstance(events[-1], GameDealt) and events[-1].game == 2
    assert any(isinstance(e, FirstPlayerDrawn) and e.game == 2 for e in events)
    state = table.state
    assert isinstance(state, State)
    assert state.game == 2 and state.stage == "start-of-turn" and state.totals == (166, 189)
    assert len(state.board) == 1 and state.board[0].content == "origin"
    assert count_land_cards(state) == list(LAND_CARD_IDS)
    assert all(card.played_face is None for team in state.specialty for card in team)
    assert not table.outcome().finished
    assert table.to_act() == frozenset({state.first_seat})


def test_the_first_to_reach_200_wins_the_match() -> None:
    options = Options(match_play=True)
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1), options=options, totals=(150, 185))
    events = play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    assert ended(events).match_over and isinstance(events[-1], GameEnded)
    assert table.outcome() == Outcome(
        finished=True, winners=(1,), ranking=((1,), (0,)), scores=(166, 204), ending="rules"
    )


def test_the_match_winner_is_who_reached_200_even_if_the_game_was_lost() -> None:
    options = Options(match_play=True)
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1), options=options, totals=(190, 100))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))  # night wins the game, day the match
    assert table.outcome().winners == (0,)


def test_equal_totals_past_the_target_play_another_game() -> None:
    # Our ruling MI-R7.
    options = Options(match_play=True)
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1), options=options, totals=(200, 197))
    events = play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    assert ended(events).totals == (216, 216) and not ended(events).match_over
    assert isinstance(events[-1], GameDealt)


def test_a_forfeited_game_adds_nothing_for_the_forfeiting_side() -> None:
    table = trapped(options=Options(match_play=True, match_target=50), totals=(40, 10))
    events = play(table, 1, PlayLand(card=day(6), at=Hex(2, 0)))
    closing = ended(events)
    assert closing.result.scores == (0, 0) and closing.totals == (40, 10)
    assert isinstance(events[-1], GameDealt)


def test_match_target_is_an_option() -> None:
    options = Options(match_play=True, match_target=30)
    cells = [*DAY_16_AND_2, land(-1, 0, night(10)), land(-2, 0, night(8))]
    table = final_position(cells, night(1), options=options, totals=(0, 12))
    play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
    assert table.outcome().winners == (1,) and table.outcome().scores == (16, 31)
    assert GAME.outcome(state_of(table)).finished

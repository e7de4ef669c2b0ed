"""Options, the first-player draw (MI-1), the deal, the origin; all re-derived from the seed."""

from __future__ import annotations

import itertools

import pytest

from referee.games.manitou_island import GAME
from referee.games.manitou_island.data import HAND_SIZE, LAND_CARD_IDS, land_card
from referee.games.manitou_island.events import FirstPlayerDrawn, GameDealt
from referee.games.manitou_island.options import Borders, Options
from referee.games.manitou_island.state import State
from referee.kernel import Chance, RuleViolation, Table
from referee.kernel.hexgrid import ORIGIN, HexBoard, OffsetLayout, offset_to_axial

from .support import GAME_ID, SEED, count_land_cards, open_game, state_of


def opening(played) -> tuple[list[FirstPlayerDrawn], GameDealt]:
    events = [p.event for p in played[1:]]
    draws = [e for e in events if isinstance(e, FirstPlayerDrawn)]
    deals = [e for e in events if isinstance(e, GameDealt)]
    assert len(deals) == 1 and events == [*draws, deals[0]]
    return draws, deals[0]


@pytest.mark.parametrize("seats", [2, 4])
def test_a_third_party_re_derives_the_opening_from_the_seed(seats: int) -> None:
    _, played = open_game(seats)
    draws, deal = opening(played)
    # The procedure of RULES.md ("Canonical order"), written out independently.
    chance = Chance.for_game(SEED, GAME_ID)
    drawing = list(range(seats))
    expected_rounds = []
    while True:
        deck = chance.shuffle(list(range(40)))
        expected_rounds.append([(seat, deck[i]) for i, seat in enumerate(drawing)])
        top = max(land_card(card).number for _, card in expected_rounds[-1])
        drawing = [seat for seat, card in expected_rounds[-1] if land_card(card).number == top]
        if len(drawing) == 1:
            break
    assert [[(d.seat, d.card) for d in r.draws] for r in draws] == expected_rounds
    first = drawing[0]
    deck = chance.shuffle(list(range(40)))
    hands: list[list[int]] = [[] for _ in range(seats)]
    for k in range(HAND_SIZE * seats):
        hands[(first + k) % seats].append(deck[k])
    assert deal.first_seat == first
    assert deal.hands == tuple(tuple(hand) for hand in hands)
    assert deal.pile == tuple(deck[HAND_SIZE * seats :])
    assert deal.origin == ORIGIN  # "in the center of the playing surface"
    assert played[-1].chance_cursor == chance.cursor


def test_the_highest_card_goes_first_and_ties_redraw_among_the_tied_only() -> None:
    tied = None
    for index in range(200):
        _, played = open_game(4, seed=b"tie-%d" % index)
        draws, deal = opening(played)
        if len(draws) > 1:
            tied = draws, deal
            break
    assert tied is not None, "no seed among 200 gave a tie"
    draws, deal = tied
    for earlier, later in itertools.pairwise(draws):
        numbers = {d.seat: land_card(d.card).number for d in earlier.draws}
        top = max(numbers.values())
        assert [d.seat for d in later.draws] == [s for s, n in numbers.items() if n == top]
    last = {d.seat: land_card(d.card).number for d in draws[-1].draws}
    assert deal.first_seat == max(last, key=last.__getitem__)
    assert list(last.values()).count(max(last.values())) == 1


@pytest.mark.parametrize("seats", [2, 4])
def test_the_deal_five_each_the_rest_in_one_pile(seats: int) -> None:
    table, _ = open_game(seats)
    state = table.state
    assert isinstance(state, State)
    assert [len(hand) for hand in state.hands] == [HAND_SIZE] * seats
    assert len(state.pile) == 40 - HAND_SIZE * seats
    assert count_land_cards(state) == list(LAND_CARD_IDS)
    assert [cell.content for cell in state.board] == ["origin"]
    assert table.to_act() == frozenset({state.first_seat})


@pytest.mark.parametrize("seats", [2, 4])
def test_the_first_players_team_owns_day_and_the_sun_cards(seats: int) -> None:
    table, _ = open_game(seats)
    state = table.state
    assert isinstance(state, State)
    view = GAME.view(state, None)
    first_team = state.first_seat % 2
    assert view.teams[first_team].colour == "day" and view.teams[first_team].specialty_set == "sun"
    other = view.teams[1 - first_team]
    assert other.colour == "night" and other.specialty_set == "moon"
    assert all(team.specialty_left == 3 for team in view.teams)
    if seats == 4:
        assert view.teams[0].seats == (0, 2) and view.teams[1].seats == (1, 3)


def test_four_players_alternate_teams_clockwise_from_the_first_player() -> None:
    table, _ = open_game(4)
    state = table.state
    assert isinstance(state, State)
    order = []
    for _ in range(6):
        (seat,) = table.to_act()
        order.append(seat)
        command = GAME.legal_commands(state_of(table), seat)[0]
        table.play(seat, command, table.chance_for(SEED, GAME_ID))
        while table.to_act() == frozenset({seat}):  # a specialty card: the land card follows
            command = GAME.legal_commands(state_of(table), seat)[0]
            table.play(seat, command, table.chance_for(SEED, GAME_ID))
    first = state.first_seat
    assert order == [(first + k) % 4 for k in range(6)]
    assert [seat % 2 for seat in order] == [(first + k) % 2 for k in range(6)]


@pytest.mark.parametrize(
    ("options", "seats", "rule"),
    [
        (Options(), 3, "manitou-island.seat-count"),
        (Options(match_play=True, match_target=0), 2, "manitou-island.match-target"),
        (Options(match_target=100), 2, "manitou-island.match-target-without-match-play"),
        (Options(borders=Borders(columns=2, rows=30)), 2, "manitou-island.border-size"),
        (Options(borders=Borders(columns=41, rows=5)), 2, "manitou-island.border-size"),
        (Options(borders=Borders(columns=6, rows=6)), 2, "manitou-island.border-size"),
        (Options(borders=Borders(origin_column=3)), 2, "manitou-island.border-origin"),
        (
            Options(borders=Borders(origin_column=10, origin_row=0)),
            2,
            "manitou-island.border-origin",
        ),
        (
            Options(borders=Borders(origin_column=0, origin_row=-1)),
            4,
            "manitou-island.border-origin",
        ),
    ],
)
def test_bad_options_are_refused(options: Options, seats: int, rule: str) -> None:
    with pytest.raises(RuleViolation) as refusal:
        Table.open(GAME, options, seats, game_id=GAME_ID, seed=SEED)
    assert refusal.value.rule_id == rule


def test_good_options_are_accepted() -> None:
    for options in (
        Options(),
        Options(specialty_cards=False),
        Options(match_play=True, match_target=50),
        Options(borders=Borders(columns=41 // 3 + 1, rows=3)),
        Options(borders=Borders(origin_column=9, origin_row=7)),
    ):
        for seats in (2, 4):
            GAME.validate_options(options, seats)


def test_borders_with_a_fixed_origin() -> None:
    options = Options(borders=Borders(columns=12, rows=9, origin_column=2, origin_row=7))
    table, played = open_game(2, options)
    _, deal = opening(played)
    assert deal.origin == offset_to_axial(2, 7, OffsetLayout.ODD_R)
    view = GAME.view(state_of(table), 0)
    assert view.borders is not None and len(view.borders.spaces) == 12 * 9
    assert view.borders.spaces[7 * 12 + 2] == deal.origin


def test_borders_draw_the_origin_anywhere_on_the_board() -> None:
    options = Options(borders=Borders())
    board = HexBoard.rectangle(10, 8, OffsetLayout.ODD_R)
    origins = set()
    for index in range(12):
        seed = b"origin-%d" % index
        _, played = open_game(2, options, seed=seed)
        draws, deal = opening(played)
        # Re-derived: after the first-player draw rounds, one uniform draw over the spaces.
        chance = Chance.for_game(seed, GAME_ID)
        for _ in draws:
            chance.shuffle(list(range(40)))
        assert deal.origin == board.cells[chance.uniform(len(board))]
        origins.add(deal.origin)
    assert len(origins) > 6 and all(origin in board for origin in origins)

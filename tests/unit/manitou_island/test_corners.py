"""No seat is ever left without a move (the kernel's contract), from positions built to reach
Manitou's corners: the last card of the pile and of the hands, two and four seats, no specialty
cards, a team with its specialty cards spent, a full bordered board, an origin in a corner of
the borders, the last hole that closes every space, a turn only a specialty card can open, the
forfeit, and match play (a forfeit, equal totals past the target, small bordered boards).

Each test builds its position with `support.py` (a State on a real Table, the 40 land cards
conserved), checks that the referee has nothing left to do there and who may act, then plays
random legal commands to the end of the game (or match) a few times
(`tests/unit/corners.py`), the contract checked at every step.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import Command, PlayLand, PlaySpecialty
from referee.games.manitou_island.data import LAND_CARD_IDS
from referee.games.manitou_island.events import GameDealt, GameEnded
from referee.games.manitou_island.flow import next_step
from referee.games.manitou_island.options import Borders, Options, bounded_board
from referee.games.manitou_island.state import Cell, State
from referee.kernel import Table
from referee.kernel.hexgrid import ORIGIN, Hex, ring
from tests.unit.corners import check_who_may_act, play_on

from .support import (
    GAME_ID,
    SEED,
    bridge,
    day,
    fresh_specialty,
    land,
    lighthouse,
    night,
    night_9_trap,
    open_game,
    out_of_the_way,
    play,
    played,
    position,
    state_of,
    water,
    whirlpool,
)

Maker = Callable[[], Table]


def at_rest(table: Table) -> None:
    """The referee has no step of its own left: the position is one a game can stop at."""
    assert next_step(state_of(table), table.chance_for(SEED, GAME_ID)) == []


def corner(make: Maker, games: int = 5) -> list[State]:
    """The contract at the built position, then `games` random continuations to the end
    (`play_on`, each with its own random choices); the final states."""
    table = make()
    at_rest(table)
    check_who_may_act(table)
    finals = []
    for game in range(games):
        table = make()
        play_on(table, SEED, GAME_ID, random.Random(game))
        finals.append(state_of(table))
    return finals


def listed(table: Table) -> list[Command]:
    (seat,) = table.to_act()
    return list(GAME.legal_commands(state_of(table), seat))


def every_listed_command_is_accepted(make: Maker) -> list[Command]:
    """Each command listed at the position, played on a fresh copy: accepted, and the contract
    holds right after it."""
    table = make()
    (seat,) = table.to_act()
    commands = listed(table)
    for command in commands:
        fresh = make()
        play(fresh, seat, command)
        if not fresh.outcome().finished:
            check_who_may_act(fresh)
    return commands


def dealt_from_the_rest(cells: Sequence[Cell], seats: int) -> tuple[tuple[int, ...], ...]:
    """Five cards a seat, in the canonical order of the cards not on the board."""
    on_board = {cell.card for cell in cells}
    rest = [c for c in LAND_CARD_IDS if c not in on_board]
    return tuple(tuple(rest[5 * seat : 5 * seat + 5]) for seat in range(seats))


# -- the last cards --------------------------------------------------------------------------

# Day: 7 + 9 = 16 and a lone day 2; night: 10 and 5.
ISLANDS = [
    land(1, 0, day(7)),
    land(2, 0, day(9)),
    land(-2, 3, day(2)),
    land(-1, 0, night(10)),
    land(-2, 0, night(5)),
]


def late(
    cells: list[Cell],
    hands: tuple[tuple[int, ...], ...],
    pile: tuple[int, ...] = (),
    **kwargs: object,
) -> Maker:
    """A late position: `cells` in play, the hands, `pile`, every other card water far away."""

    def make() -> Table:
        board = [*cells, *out_of_the_way(cells, hands, pile)]
        return position(board, hands=hands, pile=pile, **kwargs)  # type: ignore[arg-type]

    return make


def test_the_last_land_card_in_the_last_hand() -> None:
    # MI-6: the game ends when every land card has been played; "specialty cards cannot be
    # used after the last land card has been played". Seat 1 holds the only card left.
    make = late(ISLANDS, ((), (night(1),)), turn_seat=1)
    finals = corner(make)
    assert all(final.results[-1].reason == "all-land-played" for final in finals)


def test_the_pile_is_empty_and_the_hands_run_out() -> None:
    # "End each turn by drawing a card": nothing to draw; three cards each, water beside both
    # colours' land (bridges), specialty cards unused.
    cells = [*ISLANDS, water(3, 0, night(7)), water(-3, 0, day(10))]
    hands = ((day(3), day(4), night(6)), (night(2), night(8), day(5)))
    finals = corner(late(cells, hands), games=8)
    assert all(final.stage == "over" and not final.pile for final in finals)


def test_the_last_card_of_the_pile_is_drawn() -> None:
    # One card left to draw: seat 0 draws it, then the hands run down unevenly (5 against 4).
    hands = (
        (day(1), day(2), day(3), night(3), night(4)),
        (night(1), night(2), day(4), day(5), day(6)),
    )
    corner(late(ISLANDS, hands, pile=(night(9),)), games=8)


@pytest.mark.parametrize(
    "hands",
    [
        ((), (), (day(3),), (night(3),)),
        ((day(1),), (night(1),), (day(3), day(4)), (night(3), night(4))),
    ],
    ids=["one-card-round", "two-card-round"],
)
def test_four_seats_the_last_cards_go_round_the_table(hands: tuple[tuple[int, ...], ...]) -> None:
    # Team play, the pile empty: seats 0 and 1 have played this round's card, seat 2 is next;
    # empty hands wait while their partners and opponents finish.
    finals = corner(late(ISLANDS, hands, seats=4, turn_seat=2), games=6)
    assert all(final.stage == "over" for final in finals)


def test_the_last_cards_without_specialty_cards() -> None:
    # MI-R11: the game without specialty cards; only land cards are ever listed.
    hands = ((day(3), day(4), night(6)), (night(2), night(8), day(5)))
    make = late(ISLANDS, hands, options=Options(specialty_cards=False))
    assert all(isinstance(c, PlayLand) for c in listed(make()))
    corner(make, games=8)


# -- no space left ---------------------------------------------------------------------------

SMALL = Borders(columns=7, rows=6, origin_column=0, origin_row=0)  # 42 spaces


def the_last_open_space() -> Table:
    """A 7 x 6 bordered board full but for its last space: the origin in the first, two night
    whirlpools, every other card in play (day face up, night turned to water) but one in each
    hand. Seat 0 (day) is to play its day 10 into the last space; seat 1 holds a night 10."""
    spaces = bounded_board(SMALL)
    assert spaces is not None and spaces.cells[0] == ORIGIN and len(spaces) == 42
    *middle, last = spaces.cells[1:]
    hands = ((day(10, 1),), (night(10, 1),))
    pool = [c for c in LAND_CARD_IDS[20:] + LAND_CARD_IDS[:20] if c not in (*hands[0], *hands[1])]
    whirlpools = (middle[8], middle[16])
    cells = []
    for at in middle:
        if at in whirlpools:
            cells.append(whirlpool(at.q, at.r, "night"))
            continue
        card = pool.pop(0)
        cells.append(land(at.q, at.r, card) if card < 20 else water(at.q, at.r, card))
    assert not pool and any(
        cell.at in last.neighbours() and cell.content == "land" for cell in cells
    )
    night_cards = (
        played("whirlpool-lighthouse", "whirlpool", whirlpools[0]),
        fresh_specialty()[1],  # lighthouse-bridge, unused
        played("bridge-whirlpool", "whirlpool", whirlpools[1]),
    )
    return position(
        cells,
        hands=hands,
        pile=(),
        options=Options(borders=SMALL),
        specialty=(fresh_specialty(), night_cards),
    )


def test_the_last_open_space_of_a_bordered_board_then_a_forfeit() -> None:
    # Borders (MI-7, MI-R6): no card goes off the board, and whirlpools take spaces too, so a
    # board of 42 spaces fills before the last card. A whirlpool in the last space would leave
    # no land card playable (MI-R3): never listed. Seat 1 then has no space: it forfeits (MI-6).
    commands = every_listed_command_is_accepted(the_last_open_space)
    assert not any(isinstance(c, PlaySpecialty) and c.face == "whirlpool" for c in commands)
    finals = corner(the_last_open_space, games=6)
    for final in finals:
        result = final.results[-1]
        assert (result.reason, result.forfeited_seat) == ("forfeit", 1)


def the_last_hole() -> Table:
    """Unbounded: the origin's ring is night land but for a hole at (1, 0), the next ring is
    all water. Seat 1 (night) fills the hole; after it, every open space touches water only."""
    around = ORIGIN.neighbours()
    assert around[0] == Hex(1, 0)
    nights = (night(7), night(7, 1), night(8), night(8, 1), night(5))
    ring_1 = [land(at.q, at.r, card) for at, card in zip(around[1:], nights, strict=True)]
    ring_2 = [water(at.q, at.r, card) for at, card in zip(ring(ORIGIN, 2), range(12), strict=True)]
    hands = (
        (day(9), day(9, 1), day(10), day(10, 1), day(8)),
        (night(9), night(9, 1), night(10), night(10, 1), night(6)),
    )
    return position([*ring_1, *ring_2], hands=hands, turn_seat=1)


def test_the_last_hole_closes_every_space_with_cards_left_in_the_pile() -> None:
    # MI-2: a land card touches a face-up land card or the origin; once the hole is filled no
    # open space does, and no specialty card can open one: seat 0 forfeits (MI-6, MI-R4) with
    # thirteen cards still in the pile.
    assert len(state_of(the_last_hole()).pile) == 13
    lands = [c for c in listed(the_last_hole()) if isinstance(c, PlayLand)]
    assert {c.at for c in lands} == {Hex(1, 0)}
    finals = corner(the_last_hole, games=6)
    for final in finals:
        result = final.results[-1]
        assert (result.reason, result.forfeited_seat) == ("forfeit", 0) and final.pile


# -- a turn only a specialty card opens ------------------------------------------------------


def trapped_night_cards() -> Table:
    """`night_9_trap`: seat 1 plays a day 1 beside the day 2; seat 0 (day) then holds only
    night cards that fit nowhere: every open space touches a day card (MI-R3, MI-R4)."""
    hands = (
        (night(8), night(8, 1), night(9), night(9, 1), night(10)),
        (day(1, 1), day(8), day(8, 1), day(10), day(10, 1)),
    )
    table = position(night_9_trap(), hands=hands, turn_seat=1)
    play(table, 1, PlayLand(card=day(1, 1), at=Hex(6, 0)))
    return table


LIGHTHOUSE_ON_THE_DAY_2 = PlaySpecialty(card="lighthouse-bridge", face="lighthouse", at=Hex(5, 0))


def test_only_a_specialty_card_opens_the_turn() -> None:
    # A lighthouse on the day 2 (the land card and its population sacrificed) or a whirlpool
    # that floods it frees (4, 0) for a night card: the turn is a specialty card, then land.
    commands = every_listed_command_is_accepted(trapped_night_cards)
    assert commands and all(isinstance(c, PlaySpecialty) for c in commands)
    assert LIGHTHOUSE_ON_THE_DAY_2 in commands
    corner(trapped_night_cards, games=6)


def test_after_the_specialty_card_only_the_space_it_freed_takes_a_land_card() -> None:
    # One specialty card before a land card (MI-R2): stage "specialty-played", the same seat.
    def make() -> Table:
        table = trapped_night_cards()
        play(table, 0, LIGHTHOUSE_ON_THE_DAY_2)
        return table

    assert state_of(make()).stage == "specialty-played"
    commands = every_listed_command_is_accepted(make)
    assert {c.at for c in commands if isinstance(c, PlayLand)} == {Hex(4, 0)}
    assert len(commands) == 5  # each card of the hand, in the one space
    corner(make, games=6)


# -- teams and their specialty cards -----------------------------------------------------------


def test_four_seats_a_team_with_its_three_specialty_cards_spent() -> None:
    # Team play: the three specialty cards are shared between teammates; team 0 (day) has
    # played all three (a whirlpool, a lighthouse, a bridge): seats 0 and 2 play land only.
    cells = [
        land(1, 0, day(5)),
        land(2, 0, day(6)),
        lighthouse(1, -1, day(7), "day"),
        bridge(3, 0, night(6), "day"),
        whirlpool(-1, 0, "day"),
        land(-1, 1, night(2)),
    ]
    spent = (
        played("whirlpool-lighthouse", "whirlpool", Hex(-1, 0)),
        played("lighthouse-bridge", "lighthouse", Hex(1, -1)),
        played("bridge-whirlpool", "bridge", Hex(3, 0)),
    )

    def make() -> Table:
        hands = dealt_from_the_rest(cells, 4)
        return position(
            cells, hands=hands, seats=4, turn_seat=2, specialty=(spent, fresh_specialty())
        )

    assert all(isinstance(c, PlayLand) for c in listed(make()))
    corner(make, games=4)


# -- match play --------------------------------------------------------------------------------


def test_a_team_that_cannot_play_forfeits_and_the_match_deals_the_next_game() -> None:
    # MI-6 (four players: the team forfeits), MI-R8 (a forfeited game adds nothing), MI-R7
    # (the match goes on: the referee deals game 2, with its own first-player draw).
    ring_of_water = [
        water(1, -1, night(1)),
        water(0, -1, night(2)),
        water(-1, 0, night(3)),
        water(-1, 1, night(4)),
        water(0, 1, night(6)),
    ]
    cells = [land(1, 0, day(2)), *ring_of_water]
    hands = (
        (night(9), night(7), night(7, 1), night(5), night(5, 1)),
        (day(6), day(3), day(4), day(5), day(7)),
        (night(9, 1), night(8), night(8, 1), night(10), night(10, 1)),
        (day(6, 1), day(8), day(9), day(10), day(1)),
    )
    options = Options(match_play=True, match_target=30)

    def make() -> Table:
        table = position(cells, hands=hands, seats=4, turn_seat=1, options=options)
        events = play(table, 1, PlayLand(card=day(6), at=Hex(2, 0)))
        (ended,) = [e for e in events if isinstance(e, GameEnded)]
        assert ended.result.forfeited_seat == 2 and not ended.match_over
        assert isinstance(events[-1], GameDealt) and events[-1].game == 2
        return table

    finals = corner(make, games=4)
    assert all(final.stage == "over" and len(final.results) >= 2 for final in finals)


def test_equal_totals_past_the_target_play_another_game() -> None:
    # MI-R7: 200 + 16 = 197 + 19: equal totals at or past the target play another game.
    def make() -> Table:
        cells = [*ISLANDS[:3], land(-1, 0, night(10)), land(-2, 0, night(8))]
        hands: tuple[tuple[int, ...], ...] = ((), (night(1),))
        table = late(
            cells, hands, turn_seat=1, options=Options(match_play=True), totals=(200, 197)
        )()
        events = play(table, 1, PlayLand(card=night(1), at=Hex(-3, 0)))
        (ended,) = [e for e in events if isinstance(e, GameEnded)]
        assert ended.totals == (216, 216) and not ended.match_over
        return table

    finals = corner(make, games=4)
    assert all(final.totals[0] != final.totals[1] for final in finals)


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize(
    "borders",
    [Borders(columns=7, rows=6), Borders(columns=3, rows=14), Borders(columns=14, rows=3)],
    ids=["7x6", "3x14", "14x3"],
)
def test_a_match_on_the_smallest_bordered_boards(seats: int, borders: Borders) -> None:
    # MI-R6: at least 41 spaces, the origin drawn anywhere for each game of the match; on so
    # small a board the spaces run out and games end by forfeit (MI-R8), the match goes on.
    options = Options(match_play=True, match_target=40, borders=borders)
    corner(lambda: open_game(seats, options)[0], games=3)


@pytest.mark.parametrize("column, row", [(0, 0), (6, 0), (0, 5), (6, 5)])
def test_the_origin_in_a_corner_of_the_borders(column: int, row: int) -> None:
    # MI-7, "create interesting gameplay by placing the origin card off-center": in a corner,
    # the origin has two or three spaces beside it on the board.
    borders = Borders(columns=7, rows=6, origin_column=column, origin_row=row)
    table = open_game(2, Options(borders=borders))[0]
    spaces = bounded_board(borders)
    assert spaces is not None
    beside = set(spaces.neighbours(state_of(table).origin))
    assert len(beside) in (2, 3)
    assert {c.at for c in listed(table) if isinstance(c, PlayLand)} == beside
    corner(lambda: open_game(2, Options(borders=borders))[0], games=3)

"""No seat is ever left without a move (the kernel's contract), from positions built to reach
Wind River's corners: no buffalo left, buffalo that have all moved or are hemmed in by full
spaces, a stock that cannot feed, a seat with nothing left, a teepee boxed in, the last teepee,
three players' northern edge, the stock's limit of ten.

Each test builds its position with `support.py` (a board between turns; the referee begins the
turn, and makes every decision that has a single possibility), checks who may act there, then
plays random legal commands to the end of the game a few times (`tests/unit/corners.py`), the
contract checked at every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.games.wind_river.board import COLUMNS, OPEN_PLAINS, Space, board_for
from referee.games.wind_river.checks import buffalo_move_refusal
from referee.games.wind_river.commands import (
    EarnResources,
    InsertTeepee,
    MoveBuffalo,
    MoveExtraBuffalo,
    MoveTeepee,
    PlaceTeepee,
    SendBackTeepees,
)
from referee.games.wind_river.stages import Stage, stage
from referee.kernel import Seat, Table
from tests.unit.corners import check_who_may_act, play_on_several

from .support import GAME_ID, SEED, act, at, at_turn_of, legal, new_table, position, state_of

Teepees = Mapping[Space, Mapping[Seat, int]]


def corner(make_table: Callable[[], Table], games: int = 8) -> list[int]:
    """The contract at the built position, then `games` random continuations to the end."""
    check_who_may_act(make_table())
    return play_on_several(make_table, SEED, GAME_ID, games)


def turn_of(
    seat: Seat,
    teepees: Teepees,
    *,
    seats: int = 4,
    buffalo: Mapping[Space, int] | None = None,
    resources: tuple[int, ...] | None = None,
    plains: tuple[int, ...] | None = None,
) -> Callable[[], Table]:
    """A maker of the table at the start of `seat`'s turn, the board as given."""

    def make() -> Table:
        state = position(
            seats, teepees=teepees, buffalo=buffalo, resources=resources, plains=plains
        )
        return at_turn_of(seat, state)

    return make


# -- buffalo: none left, all moved, hemmed in ------------------------------------------------


def test_no_buffalo_left_on_the_board() -> None:
    # WR-3, WR-9: every buffalo is in the open plains: the moves owed cannot be made; every
    # teepee is unfed (5.2), paid for while resources last, then sent back; nobody ever earns
    # again, so the board empties (section 6) with seats left to act until then.
    teepees = {at(3, 4): {0: 2}, at(4, 6): {1: 1, 2: 1}, at(6, 8): {3: 3}, at(1, 2): {0: 1}}
    make = turn_of(0, teepees, buffalo={}, resources=(2, 0, 1, 10))
    table = make()
    assert stage(state_of(table)) is Stage.SUPPLYING  # no move can be made: straight to 5.2
    # Three unfed, two resources: one goes back, the lone one or one of the pair.
    assert legal(table) == [
        SendBackTeepees(spaces=(at(1, 2),)),
        SendBackTeepees(spaces=(at(3, 4),)),
    ]
    corner(make)


def test_more_buffalo_moves_owed_than_buffalo_that_have_not_moved() -> None:
    # WR-3, WR-R3: seven moves owed, three buffalo; once each has moved into column 8, none may
    # move again in this step, and the turn goes on to the supply with four moves unmade.
    teepees = {at(2, 2): {0: 3}, at(5, 3): {0: 4}, at(3, 8): {1: 1}, at(5, 8): {2: 1}}
    make = turn_of(0, teepees, buffalo={at(3, 7): 2, at(5, 7): 1}, resources=(10, 1, 1, 1))
    table = make()
    assert state_of(table).moves_due == 7
    for source in (at(3, 7), at(3, 7), at(5, 7)):
        act(table, 0, MoveBuffalo(from_=source, to=at(source.lane, COLUMNS)))
    # Three moves made of seven: the supply (paid in full, by the referee) has followed.
    assert state_of(table).moves_made == 3
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY
    check_who_may_act(table)
    corner(make)


def test_full_spaces_leave_only_the_open_plains() -> None:
    # 5.1: no more than five buffalo on a space. Column 8 is full in every lane and the two
    # buffalo spaces of column 7 can only step into it: every legal move leaves the board.
    buffalo = {at(lane, COLUMNS): 5 for lane in range(1, 7)} | {at(3, 7): 5, at(5, 7): 1}
    teepees = {at(3, 7): {0: 1, 1: 1}, at(5, 7): {2: 2}, at(2, 8): {3: 1}, at(6, 8): {0: 1}}
    make = turn_of(0, teepees, buffalo=buffalo, resources=(1, 2, 3, 4))
    table = make()
    state = state_of(table)
    assert sum(state.buffalo) == 36
    hemmed = [at(3, 7), at(5, 7)]
    for source in hemmed:
        targets = board_for(4).buffalo_targets(source)
        assert all(buffalo_move_refusal(state, source, t, extra=False) for t in targets)
    moves = legal(table)
    assert moves and all(isinstance(m, MoveBuffalo) and m.to == OPEN_PLAINS for m in moves)
    corner(make)


def test_the_last_buffalo_leaves_the_board() -> None:
    # 5.1: a single buffalo left, in the last column; once it is in the open plains nothing
    # feeds any teepee again (a three-player game: lane 1 is not in play, WR-2).
    teepees = {at(2, 8): {0: 1}, at(4, 5): {1: 2}, at(6, 1): {2: 1}}
    make = turn_of(0, teepees, seats=3, buffalo={at(2, 8): 1}, resources=(0, 3, 1))
    corner(make)


# -- supply: the stock cannot pay ------------------------------------------------------------


def test_a_short_stock_chooses_which_of_many_unfed_teepees_go_back() -> None:
    # 5.2, WR-4: six unfed teepees (two pairs on one space each) and one resource: five go
    # back, each distinct choice listed once (which one stays: four choices). The buffalo are
    # in the first columns, too far to feed any of them.
    teepees = {at(2, 5): {0: 2}, at(4, 5): {0: 2}, at(5, 4): {0: 1, 1: 1}, at(6, 6): {0: 1}}
    make = turn_of(0, teepees, buffalo={at(1, 1): 5, at(3, 1): 2}, resources=(1, 4, 4, 4))
    table = make()
    assert state_of(table).moves_due == 6
    while stage(state_of(table)) is Stage.MOVING_BUFFALO:
        act(table, 0, legal(table)[0])
    assert stage(state_of(table)) is Stage.SUPPLYING
    choices = legal(table)
    assert len(choices) == len({c.spaces for c in choices if isinstance(c, SendBackTeepees)}) == 4
    check_who_may_act(table)
    corner(make)


def test_without_resources_every_unfed_teepee_of_every_seat_goes_back() -> None:
    # 5.2: nobody has a resource and no buffalo feeds anyone: each turn's supply sends every
    # teepee of the seat back by itself; seats with nothing on the board still take turns.
    teepees = {at(2, 3): {0: 1}, at(3, 6): {1: 2}, at(5, 2): {2: 1, 3: 1}}
    make = turn_of(0, teepees, buffalo={at(6, 7): 2}, resources=(0, 0, 0, 0))
    corner(make)


# -- a seat with nothing left ----------------------------------------------------------------


def test_a_seat_with_no_teepee_anywhere_and_no_resource_still_takes_turns() -> None:
    # WR-6: seat 1 has all seven teepees in the open plains and nothing in stock or on the
    # board; its turns are the extra activity alone (earn nothing, or move an extra buffalo).
    teepees = {at(3, 3): {0: 1}, at(4, 4): {2: 2}, at(5, 5): {3: 1}}
    make = turn_of(1, teepees, resources=(1, 0, 1, 1), plains=(0, 7, 0, 0))
    table = make()
    assert state_of(table).stock[1] == 0 and state_of(table).on_board(1) == 0
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY
    assert EarnResources() in legal(table)
    assert not any(isinstance(c, MoveTeepee | InsertTeepee) for c in legal(table))
    corner(make)


def test_a_seat_with_every_teepee_in_stock_and_a_full_stock_of_resources() -> None:
    # 5.3.3: ten resources and seven teepees in stock, but no own space to insert one into:
    # the seat can never come back to the board and still takes its turns.
    teepees = {at(2, 4): {0: 2}, at(4, 4): {1: 1}, at(6, 2): {3: 1}}
    make = turn_of(2, teepees, resources=(1, 1, 10, 1))
    table = make()
    assert state_of(table).stock[2] == 7
    assert not any(isinstance(c, InsertTeepee) for c in legal(table))
    corner(make)


def test_the_stock_is_at_its_limit_of_ten_everywhere() -> None:
    # 5.3.2: earning adds nothing past ten; every seat can pay entries and insertions.
    teepees = {at(2, 2): {0: 2}, at(3, 3): {1: 1}, at(4, 2): {2: 1}, at(5, 1): {3: 3}}
    make = turn_of(0, teepees, resources=(10, 10, 10, 10))
    corner(make)


# -- a teepee that cannot move ---------------------------------------------------------------


def test_a_teepee_boxed_in_by_teepees_it_cannot_pay_to_join() -> None:
    # 5.3.1: you may not enter an occupied space if you cannot pay. Seat 0's only teepee, with
    # no resource, has another seat's teepee on each of its six neighbours: it cannot move.
    middle = at(3, 4)
    around = board_for(4).teepee_targets(middle)
    assert len(around) == 6
    teepees: dict[Space, dict[Seat, int]] = {middle: {0: 1}}
    for number, space in enumerate(around):
        assert isinstance(space, Space)
        teepees[space] = {1 + number % 3: 1}
    make = turn_of(0, teepees, buffalo={middle: 1, at(6, 1): 2}, resources=(0, 1, 1, 1))
    table = make()
    act(table, 0, MoveBuffalo(from_=at(6, 1), to=at(6, 2)))  # its buffalo stays: fed
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY
    options = legal(table)
    assert not any(isinstance(c, MoveTeepee) for c in options)
    assert EarnResources() in options
    check_who_may_act(table)
    corner(make)


def test_a_teepee_in_the_corner_of_the_board_without_resources() -> None:
    # The north-west corner (lane 1, column 1, four players): three neighbours, all taken by
    # others' teepees; no step off the northern or western side (WR-R1).
    corner_space = at(1, 1)
    around = board_for(4).teepee_targets(corner_space)
    assert len(around) < 6
    teepees: dict[Space, dict[Seat, int]] = {corner_space: {0: 1}}
    for number, space in enumerate(around):
        assert isinstance(space, Space)
        teepees[space] = {1 + number % 3: 1}
    make = turn_of(0, teepees, resources=(0, 0, 2, 1))
    table = make()
    while stage(state_of(table)) is Stage.MOVING_BUFFALO:
        act(table, 0, legal(table)[-1])
    if stage(state_of(table)) is Stage.EXTRA_ACTIVITY:
        assert not any(isinstance(c, MoveTeepee) for c in legal(table))
    check_who_may_act(table)
    corner(make)


# -- the last teepee, the end of the game ------------------------------------------------------


def test_the_last_teepee_on_the_board_may_enter_the_open_plains() -> None:
    # Section 6: the game ends at the end of the turn that leaves no teepee on the board.
    make = turn_of(
        3,
        {at(4, 8): {3: 1}},
        buffalo={at(4, 8): 1, at(2, 5): 2},
        resources=(2, 0, 5, 1),
        plains=(3, 2, 0, 1),
    )
    table = make()
    act(table, 3, MoveBuffalo(from_=at(2, 5), to=at(2, 6)))
    assert MoveTeepee(from_=at(4, 8), to=OPEN_PLAINS) in legal(table)
    corner(make)


def test_the_last_teepee_starves_and_the_turn_is_completed() -> None:
    # WR-10: the last teepee goes back for want of a resource in 5.2; the extra activity is
    # still played (extra buffalo moves offered), then the game ends.
    make = turn_of(
        1, {at(5, 5): {1: 1}}, buffalo={at(6, 2): 3, at(2, 1): 1}, resources=(1, 0, 3, 3)
    )
    table = make()
    act(table, 1, MoveBuffalo(from_=at(6, 2), to=at(6, 3)))
    assert state_of(table).board_empty and not state_of(table).finished
    assert stage(state_of(table)) is Stage.EXTRA_ACTIVITY
    assert any(isinstance(c, MoveExtraBuffalo) for c in legal(table))
    check_who_may_act(table)
    corner(make)


def test_every_teepee_of_every_seat_on_one_space() -> None:
    # 5.2, example 1: the buffalo of a space feed the other players first; 5.3.1: entering
    # costs everyone there. Twenty-eight teepees on one space, five buffalo.
    teepees = {at(4, 4): {0: 7, 1: 7, 2: 7, 3: 7}}
    make = turn_of(0, teepees, buffalo={at(4, 4): 5, at(3, 1): 2}, resources=(3, 1, 0, 10))
    table = make()
    assert state_of(table).moves_due == 7
    corner(make)


# -- three players: the northern edge is lane 2 -----------------------------------------------


def test_three_players_at_the_northern_edge_of_lane_2() -> None:
    # WR-2, WR-7: with three players lane 1 does not exist for any move: from lane 2 no buffalo
    # steps north-east, no teepee north; from column 8 the open plains.
    teepees = {at(2, 1): {0: 1}, at(2, 8): {1: 2}, at(2, 4): {2: 1}, at(3, 4): {0: 1}}
    buffalo = {at(2, 8): 5, at(2, 7): 5, at(2, 1): 2, at(3, 3): 1}
    make = turn_of(0, teepees, seats=3, buffalo=buffalo, resources=(1, 1, 1))
    table = make()
    board = board_for(3)
    for space in board.spaces:
        targets = (*board.buffalo_targets(space), *board.teepee_targets(space))
        assert all(t == OPEN_PLAINS or (isinstance(t, Space) and t.lane >= 2) for t in targets)
    check_who_may_act(table)
    corner(make)


# -- set-up: the last teepee of the second round --------------------------------------------------


def test_the_last_placement_of_the_set_up_begins_the_first_turn() -> None:
    # Section 3 (WR-8): the second round's last teepee; then the start player's first turn.
    def make() -> Table:
        table = new_table(3)
        free = [s for s in board_for(3).spaces if s.column == COLUMNS]
        for space in free[:5]:
            (seat,) = table.to_act()
            act(table, seat, PlaceTeepee(at=space))
        return table

    table = make()
    assert len(legal(table)) == len(board_for(3).spaces) - 5
    corner(make)

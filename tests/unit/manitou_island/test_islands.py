"""Islands and their populations ("THE GOAL", MI-5) and Common Question 7."""

from __future__ import annotations

from referee.games.manitou_island.scoring import islands, populations
from referee.games.manitou_island.state import Cell
from referee.kernel.hexgrid import ORIGIN, Hex

from .support import bridge, day, land, lighthouse, night, water


def board(*cells: Cell) -> dict[Hex, Cell]:
    return {cell.at: cell for cell in (Cell(at=ORIGIN, content="origin"), *cells)}


def test_an_island_is_same_coloured_cards_sharing_edges_summed() -> None:
    # The rule text's picture: "an island with a population of 16".
    b = board(land(1, 0, day(7)), land(2, 0, day(4)), land(2, -1, day(5)))
    (island,) = islands(b, "day")
    assert island.population == 16
    assert island.cells == (Hex(1, 0), Hex(2, -1), Hex(2, 0))


def test_colours_do_not_mix_and_corners_do_not_join() -> None:
    b = board(land(1, 0, day(5)), land(2, 0, night(5, 1)), land(3, 0, day(2)), land(5, 0, day(1)))
    assert populations(b, "day") == (5, 2, 1)
    assert populations(b, "night") == (5,)


def test_common_question_7_the_origin_is_not_a_bridge() -> None:
    b = board(land(1, 0, day(3)), land(-1, 0, day(4)))  # both touch the origin only
    assert populations(b, "day") == (4, 3)


def test_water_divides_an_island() -> None:
    b = board(land(1, 0, day(3)), water(2, 0, day(9)), land(3, 0, day(4)))
    assert populations(b, "day") == (4, 3)


def test_a_lighthouse_is_neither_part_of_an_island_nor_a_bridge() -> None:
    b = board(land(1, 0, day(3)), lighthouse(2, 0, day(9)), land(3, 0, day(4)))
    assert populations(b, "day") == (4, 3)


def test_a_bridge_joins_every_island_of_its_colour_it_touches() -> None:
    # Three day islands around one bridge at (2, 0), plus a night card that stays apart.
    b = board(
        bridge(2, 0, night(9), "day"),
        land(3, 0, day(1)),
        land(2, -1, day(2)),
        land(1, 1, day(3)),
        land(3, -1, night(6)),
    )
    assert populations(b, "day") == (6,)
    (island,) = islands(b, "day")
    assert Hex(2, 0) in island.cells  # bridges are part of the island they join
    assert populations(b, "night") == (6,)


def test_a_run_of_bridges_joins_the_islands_at_both_ends() -> None:
    b = board(
        land(1, 1, day(3)),
        bridge(2, 1, night(7), "day"),
        bridge(3, 1, night(8), "day"),
        bridge(4, 1, night(9), "day"),
        land(5, 1, day(4)),
    )
    assert populations(b, "day") == (7,)


def test_a_bridge_of_the_other_colour_joins_nothing_and_bridges_alone_are_no_island() -> None:
    b = board(
        land(1, 1, day(3)),
        bridge(2, 1, night(7), "night"),
        land(3, 1, day(4)),
        bridge(6, 6, night(8), "day"),
    )
    assert populations(b, "day") == (4, 3)
    assert populations(b, "night") == ()

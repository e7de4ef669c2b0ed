"""The seed's worked examples, played as positions."""

from __future__ import annotations

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.data import HeroKind, TileKind
from referee.games.big_manitou.events import GroundEvaluated, LeatherThiefStruck
from referee.games.big_manitou.scoring import victory_points

from .support import (
    cards_in,
    hold_tiles,
    new_table,
    plays,
    scripted_hunt,
    seven,
    state_of,
    two_player_hunt,
)

ALEX, MARIO = 0, 1


def test_alex_scores_four_and_one_more_tepee_makes_five() -> None:
    # "Alex holds one x 3 Tepee tile, one x 1 Tepee tile, one x 3 Buffalo tile and one x 2
    # Buffalo tile. He scores 4 victory points. If he had acquired one more Tepee tile, then he
    # would have scored 5 victory points."
    table = new_table(2)
    hold_tiles(table, {ALEX: ("tepee-3", "tepee-1", "buffalo-3", "buffalo-2")})
    assert GAME.view(state_of(table), None).players[ALEX].points == 4
    tepees: tuple[TileKind, ...] = ("tepee-1", "tepee-2", "tepee-3")
    for tepee in tepees:
        alex: tuple[TileKind, ...] = ("tepee-3", "tepee-1", "buffalo-3", "buffalo-2", tepee)
        assert victory_points([alex, ()], None, None)[ALEX] == 5


def test_mario_with_two_tomahawks_scores_his_hunters_5_3_7_as_7_5_9() -> None:
    # "Mario is holding three Hunter cards, which score 5, 3 and 7 each. He also has 2 Tomahawk
    # tiles. His Hunters therefore score 7, 5 and 9 each."
    table, events = scripted_hunt(
        2,
        {
            ALEX: seven(("hunter-10", 0), ("hunter-9", 0)),
            MARIO: seven(("hunter-5", 0), ("hunter-3", 0), ("hunter-7", 0)),
        },
        hunt=2,
        holdings={MARIO: ("tomahawk", "tomahawk")},
        grounds=[("tepee-1", "buffalo-1", "totem", "horse"), (), ()],
    )
    evaluated = next(e for e in events if isinstance(e, GroundEvaluated) and e.ground == 0)
    assert evaluated.hunter_totals == (19, 7 + 5 + 9)
    assert evaluated.picks[0].seat == MARIO  # 21 beats Alex's 19; without Tomahawks 15 would not
    thief = next(e for e in events if isinstance(e, LeatherThiefStruck))
    # The Tomahawks do not count for the Leather Thief: Mario's Hunters are 5+3+7 (+1+2+4+6).
    assert thief.strengths[MARIO] == 5 + 3 + 7 + 1 + 2 + 4 + 6
    assert table.to_act() == {MARIO}


def test_a_tomahawk_won_in_a_hunt_does_not_count_in_the_grounds_evaluated_after_it() -> None:
    table, events = scripted_hunt(
        2,
        {ALEX: seven(("hunter-10", 0), ("hunter-8", 1)), MARIO: seven(("hunter-9", 1))},
        hunt=2,
        grounds=[("tomahawk", "tomahawk", "tomahawk"), ("tepee-1", "buffalo-1", "totem"), ()],
    )
    ground_1 = next(e for e in events if isinstance(e, GroundEvaluated) and e.ground == 1)
    # Alex took Tomahawks in ground 0, yet his 8 still counts 8 in ground 1 and loses to 9.
    assert ground_1.hunter_totals == (8, 9)
    assert state_of(table).players[ALEX].tiles.count("tomahawk") == 2


def test_the_sacrifice_example() -> None:
    # "Alex has protected his Scout by placing a Chief in the same hunting ground; in order to
    # attack the Scout, Mario must sacrifice one of his Heroes (a Squaw or a Chief). In this way
    # he defeats Alex's Chief. Later his Scout can be attacked as normal."
    table = two_player_hunt(["scout", "chief"], ["hunter-1", "squaw", "chief"])
    plays(table, (ALEX, "scout", 0), (MARIO, "hunter-1", 1), (ALEX, "chief", 0))
    plays(table, (MARIO, "squaw", 0))
    assert cards_in(table, 0) == [
        (ALEX, "scout", True),
        (ALEX, "chief", False),
        (MARIO, "squaw", False),
    ]
    plays(table, (ALEX, "hunter-10", 1), (MARIO, "chief", 0))
    assert cards_in(table, 0)[-1] == (MARIO, "chief", True)
    assert cards_in(table, 0)[0] == (ALEX, "scout", False)


@pytest.mark.parametrize(
    ("opponent", "medicine_man_wins"),
    [("rain-maker", True), ("squaw", True), ("chief", False), ("scout", False)],
)
def test_the_medicine_man_example(opponent: HeroKind, medicine_man_wins: bool) -> None:
    # "The Medicine Man is able to defeat the Rain Maker and the Squaw, but is defeated by the
    # Chief and the Scout." Both orders of play give the same winner.
    duels: tuple[tuple[HeroKind, HeroKind], ...] = (
        ("medicine-man", opponent),
        (opponent, "medicine-man"),
    )
    for first, second in duels:
        table = two_player_hunt([first], [second])
        plays(table, (ALEX, first, 0), (MARIO, second, 0))
        face_up = [card for _, card, up in cards_in(table, 0) if up]
        assert face_up == (["medicine-man"] if medicine_man_wins else [opponent])

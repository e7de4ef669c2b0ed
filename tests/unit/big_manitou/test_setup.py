"""Set-up: the bag, the dealer, the booty of each hunt, who chooses how many cards."""

from __future__ import annotations

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.data import TILE_BAG, TILES_PER_GROUND
from referee.games.big_manitou.events import BagFilled, HuntBegan
from referee.games.big_manitou.options import Options
from referee.kernel import Chance, RuleViolation, Table

from .support import GAME_ID, SEED, new_table, state_of


def opening(seats: int, options: Options | None = None) -> list[object]:
    _, played = Table.open(GAME, options or Options(), seats, game_id=GAME_ID, seed=SEED)
    return [item.event for item in played[1:]]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_bag_is_the_canonical_tiles_shuffled_then_the_dealer_draws_the_front(
    seats: int,
) -> None:
    bag, hunt = opening(seats)[:2]
    chance = Chance.for_game(SEED, GAME_ID)
    expected = tuple(chance.shuffle(TILE_BAG))
    assert isinstance(bag, BagFilled) and bag.order == expected
    assert isinstance(hunt, HuntBegan)
    assert hunt.dealer == chance.uniform(seats)  # no first dealer given: drawn after the bag
    sizes = TILES_PER_GROUND[seats]
    assert tuple(len(ground) for ground in hunt.grounds) == sizes
    assert sum(hunt.grounds, ()) == expected[: sum(sizes)]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_oldest_player_given_as_an_option_deals_first(seats: int) -> None:
    hunt = opening(seats, Options(first_dealer=seats - 1))[1]
    assert isinstance(hunt, HuntBegan)
    assert (hunt.hunt, hunt.dealer, hunt.first_player) == (1, seats - 1, 0)


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [(2, (8, 7)), (3, (9, 8, 7)), (4, (9, 8, 8, 7)), (5, (9, 8, 8, 8, 7))],
)
def test_the_first_player_chooses_most_and_the_dealer_seven(
    seats: int, sizes: tuple[int, ...]
) -> None:
    hunt = opening(seats, Options(first_dealer=seats - 1))[1]
    assert isinstance(hunt, HuntBegan)
    assert hunt.cards_to_choose == sizes


def test_everyone_chooses_at_once_when_the_game_opens() -> None:
    table = new_table(4)
    assert table.to_act() == {0, 1, 2, 3}
    assert GAME.view(state_of(table), 0).phase == "choosing"


def test_the_state_starts_with_every_tile_accounted_for() -> None:
    state = state_of(new_table(3))
    held = [tile for ground in state.grounds for tile in ground.tiles]
    assert sorted((*state.bag, *held)) == sorted(TILE_BAG)


@pytest.mark.parametrize("first_dealer", [-1, 3, 7])
def test_a_first_dealer_outside_the_table_is_refused(first_dealer: int) -> None:
    with pytest.raises(RuleViolation) as refusal:
        GAME.validate_options(Options(first_dealer=first_dealer), 3)
    assert refusal.value.rule_id == "big-manitou.first-dealer"


@pytest.mark.parametrize("seats", [1, 6])
def test_two_to_five_players(seats: int) -> None:
    with pytest.raises(RuleViolation) as refusal:
        new_table(seats)
    assert refusal.value.rule_id == "big-manitou.seat-count"

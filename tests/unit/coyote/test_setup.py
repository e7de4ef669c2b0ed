"""Set-up: options, seats, the shuffle from the canonical order, the first player, the deal."""

from __future__ import annotations

import pytest

from referee.games.coyote import GAME
from referee.games.coyote.data import DECK
from referee.games.coyote.events import CardDealt, DeckShuffled, RoundStarted
from referee.games.coyote.options import Options
from referee.games.coyote.state import State
from referee.kernel import Chance, RuleViolation, Table

from .support import state


def open_game(seats: int = 4, options: Options | None = None, seed: bytes = b"s") -> Table:
    table, _ = Table.open(GAME, options or Options(), seats, game_id="g", seed=seed)
    return table


def test_defaults_are_three_feathers_without_shaman() -> None:
    assert Options() == Options(feathers=3, shaman=False)
    assert state(open_game(5)).feathers == (3,) * 5


@pytest.mark.parametrize("feathers", [1, 2, 3, 4, 5])
def test_each_player_starts_with_the_chosen_feathers(feathers: int) -> None:
    assert state(open_game(4, Options(feathers=feathers))).feathers == (feathers,) * 4


@pytest.mark.parametrize("feathers", [0, 6, -1])
def test_feathers_outside_one_to_five_are_refused(feathers: int) -> None:
    with pytest.raises(RuleViolation) as refused:
        open_game(4, Options(feathers=feathers))
    assert refused.value.rule_id == "coyote.feathers"


@pytest.mark.parametrize("seats", [2, 7])
def test_three_to_six_players(seats: int) -> None:
    with pytest.raises(RuleViolation) as refused:
        open_game(seats)
    assert refused.value.rule_id == "coyote.seat-count"


@pytest.mark.parametrize("seats", [3, 6])
def test_setup_shuffles_the_canonical_deck_then_draws_the_first_player_then_deals(
    seats: int,
) -> None:
    _, played = Table.open(GAME, Options(), seats, game_id="game-7", seed=b"seed-7")
    events = [p.event for p in played[1:]]
    # Re-derived with the kernel's Chance from the seed: the canonical order, then uniform(seats).
    chance = Chance.for_game(b"seed-7", "game-7")
    order = tuple(chance.shuffle(DECK))
    starter = chance.uniform(seats)
    assert events[0] == DeckShuffled(reason="setup", size=36, order=order)
    assert events[1] == RoundStarted(round=1, starter=starter)
    # One card to each seat in seat order, from the top of the pile.
    assert events[2:] == [CardDealt(seat=seat, card=order[seat]) for seat in range(seats)]
    assert played[-1].chance_cursor == chance.cursor


def test_the_first_player_is_chosen_by_chance() -> None:
    starters = {state(open_game(4, seed=b"%d" % n)).starter for n in range(60)}
    assert starters == {0, 1, 2, 3}


def test_after_setup_each_seat_holds_one_card_and_the_starter_bids() -> None:
    table = open_game(5)
    after = state(table)
    assert all(len(hand) == 1 for hand in after.hands)
    assert len(after.draw_pile) == 31 and after.discard == ()
    assert table.to_act() == frozenset({after.starter})
    assert isinstance(after, State) and after.bids == ()

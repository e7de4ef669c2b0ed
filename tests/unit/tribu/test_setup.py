"""The opening (TR-2, TR-12): each player's leader face down, the first player drawn, five cards
dealt to each one at a time clockwise from the first player; everything else is the draw pile."""

from __future__ import annotations

import pytest

from referee.games.tribu import GAME
from referee.games.tribu.data import DECK, LEADERS
from referee.games.tribu.events import (
    ChallengeDealt,
    LeadersDrawn,
    TribuFirstPlayerDrawn,
    TurnStarted,
)
from referee.games.tribu.options import Options
from referee.games.tribu.stages import Stage, stage
from referee.kernel import Chance, RuleViolation, Table
from referee.kernel.piles import shuffled

from .support import SEED, state_of


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_opening_is_re_derived_from_the_seed(seats: int) -> None:
    table, played = Table.open(GAME, Options(), seats, game_id="opening", seed=SEED)
    events = [item.event for item in played[1:]]
    chance = Chance.for_game(SEED, "opening")
    leaders = tuple(chance.shuffle(LEADERS)[:seats])
    first = chance.uniform(seats)
    order = shuffled(chance, DECK, DECK)
    hands = tuple(tuple(order[(s - first) % seats : 5 * seats : seats]) for s in range(seats))
    assert events == [
        LeadersDrawn(leaders=leaders),
        TribuFirstPlayerDrawn(seat=first),
        ChallengeDealt(
            challenge=1,
            first_player=first,
            order=order,
            hands=hands,
            draw_pile_size=100 - 5 * seats,
        ),
        TurnStarted(seat=first, turn=1),
    ]
    state = state_of(table)
    assert [p.hand for p in state.players] == list(hands) and state.draw_pile == order[5 * seats :]
    assert len(set(leaders)) == seats
    assert stage(state) is Stage.START_OF_TURN and table.to_act() == {first}
    assert state.discard == () and state.played == ()


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_first_player() -> None:
    _, played = Table.open(GAME, Options(), 3, game_id="deal", seed=SEED)
    dealt = next(item.event for item in played if isinstance(item.event, ChallengeDealt))
    assert dealt.order is not None
    first = dealt.first_player
    for k in range(15):
        assert dealt.order[k] in dealt.hands[(first + k) % 3]  # type: ignore[operator]
        assert dealt.hands[(first + k) % 3][k // 3] == dealt.order[k]  # type: ignore[index]


def test_every_leader_and_first_player_turns_up_across_seeds() -> None:
    leaders, firsts = set(), set()
    for n in range(40):
        table, _ = Table.open(GAME, Options(), 4, game_id=f"g{n}", seed=bytes([n]) * 16)
        state = state_of(table)
        leaders.add(state.players[0].leader)
        firsts.add(state.first_player)
    assert leaders == set(LEADERS) and firsts == {0, 1, 2, 3}


def test_tribu_is_for_two_to_four_players() -> None:
    assert GAME.seat_counts == (2, 3, 4)
    for seats in (1, 5):
        with pytest.raises(RuleViolation):
            Table.open(GAME, Options(), seats, game_id="x", seed=SEED)

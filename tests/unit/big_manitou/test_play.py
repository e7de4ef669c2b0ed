"""Playing the cards: turns, draws, seven cards each, the cards left over."""

from __future__ import annotations

import pytest

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import Command, MoveHunter, Pass, PlayCard, TakeTiles
from referee.games.big_manitou.data import HUNTERS, CardKind
from referee.games.big_manitou.events import (
    CardPlayed,
    CardsDrawn,
    HuntEnded,
    LeatherThiefStruck,
    TurnSkipped,
)
from referee.games.big_manitou.stages import Stage, stage
from referee.kernel import NotYourTurn, RuleViolation, Table

from .support import act, cards_in, hunt_position, state_of

NINE: tuple[CardKind, ...] = HUNTERS[:9]


def three_player_hunt() -> Table:
    return hunt_position(3, {0: NINE, 1: HUNTERS[2:], 2: HUNTERS[:7]})


def test_the_player_left_of_the_dealer_starts_and_play_goes_clockwise() -> None:
    table = hunt_position(4, {}, dealer=1)
    order = []
    for _ in range(5):
        [seat] = table.to_act()
        order.append(seat)
        hand = state_of(table).players[seat].hand
        act(table, seat, PlayCard(card=hand[0], ground=0))
    assert order == [2, 3, 0, 1, 2]


def test_a_card_is_played_face_up_and_replaced_from_the_pile() -> None:
    table = three_player_hunt()
    events = act(table, 0, PlayCard(card="hunter-2", ground=1))
    assert events == [
        CardPlayed(seat=0, card="hunter-2", ground=1),
        CardsDrawn(seat=0, count=1, cards=("hunter-4",)),
    ]
    state = state_of(table)
    assert state.players[0].hand == ("hunter-1", "hunter-3", "hunter-4")
    assert cards_in(table, 1) == [(0, "hunter-2", True)]


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        (PlayCard(card="hunter-9", ground=0), "not-in-hand"),
        (PlayCard(card="chief", ground=0), "not-in-hand"),
        (PlayCard(card="hunter-1", ground=3), "no-such-ground"),
        (PlayCard(card="hunter-1", ground=-1), "no-such-ground"),
        (Pass(), "not-now"),
        (MoveHunter(card="hunter-1", ground=1), "not-now"),
        (TakeTiles(tiles=("totem",)), "not-now"),
    ],
)
def test_a_card_not_in_hand_or_a_wrong_command_is_refused(command: Command, rule: str) -> None:
    table = three_player_hunt()
    before = table.state
    with pytest.raises(RuleViolation) as refusal:
        act(table, 0, command)
    assert refusal.value.rule_id == f"big-manitou.{rule}"
    assert table.state == before


def test_only_the_player_whose_turn_it_is_may_play() -> None:
    table = three_player_hunt()
    with pytest.raises(NotYourTurn):
        act(table, 1, PlayCard(card="hunter-3", ground=0))


def play_seven_rounds(table: Table) -> list[object]:
    events: list[object] = []
    while stage(state_of(table)) is Stage.PLAYING:
        [seat] = table.to_act()
        hand = state_of(table).players[seat].hand
        events += act(table, seat, PlayCard(card=hand[0], ground=seat % 3))
    return events


def test_when_the_pile_runs_out_play_goes_on_from_the_hand_until_seven_cards_each() -> None:
    table = three_player_hunt()
    draws = {0: 0, 1: 0, 2: 0}
    for _ in range(20):
        [seat] = table.to_act()
        hand = state_of(table).players[seat].hand
        events = act(table, seat, PlayCard(card=hand[0], ground=0))
        draws[seat] += any(isinstance(e, CardsDrawn) for e in events)
    # 9 = 3 + 6 draws for the first player, 8 = 3 + 5, the dealer's 7 = 3 + 4.
    assert draws == {0: 6, 1: 5, 2: 4}
    state = state_of(table)
    assert [p.pile for p in state.players] == [(), (), ()]
    assert [len(p.hand) for p in state.players] == [2, 1, 1]
    assert table.to_act() == {2}  # the dealer's seventh card ends the play
    events = act(table, 2, PlayCard(card=state.players[2].hand[0], ground=0))
    assert not any(isinstance(e, CardsDrawn) for e in events)
    assert any(isinstance(e, LeatherThiefStruck) for e in events)


def test_the_unplayed_cards_go_back_under_the_tribe_card() -> None:
    table = three_player_hunt()
    events = play_seven_rounds(table)
    state = state_of(table)
    # Hunt 1 plays to its end by itself (no cylinders, forced picks) or waits for a pick.
    while not any(isinstance(e, HuntEnded) for e in events):
        [seat] = table.to_act()
        events += act(table, seat, GAME.legal_commands(state_of(table), seat)[0])
    state = state_of(table)
    assert state.hunt == 2 and stage(state) is Stage.CHOOSING
    assert [p.hand for p in state.players] == [(), (), ()]
    # Hunt 1 played seven cards each: those sit out hunt 2, the rest (unplayed included) do not.
    assert state.players[0].unavailable == HUNTERS[:7]


def test_hunter_values_count_under_later_cards() -> None:
    table = hunt_position(2, {0: (*HUNTERS[:2], "chief", *HUNTERS[2:7]), 1: HUNTERS[3:]})
    act(table, 0, PlayCard(card="hunter-1", ground=0))
    act(table, 1, PlayCard(card="hunter-4", ground=1))
    act(table, 0, PlayCard(card="chief", ground=0))
    act(table, 1, PlayCard(card="hunter-5", ground=1))
    act(table, 0, PlayCard(card="hunter-2", ground=0))
    assert cards_in(table, 0) == [(0, "hunter-1", True), (0, "chief", True), (0, "hunter-2", True)]
    assert GAME.view(state_of(table), 1).players[0].strength == 3


def test_a_player_who_holds_no_card_they_may_play_loses_the_turn() -> None:
    # Seat 1 (the dealer, 7 cards) chose only Heroes and keeps pairs face up in all three grounds.
    heroes: tuple[CardKind, ...] = (
        "chief",
        "squaw",
        "chief",
        "squaw",
        "scout",
        "medicine-man",
        "rain-maker",
    )
    table = hunt_position(2, {0: HUNTERS[:8], 1: heroes})
    for turn in range(6):
        act(table, 0, PlayCard(card=HUNTERS[turn], ground=0))
        hand = state_of(table).players[1].hand
        card = next(c for c in hand if c != "rain-maker" or turn >= 4)
        act(table, 1, PlayCard(card=card, ground=turn // 2))
    events = act(table, 0, PlayCard(card="hunter-7", ground=0))
    assert TurnSkipped(seat=1) in events
    assert events.index(TurnSkipped(seat=1)) == 1  # right after seat 0's seventh card
    state = state_of(table)
    assert state.players[1].hand == ("rain-maker",)
    assert stage(state) is not Stage.PLAYING


def test_a_single_possible_play_is_still_the_players_to_make() -> None:
    # Seat 1 holds two Chiefs, allowed only in ground 2: the referee waits for the play.
    heroes: tuple[CardKind, ...] = (
        "chief",
        "squaw",
        "squaw",
        "scout",
        "chief",
        "medicine-man",
        "rain-maker",
    )
    table = hunt_position(2, {0: HUNTERS[:8], 1: heroes})
    moves: list[tuple[CardKind, int]] = [("chief", 0), ("squaw", 0), ("squaw", 1), ("scout", 1)]
    for turn, (card, ground) in enumerate(moves):
        act(table, 0, PlayCard(card=HUNTERS[turn], ground=2))
        act(table, 1, PlayCard(card=card, ground=ground))
    act(table, 0, PlayCard(card="hunter-5", ground=2))
    state = state_of(table)
    assert state.players[1].hand == ("chief", "medicine-man", "rain-maker")
    assert table.to_act() == {1}

"""No seat is ever left without a move: Big Manitou's corners, built by hand, then played on.

Random play seldom meets them: a first player of hunt 4 with exactly the nine cards it must
choose, a hand of Heroes with every ground full of its own, a Totem holder whose last card may
go nowhere, a Horse holder with no Hunter out, victims of the Leather Thief with nothing or only
a cylinder's tile to pay, a hunt whose every pick and payment is forced, the bag's last tiles.
Each test builds the position (support.py), checks the contract there (`check_who_may_act`:
every seat named to act has a command, no other seat has one, and an unfinished game waits for
somebody), then plays on at random to the end of the game from fresh copies of it, the contract
checked at every step (tests/unit/corners.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import (
    ChooseCards,
    DiscardTile,
    MoveHunter,
    Pass,
    PlayCard,
    TakeTiles,
)
from referee.games.big_manitou.data import CARD_SET, HUNTERS, CardKind, TileKind
from referee.games.big_manitou.events import (
    CylinderPassed,
    EvaluationBegan,
    HuntBegan,
    HuntEnded,
    LeatherThiefStruck,
    Passed,
    TileDiscarded,
    TilesTaken,
    TurnSkipped,
)
from referee.games.big_manitou.flow import cards_to_choose
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.stages import Stage, stage
from referee.games.big_manitou.state import available
from referee.kernel import Table
from referee.kernel.piles import in_canonical_order
from tests.unit.corners import check_who_may_act, play_on, play_on_several

from .support import (
    GAME_ID,
    SEED,
    act,
    adjust,
    hold_tiles,
    hunt_position,
    pile_of,
    play_out,
    play_randomly_until,
    plays,
    random_command,
    scripted_hunt,
    seven,
    state_of,
)

GAMES = 5  # random continuations from each position

HEROES: tuple[CardKind, ...] = (
    "chief",
    "squaw",
    "chief",
    "squaw",
    "scout",
    "medicine-man",
    "rain-maker",
)


def legal(table: Table, seat: int) -> list[Any]:
    return list(GAME.legal_commands(state_of(table), seat))


def played_on(make_table: Callable[[], Table]) -> None:
    """The contract at the position, then on every step of random games from it to the end."""
    check_who_may_act(make_table())
    lengths = play_on_several(make_table, SEED, GAME_ID, games=GAMES)
    assert all(length > 0 for length in lengths)


def hunt_of(
    seats: int,
    moves: Mapping[int, Sequence[tuple[CardKind, int]]],
    *,
    options: Options | None = None,
    **kwargs: Any,
) -> Table:
    """A hunt about to be played (the last seat deals), each pile holding the cards of `moves`
    in time (`pile_of`); `kwargs` go to `hunt_position`."""
    dealer = seats - 1
    piles = {
        seat: pile_of(moves[seat], cards_to_choose(seat, dealer, seats)) for seat in range(seats)
    }
    return hunt_position(seats, piles, options=options, **kwargs)


# -- the choice of cards: hunt 4 from what hunt 3 left (S8, S10, S37, BM-4, BM-9, BM-R12) ----------


def after_an_eighth_card(options: Options | None = None) -> Table:
    """Four players: in hunt 3 seat 1 (8 cards) plays its seven and, holding the Totem, its
    eighth; then hunt 3 runs out at random. In hunt 4, the last, seat 1 is the first player, to
    choose nine cards from the nine it has left."""
    moves = {seat: seven() for seat in range(4)}
    table = hunt_of(4, moves, hunt=3, options=options)
    hold_tiles(table, {1: ("totem",)})
    adjust(table, totem_holder=1)
    play_out(table, moves)
    assert table.to_act() == {1}
    act(table, 1, PlayCard(card="hunter-8", ground=0))
    play_randomly_until(table, lambda state: state.hunt == 4, random.Random(3))
    return table


def the_last_chooser_with_nine_of_nine() -> Table:
    table = after_an_eighth_card()
    for seat in (0, 2, 3):
        act(table, seat, random_command(state_of(table), seat, random.Random(seat)))
    return table


def test_the_first_player_of_the_hunt_after_an_eighth_card_chooses_nine_of_nine() -> None:
    table = the_last_chooser_with_nine_of_nine()
    state = state_of(table)
    assert stage(state) is Stage.CHOOSING and state.first_player == 1
    assert len(state.players[1].unavailable) == 8 and state.cards_to_choose[1] == 9
    check_who_may_act(table)
    assert table.to_act() == {1}  # the others have chosen: seat 1 is the last one waited for
    assert legal(table, 1) == [ChooseCards(cards=available(state, 1))]
    played_on(the_last_chooser_with_nine_of_nine)


def random_cards_after_an_eighth_card() -> Table:
    return after_an_eighth_card(Options(random_cards=True))


def test_random_cards_give_the_first_player_after_an_eighth_card_all_nine_cards_left() -> None:
    table = random_cards_after_an_eighth_card()
    state = state_of(table)
    assert stage(state) is Stage.PLAYING and state.hunt == 4 and state.first_player == 1
    nine = in_canonical_order([card for card in CARD_SET if card not in HUNTERS[:8]], CARD_SET)
    assert state.chosen[1] == nine
    check_who_may_act(table)
    played_on(random_cards_after_an_eighth_card)


# -- hands that can go nowhere: BM-R4, S18, S43, BM-R12, BM-R13 ----------------------------------


def dealer_of_heroes_before_its_last_turn() -> Table:
    """Hunt 2 of two players: the dealer (seat 1) chose the seven Heroes and keeps two face up
    in every ground; it holds both cylinders. Seat 0 is about to play its seventh card."""
    table = hunt_position(2, {0: HUNTERS[:8], 1: HEROES}, hunt=2)
    hold_tiles(table, {1: ("totem", "horse")})
    adjust(table, totem_holder=1, horse_holder=1)
    for turn in range(6):
        act(table, 0, PlayCard(card=HUNTERS[turn], ground=0))
        hand = state_of(table).players[1].hand
        card = next(c for c in hand if c != "rain-maker" or turn >= 4)
        act(table, 1, PlayCard(card=card, ground=turn // 2))
    return table


def test_a_dealer_holding_only_heroes_it_may_not_place_loses_its_turn_and_both_privileges() -> None:
    table = dealer_of_heroes_before_its_last_turn()
    check_who_may_act(table)
    events = act(table, 0, PlayCard(card="hunter-7", ground=0))
    assert events[1] == TurnSkipped(seat=1)
    # Its last card, a Hero, can go nowhere (no eighth card) and it has no Hunter out (no
    # Horse move): the referee goes straight on to the Leather Thief.
    assert isinstance(events[2], LeatherThiefStruck)
    assert not any(isinstance(event, Passed) for event in events)
    assert state_of(table).players[1].hand == ("rain-maker",)
    check_who_may_act(table)
    played_on(dealer_of_heroes_before_its_last_turn)


def totem_holder_with_a_hero_it_may_not_place() -> Table:
    """Hunt 2 of two players: seat 0 (8 cards) plays a Hunter, then six Heroes in pairs into
    the three grounds, and keeps the Rain Maker; it holds both cylinders."""
    first: list[tuple[CardKind, int]] = [
        ("hunter-1", 0),
        ("chief", 0),
        ("chief", 0),
        ("squaw", 1),
        ("squaw", 1),
        ("scout", 2),
        ("medicine-man", 2),
    ]
    second: list[tuple[CardKind, int]] = [(hunter, 1) for hunter in HUNTERS[:7]]
    pile: tuple[CardKind, ...] = (*(card for card, _ in first), "rain-maker")
    table = hunt_position(2, {0: pile, 1: HUNTERS[:7]}, hunt=2)
    hold_tiles(table, {0: ("totem", "horse")})
    adjust(table, totem_holder=0, horse_holder=0)
    play_out(table, {0: first, 1: second})
    return table


def test_a_totem_holder_whose_last_card_may_go_nowhere_is_offered_only_the_horse() -> None:
    table = totem_holder_with_a_hero_it_may_not_place()
    state = state_of(table)
    assert state.players[0].hand == ("rain-maker",)
    assert stage(state) is Stage.HORSE_MOVE  # no eighth card (BM-R12)
    check_who_may_act(table)
    assert legal(table, 0) == [
        Pass(),
        MoveHunter(card="hunter-1", ground=1),
        MoveHunter(card="hunter-1", ground=2),
    ]
    played_on(totem_holder_with_a_hero_it_may_not_place)


# -- the Leather Thief: S29, S30, BM-5, BM-R3, BM-R6, BM-R14 --------------------------------------


def dealer_with_the_totem_before_its_last_card() -> Table:
    """Hunt 2 of two players, equal strength: the dealer (seat 1) holds the Totem and only its
    tile; seat 0 holds nothing. Seat 1 is about to play its seventh and last card."""
    moves = {0: seven(), 1: seven()}
    table = hunt_of(2, moves, hunt=2)
    hold_tiles(table, {1: ("totem",)})
    adjust(table, totem_holder=1)
    for turn in range(6):
        plays(table, (0, HUNTERS[turn], 2), (1, HUNTERS[turn], 2))
    plays(table, (0, "hunter-7", 2))
    return table


def test_a_dealer_with_the_totem_has_no_eighth_card_and_pays_its_only_tile_to_the_thief() -> None:
    table = dealer_with_the_totem_before_its_last_card()
    check_who_may_act(table)
    assert state_of(table).players[1].hand == ("hunter-7",)  # its last card
    events = act(table, 1, PlayCard(card="hunter-7", ground=2))
    assert not any(isinstance(event, Passed) for event in events)  # no eighth card to offer
    assert LeatherThiefStruck(strengths=(28, 28), victims=(0, 1)) in events
    # Seat 0 has nothing to pay; seat 1 can only give its Totem, and the cylinder goes back to
    # the side of the table (BM-R3, BM-R6).
    assert [e for e in events if isinstance(e, TileDiscarded)] == [
        TileDiscarded(seat=1, tile="totem")
    ]
    assert CylinderPassed(cylinder="totem", seat=None) in events
    assert any(isinstance(event, EvaluationBegan) for event in events)
    check_who_may_act(table)
    played_on(dealer_with_the_totem_before_its_last_card)


def tied_victims_of_the_thief() -> Table:
    """Hunt 2 of three players, all of equal strength: seat 0 holds nothing, seat 1 the Horse
    and a Tomahawk (and the Horse's cylinder), seat 2 a Tepee, a Buffalo and a Totem."""
    table, _ = scripted_hunt(
        3,
        {0: seven(), 1: seven(), 2: seven()},
        hunt=2,
        holdings={1: ("horse", "tomahawk"), 2: ("tepee-1", "buffalo-2", "totem")},
        horse=1,
        totem=2,
    )
    assert table.to_act() == {1}  # the Horse holder's move; the Totem's dealer has no card
    act(table, 1, Pass())
    return table


def test_tied_victims_pay_at_once_one_without_tiles_one_without_herds() -> None:
    table = tied_victims_of_the_thief()
    assert stage(state_of(table)) is Stage.PENALTY
    check_who_may_act(table)
    assert table.to_act() == {1, 2}  # seat 0 owes nothing: it holds no tile
    assert legal(table, 1) == [DiscardTile(tile="horse"), DiscardTile(tile="tomahawk")]
    assert legal(table, 2) == [DiscardTile(tile="tepee-1"), DiscardTile(tile="buffalo-2")]
    played_on(tied_victims_of_the_thief)


FIRST_HUNT_GROUNDS: tuple[tuple[TileKind, ...], ...] = (
    ("tepee-1", "tepee-1", "buffalo-1", "buffalo-1"),
    ("tepee-2", "buffalo-2", "horse", "tomahawk"),
    ("totem", "totem", "totem"),
)


def first_hunt_pick_before_the_thief() -> Table:
    """Hunt 1 of three players, all of equal strength: seats 0 and 1 tie in ground 0 (nobody
    picks there), seat 2 alone hunts ground 1, nobody ground 2. Seat 2 is to pick two tiles."""
    moves = {
        0: [(hunter, 0) for hunter in HUNTERS[:7]],
        1: [(hunter, 0) for hunter in HUNTERS[:7]],
        2: [(hunter, 1) for hunter in HUNTERS[:7]],
    }
    table, _ = scripted_hunt(3, moves, grounds=FIRST_HUNT_GROUNDS)
    return table


def test_in_the_first_hunt_only_the_victim_who_won_tiles_pays_after_the_evaluation() -> None:
    table = first_hunt_pick_before_the_thief()
    check_who_may_act(table)
    assert table.to_act() == {2} and stage(state_of(table)) is Stage.PICKING
    act(table, 2, TakeTiles(tiles=("tepee-2", "buffalo-2")))
    state = state_of(table)
    assert stage(state) is Stage.PENALTY and state.thief_victims == (0, 1, 2)
    check_who_may_act(table)
    assert table.to_act() == {2}  # seats 0 and 1 won nothing in this hunt: they pay nothing
    assert legal(table, 2) == [DiscardTile(tile="tepee-2"), DiscardTile(tile="buffalo-2")]
    played_on(first_hunt_pick_before_the_thief)


FORCED_GROUNDS: tuple[tuple[TileKind, ...], ...] = (
    ("tepee-1",) * 4,
    ("buffalo-1",) * 3,
    ("totem",) * 3,
)


def every_pick_forced_before_the_last_card() -> Table:
    """Hunt 1 of two players: seat 0 hunts ground 0 (four alike tiles), seat 1 ground 1 (three
    alike), nobody ground 2; equal strength. Seat 1 is about to play its seventh card."""
    moves = {
        0: [(hunter, 0) for hunter in HUNTERS[:7]],
        1: [(hunter, 1) for hunter in HUNTERS[:7]],
    }
    table = hunt_of(2, moves, grounds=FORCED_GROUNDS)
    for turn in range(6):
        plays(table, (0, HUNTERS[turn], 0), (1, HUNTERS[turn], 1))
    plays(table, (0, "hunter-7", 0))
    return table


def test_a_hunt_whose_every_pick_and_payment_is_forced_goes_on_to_the_next_choice() -> None:
    table = every_pick_forced_before_the_last_card()
    check_who_may_act(table)
    events = act(table, 1, PlayCard(card="hunter-7", ground=1))
    assert [e for e in events if isinstance(e, TilesTaken)] == [
        TilesTaken(seat=0, ground=0, tiles=("tepee-1", "tepee-1")),
        TilesTaken(seat=1, ground=1, tiles=("buffalo-1", "buffalo-1")),
    ]
    assert [e for e in events if isinstance(e, TileDiscarded)] == [
        TileDiscarded(seat=0, tile="tepee-1"),
        TileDiscarded(seat=1, tile="buffalo-1"),
    ]
    assert HuntEnded(hunt=1) in events and isinstance(events[-1], HuntBegan)
    assert stage(state_of(table)) is Stage.CHOOSING and table.to_act() == {0, 1}
    check_who_may_act(table)
    played_on(every_pick_forced_before_the_last_card)


# -- the last hunt: S5, BM-1 ---------------------------------------------------------------------


def five_players_before_the_last_hunt() -> Table:
    """Hunt 4 of five players about to be played, the bag down to the last hunt's twelve."""
    table = hunt_position(5, {}, hunt=4)
    bag = state_of(table).bag
    adjust(table, bag=bag[:12], removed=bag[12:])
    return table


def test_the_last_hunt_of_five_players_draws_the_bags_last_tiles_and_ends_the_game() -> None:
    table = five_players_before_the_last_hunt()
    check_who_may_act(table)
    play_on(table, SEED, GAME_ID, random.Random(7))
    state = state_of(table)
    assert state.finished and state.hunt == 5 and state.bag == ()
    assert table.to_act() == frozenset()
    assert all(legal(table, seat) == [] for seat in range(5))
    played_on(five_players_before_the_last_hunt)

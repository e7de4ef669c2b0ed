"""Hidden information: hands, the pile, the unused face of specialty cards (Common Question 3)."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import PlayLand, PlaySpecialty
from referee.games.manitou_island.events import (
    GameDealt,
    GameEnded,
    LandDrawn,
    LandPlayed,
    SpecialtyPlayed,
)
from referee.games.manitou_island.state import State
from referee.kernel import Codec
from referee.kernel.hexgrid import Hex

from .support import day, land, night, open_game, play, position, state_of

HAND = (day(3), day(5, 1), night(5), night(3), night(7))
OTHER = (day(1), night(1), day(8), night(8), day(10))


def test_a_seat_sees_its_own_hand_only_and_nobody_sees_the_pile() -> None:
    table, _ = open_game(2)
    state = table.state
    assert isinstance(state, State)
    for viewer in (0, 1):
        view = GAME.view(state, viewer)
        own = view.seats[viewer].hand
        assert own is not None and tuple(c.id for c in own) == state.hands[viewer]
        assert view.seats[1 - viewer].hand is None
        assert view.seats[1 - viewer].hand_size == 5
        assert view.pile is None and view.pile_size == 30
    spectator = GAME.view(state, None)
    assert all(seat.hand is None for seat in spectator.seats) and spectator.pile is None


def test_teammates_do_not_see_each_others_hands() -> None:
    # "Teammates may not confer with one another during the game."
    table, _ = open_game(4)
    view = GAME.view(state_of(table), 0)
    assert view.seats[0].hand is not None
    assert view.seats[1].hand is None and view.seats[2].hand is None and view.seats[3].hand is None


def test_the_deal_is_redacted_to_the_seats_own_hand() -> None:
    _, played = open_game(4)
    deal = played[-1].event
    assert isinstance(deal, GameDealt) and deal.pile is not None
    for viewer in range(4):
        seen = GAME.redact(deal, viewer)
        assert seen.hands[viewer] == deal.hands[viewer]
        assert all(seen.hands[s] is None for s in range(4) if s != viewer)
        assert seen.pile is None and seen.pile_size == len(deal.pile)
    spectator = GAME.redact(deal, None)
    assert spectator.hands == (None,) * 4 and spectator.pile is None


def test_a_draw_is_seen_by_the_drawing_seat_only() -> None:
    drawn = LandDrawn(seat=1, card=17)
    assert GAME.redact(drawn, 1) == drawn
    assert GAME.redact(drawn, 0).card is None and GAME.redact(drawn, 3).card is None
    assert GAME.redact(drawn, None).card is None
    played = LandPlayed(seat=1, card=17, at=Hex(1, 0), flooded=())
    assert GAME.redact(played, 0) == played  # a land card is played face up


def test_common_question_3_specialty_cards_and_their_reverse_side_stay_hidden() -> None:
    hands = (HAND, OTHER, (day(2),), (night(2),))
    table = position([land(1, 0, day(5))], hands=hands, seats=4)
    events = play(table, 0, PlaySpecialty(card="bridge-whirlpool", face="whirlpool", at=Hex(2, 0)))
    (played,) = events
    assert isinstance(played, SpecialtyPlayed)
    # The team (seat 0 and its teammate seat 2) knows the card; the other team only the face.
    assert GAME.redact(played, 0) == played and GAME.redact(played, 2) == played
    for outsider in (1, 3, None):
        seen = GAME.redact(played, outsider)
        assert seen.card is None and seen.face == "whirlpool" and seen.at == Hex(2, 0)
    mine, theirs, spectator = (
        GAME.view(state_of(table), 2),
        GAME.view(state_of(table), 1),
        GAME.view(state_of(table), None),
    )
    assert mine.teams[0].specialty_cards is not None
    used = [c for c in mine.teams[0].specialty_cards if c.played_face is not None]
    assert [(c.id, c.played_face) for c in used] == [("bridge-whirlpool", "whirlpool")]
    assert theirs.teams[0].specialty_cards is None and theirs.teams[0].specialty_left == 2
    assert theirs.teams[1].specialty_cards is not None  # its own set
    assert spectator.teams[0].specialty_cards is None and spectator.teams[1].specialty_cards is None
    for card_id in ("whirlpool-lighthouse", "lighthouse-bridge", "bridge-whirlpool"):
        assert card_id.encode() not in msgspec.json.encode(theirs.teams[0])
    assert b"bridge-whirlpool" not in msgspec.json.encode(GAME.redact(played, 1))


def test_everything_is_shown_once_the_game_is_over() -> None:
    hands = ((), (night(1),))
    cells = [land(1, 0, day(5))]
    table = position(cells, hands=hands, pile=(), turn_seat=1)
    events = play(table, 1, PlayLand(card=night(1), at=Hex(-1, 0)))
    closing = events[-1]
    assert isinstance(closing, GameEnded) and closing.match_over
    state = table.state
    assert isinstance(state, State)
    view = GAME.view(state, None)
    assert view.stage == "over"
    assert all(seat.hand is not None for seat in view.seats)
    assert view.pile is not None
    assert all(team.specialty_cards is not None for team in view.teams)
    assert GAME.redact(closing, None) == closing  # the end reveals what was still hidden
    assert closing.specialty == state.specialty


def test_redacted_events_still_encode_and_decode() -> None:
    codec = Codec(GAME)
    _, played = open_game(2)
    for item in played[1:]:
        for viewer in (0, 1, None):
            event: Any = item.event
            seen = GAME.redact(event, viewer)
            assert codec.decode_event(codec.encode(seen)) == seen


def test_the_view_lists_islands_and_the_turn() -> None:
    cells = [land(1, 0, day(5)), land(2, 0, day(4)), land(-1, 0, night(6))]
    table = position(cells, hands=(HAND, OTHER))
    view = GAME.view(state_of(table), 0)
    assert [(i.colour, i.population) for i in view.islands] == [("day", 9), ("night", 6)]
    assert view.turn_seat == 0 and view.stage == "start-of-turn"
    assert view.teams[0].colour == "day" and view.teams[1].colour == "night"
    assert msgspec.json.decode(msgspec.json.encode(view), type=GAME.view_type) == view

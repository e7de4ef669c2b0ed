"""Hidden information: every seat sees the other heads and never its own, a spectator sees no
head card, the draw pile's order is secret; a challenge reveals; a finished game shows all."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Challenge
from referee.games.coyote.events import CardDealt, Challenged, DeckShuffled
from referee.games.coyote.legal import legal_command_space
from referee.games.coyote.options import Options
from referee.games.coyote.state import State
from referee.kernel import Seat, Table

from .support import pick, play, position, random_command, state
from .test_challenge import challenge_bid


def test_a_seat_sees_every_other_head_and_not_its_own() -> None:
    table = position(["5", "3", "2"])
    cards = pick("5", "3", "2")
    for viewer in range(3):
        seen = [seat_view.cards for seat_view in GAME.view(state(table), viewer).seats]
        assert seen == [(None,) if seat == viewer else (card,) for seat, card in enumerate(cards)]


def test_a_spectator_sees_no_head_card() -> None:
    table = position(["5", "3", "2"])
    assert [s.cards for s in GAME.view(state(table), None).seats] == [(None,)] * 3


def test_the_draw_pile_order_is_secret_and_its_size_public() -> None:
    table = position(["5", "3", "2"])
    for viewer in (0, 1, 2, None):
        shown = GAME.view(state(table), viewer)
        assert shown.draw_pile is None and shown.draw_pile_size == 33


def test_a_deal_is_hidden_from_its_receiver_and_from_spectators() -> None:
    (card,) = pick("20")
    dealt = CardDealt(seat=1, card=card)
    assert GAME.redact(dealt, 1) == CardDealt(seat=1, card=None)
    assert GAME.redact(dealt, None) == CardDealt(seat=1, card=None)
    assert GAME.redact(dealt, 0) == GAME.redact(dealt, 2) == dealt


def test_a_shuffle_shows_its_size_and_no_order() -> None:
    shuffle = DeckShuffled(reason="moon", size=2, order=tuple(pick("1", "2")))
    for viewer in (0, 5, None):
        assert GAME.redact(shuffle, viewer) == DeckShuffled(reason="moon", size=2, order=None)


def test_a_challenge_reveals_every_card_to_everyone() -> None:
    table = position(["5", "3", "2"])
    play(table, 0, Bid(number=4))
    challenged = play(table, 1, Challenge())[0]
    assert isinstance(challenged, Challenged)
    for viewer in (0, 1, 2, None):
        assert GAME.redact(challenged, viewer) == challenged
        last = GAME.view(state(table), viewer).last_round
        assert last is not None and last.hands == challenged.hands


def test_a_finished_game_shows_everything_to_everyone() -> None:
    table = position(["5", "3", "2"], feathers=1)
    challenge_bid(table, 99)
    challenge_bid(table, 99)
    assert table.outcome().finished
    views = [msgspec.structs.replace(GAME.view(state(table), v), viewer=None) for v in (0, 1, 2)]
    spectator = GAME.view(state(table), None)
    assert views == [spectator] * 3
    assert spectator.draw_pile == state(table).draw_pile


def hide_differently(state: State, viewer: Seat | None, rng: random.Random) -> State:
    """The same position except for what `viewer` cannot see: its own cards (a spectator: all
    head cards) and the draw pile, dealt out again in another order."""
    seats = range(state.seats) if viewer is None else [viewer]
    hidden = [card for seat in seats for card in state.hands[seat]] + list(state.draw_pile)
    rng.shuffle(hidden)
    hands = list(state.hands)
    for seat in seats:
        size = len(hands[seat])
        hands[seat], hidden = tuple(hidden[:size]), hidden[size:]
    return msgspec.structs.replace(state, hands=tuple(hands), draw_pile=tuple(hidden))


@pytest.mark.parametrize("shaman", [False, True])
def test_no_view_depends_on_what_its_viewer_cannot_see(shaman: bool) -> None:
    """Whatever the hidden cards are, the view is the same: nothing of them leaks."""
    rng = random.Random(5)
    for game in range(20):
        table, _ = Table.open(
            GAME, Options(shaman=shaman), 3 + game % 4, game_id="v", seed=b"v%d" % game
        )
        while not table.outcome().finished:
            now = state(table)
            for viewer in [*range(now.seats), None]:
                for _ in range(2):
                    other = hide_differently(now, viewer, rng)
                    assert GAME.view(other, viewer) == GAME.view(now, viewer)
            (seat,) = table.to_act()
            command = random_command(legal_command_space(state(table), seat), rng)
            table.play(seat, command, table.chance_for(b"v%d" % game, "v"))

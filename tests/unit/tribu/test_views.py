"""What each seat and each spectator may see (TR-2, TR-9; the sections ACTIVE CARD and TRIBE
LEADER BIG-CARDS): hands, active cards, unrevealed leaders and the draw pile's order never
reach anyone else while the game runs; the table, the discard pile's top and every card turned
in play are public; once the game is over, everything is."""

from __future__ import annotations

import msgspec

from referee.games.tribu import GAME
from referee.games.tribu.commands import Activate, Discard, Draw, SwapActive
from referee.games.tribu.events import (
    ActiveSwapped,
    CardActivated,
    CardDrawn,
    ChainEliminated,
    ChallengeDealt,
    DrawPileRebuilt,
    LeadersDrawn,
)
from referee.games.tribu.options import Options
from referee.games.tribu.state import Chain
from referee.games.tribu.views import TribuView
from referee.kernel import Table

from .support import act, chain, position, state_of

HAND = ["wolf", "statue-red", "horse-blue", "block", "feathers-of-strength"]


def seen(table: object, viewer: int | None) -> TribuView:
    return GAME.view(state_of(table), viewer)  # type: ignore[arg-type]


def test_a_seat_sees_its_own_hand_active_cards_and_leader_only() -> None:
    chains = {
        0: [chain("shaman", "statue-red", active="wolf")],
        1: [chain("hunter", active="bison")],
    }
    table = position(hands={0: HAND}, chains=chains, leaders=["shaman", "hunter"])
    mine, theirs = seen(table, 0).players
    assert mine.hand == tuple(HAND) and mine.leader == "shaman"
    assert mine.chains[0].active == "wolf" and mine.chains[0].has_active
    assert theirs.hand is None and theirs.hand_size == 5 and theirs.leader is None
    assert theirs.chains[0].active is None and theirs.chains[0].has_active
    assert theirs.chains[0].character == "hunter"  # the table is public


def test_a_spectator_sees_the_table_and_no_secret() -> None:
    chains = {0: [chain("shaman", "statue-red", active="wolf")]}
    table = position(hands={0: HAND}, chains=chains, discard=["totem", "bison"])
    view = seen(table, None)
    assert all(p.hand is None and p.leader is None for p in view.players)
    assert view.players[0].chains[0].active is None
    assert view.draw_pile is None and view.draw_pile_size == len(state_of(table).draw_pile)
    assert view.discard_top == "totem" and view.discard_size == 2


def test_a_revealed_leader_is_shown_to_everyone() -> None:
    table = position(leaders=["shaman", "hunter"], revealed=[1])
    assert seen(table, 0).players[1].leader == "hunter"
    assert seen(table, None).players[0].leader is None


def test_the_opening_shows_each_seat_its_own_leader_and_hand_only() -> None:
    _, played = Table.open(GAME, Options(), 3, game_id="redact", seed=b"redact-seed-0123")
    leaders = next(item.event for item in played if isinstance(item.event, LeadersDrawn))
    dealt = next(item.event for item in played if isinstance(item.event, ChallengeDealt))
    for viewer in (0, 1, 2, None):
        shown = GAME.redact(leaders, viewer)
        assert [leader is not None for leader in shown.leaders] == [s == viewer for s in range(3)]
        shown = GAME.redact(dealt, viewer)
        assert shown.order is None
        assert [hand is not None for hand in shown.hands] == [s == viewer for s in range(3)]


def test_events_are_redacted_for_everyone_but_their_owner() -> None:
    drawn = CardDrawn(seat=0, source="draw-pile", card="wolf")
    assert GAME.redact(drawn, 0) == drawn and GAME.redact(drawn, 1).card is None
    from_discard = CardDrawn(seat=0, source="discard-pile", card="horse-red")
    assert GAME.redact(from_discard, None) == from_discard  # the top was public
    activated = CardActivated(seat=0, chain="shaman", card="wolf")
    assert GAME.redact(activated, 1).card is None and GAME.redact(activated, 0) == activated
    swapped = ActiveSwapped(seat=0, chain="shaman", card="wolf", returned="bison")
    assert (GAME.redact(swapped, None).card, GAME.redact(swapped, None).returned) == (None, None)
    gone = ChainEliminated(seat=0, chain="elder", active="wolf", had_active=True)
    assert GAME.redact(gone, 2).active is None and GAME.redact(gone, 2).had_active
    rebuilt = DrawPileRebuilt(rebuild=1, order=("wolf",), size=1)
    assert GAME.redact(rebuilt, 0).order is None


def test_activating_and_swapping_show_others_only_that_a_card_is_active() -> None:
    table = position(hands={0: HAND}, chains={0: [Chain(character="shaman", fresh=False)]})
    act(table, 0, Draw())
    before = msgspec.json.encode(seen(table, 1))
    events = act(table, 0, Activate(card="wolf", chain="shaman"))
    assert GAME.redact(events[0], 1).card is None
    assert seen(table, 1).players[0].chains[0].has_active and before != msgspec.json.encode(
        seen(table, 1)
    )
    act(table, 1, Draw())
    act(table, 1, Discard(card=state_of(table).players[1].hand[0]))
    act(table, 0, Draw())
    events = act(table, 0, SwapActive(chain="shaman", card="feathers-of-strength"))
    assert GAME.redact(events[0], None).card is None
    # The card taken back (TR-R14: not to be placed this turn) is its owner's to know only.
    assert seen(table, 0).returned == "wolf"
    assert seen(table, 1).returned is None and seen(table, None).returned is None


def test_once_the_game_is_over_everything_is_shown() -> None:
    table = position(hands={0: HAND}, chains={0: [chain("shaman", active="wolf")]})
    table.state = msgspec.structs.replace(state_of(table), finished=True, step="over")
    view = seen(table, None)
    assert view.players[0].hand == tuple(HAND) and view.players[0].leader == "shaman"
    assert view.players[0].chains[0].active == "wolf" and view.draw_pile is not None

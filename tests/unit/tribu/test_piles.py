"""The draw pile, the discard pile and the played-cards pile (the section DECK OF CARDS; TR-8,
TR-10, TR-11)."""

from __future__ import annotations

import pytest

from referee.games.tribu import GAME
from referee.games.tribu.commands import Attack, Discard, Draw, PassDefence
from referee.games.tribu.data import DECK
from referee.games.tribu.events import CardDrawn, ChallengeScored, DrawPileRebuilt
from referee.kernel import Chance, RuleViolation
from referee.kernel.piles import in_canonical_order

from .support import GAME_ID, SEED, act, chain, legal, position, refused, state_of

HAND = ["wolf", "bison", "block", "steal", "feathers-of-strength"]


def test_an_empty_draw_pile_is_rebuilt_from_the_discard_pile_but_its_top_card() -> None:
    discard = ["drum-red", "flag-blue", "canoe-red", "horse-red"]
    table = position(
        hands={0: HAND}, draw_pile=[], discard=discard, played=["draw-three"], rest_to="played"
    )
    cursor = table.chance_cursor
    events = act(table, 0, Draw())
    order = Chance.for_game(SEED, GAME_ID, cursor=cursor).shuffle(
        in_canonical_order(discard[1:], DECK)
    )
    assert events == [
        DrawPileRebuilt(rebuild=1, order=tuple(order), size=3),
        CardDrawn(seat=0, source="draw-pile", card=order[0]),
    ]
    state = state_of(table)
    assert state.discard == ("drum-red",) and state.draw_pile == tuple(order[1:])
    assert state.rebuilds == 1 and state.played[0] == "draw-three"  # never shuffled back


def test_no_rebuild_from_a_discard_pile_of_one_card() -> None:
    table = position(hands={0: HAND}, draw_pile=[], discard=["drum-red"], rest_to="played")
    refused(table, 0, Draw(), "draw-pile-empty")
    assert legal(table, 0) == [Draw(source="discard-pile")]


def test_discards_go_on_top_and_lost_cards_under_the_pile() -> None:
    table = position(hands={0: HAND}, discard=["totem", "statue-red"])
    act(table, 0, Draw())
    act(table, 0, Discard(card="block"))
    assert state_of(table).discard[:3] == ("block", "totem", "statue-red")
    # Destroyed vases and used active cards go under it: see test_attacks and test_chains.


def test_the_fifth_rebuild_ends_the_challenge_at_the_end_of_the_turn() -> None:
    discard = ["drum-red", "flag-blue", "canoe-red"]
    table = position(hands={0: HAND}, draw_pile=[], discard=discard, rebuilds=4)
    act(table, 0, Draw())
    assert state_of(table).rebuilds == 5 and state_of(table).challenge == 1
    events = act(table, 0, Discard(card="wolf"))
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert scored.reason == "rebuilds" and scored.closer is None
    assert all(player.hostile == 0 for player in scored.players)


def test_no_diorama_left_in_the_draw_and_discard_piles_ends_the_challenge() -> None:
    table = position(
        hands={0: HAND}, draw_pile=["wolf"], discard=["bison", "block"], rest_to="played"
    )
    act(table, 0, Draw())
    events = act(table, 0, Discard(card="wolf"))
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert scored.reason == "no-diorama" and scored.closer is None


def test_a_card_put_under_the_pile_cannot_be_taken_even_on_top() -> None:
    # TR-R13: the pile is empty; a Wolf's destroyed vase and the Wolf go under it, so the vase
    # lies on top. Only discarded cards may be taken: it may not.
    chains = {0: [chain("shaman", active="wolf")], 1: [chain("warrior", "horse-red")]}
    table = position(hands={0: HAND}, chains=chains)
    assert state_of(table).discard == ()
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    act(table, 1, PassDefence())
    assert state_of(table).discard == ("horse-red", "wolf")
    assert Draw(source="discard-pile") not in legal(table, 1)
    refused(table, 1, Draw(source="discard-pile"), "discard-top-not-diorama")
    with pytest.raises(RuleViolation, match=r"put under it, not discarded.*ruling TR-14"):
        act(table, 1, Draw(source="discard-pile"))  # the message names the ruling (TR-14)
    view = GAME.view(state_of(table), None)
    assert view.discard_top == "horse-red" and not view.discard_top_takeable


def test_an_unknown_pile_is_refused() -> None:
    table = position(hands={0: HAND})
    refused(table, 0, Draw(source="played-pile"), "no-such-pile")  # type: ignore[arg-type]

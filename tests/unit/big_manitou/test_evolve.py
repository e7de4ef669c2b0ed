"""`evolve` folds only what the bag, the piles and the grounds give: a stream from an untrusted
bundle that carries a forged draw (a tile or card that is not at the front of its bag or pile,
a shuffle that does not hold exactly its cards, a count that is not the rules') is refused
(ValueError), never folded into a state no game can reach. Each test also folds the real event,
to show that only the forgery is refused."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from api.bundle import Bundle, BundleEvent, encode_bundle, read_bundle
from api.verify import AuditReport, CheckResult, verify_file
from eventstore.chain import GENESIS_HASH, event_hash
from referee.games import REGISTRY
from referee.games.big_manitou import GAME
from referee.games.big_manitou.data import CARD_SET, HUNTERS, TILE_BAG, CardKind, TileKind
from referee.games.big_manitou.events import (
    BagFilled,
    CardsChosen,
    CardsDrawn,
    GroundClosed,
    HuntBegan,
    HunterMoved,
    PileShuffled,
    TilesTaken,
)
from referee.games.big_manitou.flow import next_hunt
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.state import State, with_player
from referee.kernel import Chance, Codec, NoChance, Played, Table

from .support import hunt_position, plays, scripted_hunt, seven, state_of

# Two players, seat 1 deals: seat 0 (the first player) chooses eight cards, seat 1 seven.
OPTIONS = Options(first_dealer=1)
BAG: tuple[TileKind, ...] = tuple(
    Chance(hashlib.sha256(b"big-manitou evolve").digest()).shuffle(TILE_BAG)
)
EIGHT: tuple[CardKind, ...] = (*HUNTERS[:6], "chief", "squaw")
SEVEN: tuple[CardKind, ...] = HUNTERS[3:]
ORDER: tuple[CardKind, ...] = ("squaw", *reversed(HUNTERS[:6]), "chief")  # EIGHT, shuffled
CORPUS = Path(__file__).parents[2] / "corpus" / "games" / "big-manitou-2.json"


def fold(state: State, *events: Any) -> State:
    """The state with `events` folded, as the replay of a bundle folds them."""
    for event in events:
        state = GAME.evolve(state, event)
    return state


def bagged() -> State:
    return fold(GAME.initial_state(OPTIONS, 2), BagFilled(order=BAG))


def hunting() -> tuple[State, HuntBegan]:
    """The first hunt begun (the players to choose), and the event that began it."""
    state = bagged()
    [began] = next_hunt(state, NoChance())
    assert isinstance(began, HuntBegan)
    return fold(state, began), began


def chosen() -> State:
    """Both choices in: the piles are to be shuffled."""
    state, _ = hunting()
    return fold(state, CardsChosen(seat=0, cards=EIGHT), CardsChosen(seat=1, cards=SEVEN))


def refused(state: State, event: Any, words: str = "") -> None:
    with pytest.raises(ValueError, match=words):
        GAME.evolve(state, event)


# -- the bag and the grounds ------------------------------------------------------------------


def test_the_bag_is_filled_once_with_exactly_the_sixty_tiles() -> None:
    fresh = GAME.initial_state(OPTIONS, 2)
    assert fold(fresh, BagFilled(order=BAG)).bag == BAG
    refused(fresh, BagFilled(order=("totem", *BAG[1:])), "the 60 tiles")  # a ninth Totem
    refused(fresh, BagFilled(order=BAG[:-1]), "the 60 tiles")  # a tile short
    refused(fresh, BagFilled(order=(*BAG, "horse")), "the 60 tiles")  # one too many
    refused(fresh, BagFilled(order=None), "redacted")
    refused(bagged(), BagFilled(order=BAG), "once")  # a second bag


def test_a_hunt_draws_its_grounds_from_the_front_of_the_bag() -> None:
    state = bagged()
    _, began = hunting()
    assert began.grounds == (BAG[:4], BAG[4:7], BAG[7:10])
    assert fold(state, began).bag == BAG[10:]

    def forged(**changes: Any) -> HuntBegan:
        event = msgspec.structs.replace(began, **changes)
        assert event != began
        return event

    below = forged(grounds=(BAG[1:5], BAG[5:8], BAG[8:11]))  # each tile one below the front
    refused(state, below, "front of the bag")
    other = next(tile for tile in TILE_BAG if tile != BAG[0])  # not the tile at the front
    refused(state, forged(grounds=((other, *BAG[1:4]), BAG[4:7], BAG[7:10])), "front of the bag")
    four_each = forged(grounds=(BAG[:4], BAG[4:8], BAG[8:12]))  # the front, but 4/4/4 for two
    refused(state, four_each, "4/3/3")
    refused(state, forged(cards_to_choose=(17, 17)), "cards to choose")
    refused(state, forged(first_player=1), "left")
    refused(state, forged(dealer=2, first_player=1), "seat")
    refused(fold(state, began), began, "ended")  # a second hunt while the first goes on


# -- the choice, the piles and the draws ------------------------------------------------------


def test_a_choice_takes_the_cards_the_seat_may_choose_and_as_many_as_the_hunt_says() -> None:
    state, _ = hunting()
    assert fold(state, CardsChosen(seat=0, cards=EIGHT)).chosen == (EIGHT, None)
    refused(state, CardsChosen(seat=0, cards=HUNTERS[:9]), "8 cards")  # the dealer's count
    refused(state, CardsChosen(seat=1, cards=HUNTERS[:8]), "7 cards")  # the first player's
    three_chiefs: tuple[CardKind, ...] = (*HUNTERS[:5], "chief", "chief", "chief")  # two
    refused(state, CardsChosen(seat=0, cards=three_chiefs), "may not choose")
    resting = with_player(state, 0, unavailable=("hunter-1", "squaw"))  # played in hunt 1
    refused(resting, CardsChosen(seat=0, cards=EIGHT), "may not choose")
    refused(state, CardsChosen(seat=0, cards=None), "redacted")
    refused(bagged(), CardsChosen(seat=0, cards=EIGHT), "hunt")  # no hunt begun


def test_a_pile_is_shuffled_from_exactly_the_cards_chosen() -> None:
    state, order = chosen(), ORDER
    assert fold(state, PileShuffled(seat=0, order=order)).players[0].pile == order
    refused(state, PileShuffled(seat=0, order=("hunter-10", *order[1:])), "cards chosen")
    refused(state, PileShuffled(seat=0, order=order[:-1]), "cards chosen")  # a card kept back
    refused(state, PileShuffled(seat=0, order=(*order[:-1], "squaw")), "cards chosen")  # twice
    refused(state, PileShuffled(seat=0, order=None), "redacted")
    shuffled = fold(state, PileShuffled(seat=0, order=order))
    refused(shuffled, PileShuffled(seat=0, order=order), "once")  # shuffled again
    half, _ = hunting()
    half = fold(half, CardsChosen(seat=0, cards=EIGHT))  # seat 1 is still choosing
    refused(half, PileShuffled(seat=0, order=order), "every choice")


def test_the_deals_draw_is_the_top_three_of_the_pile() -> None:
    order = ORDER
    state = fold(chosen(), PileShuffled(seat=0, order=order))
    dealt = fold(state, CardsDrawn(seat=0, count=3, cards=order[:3]))
    assert (dealt.players[0].hand, dealt.players[0].pile) == (order[:3], order[3:])
    refused(state, CardsDrawn(seat=0, count=3, cards=order[1:4]), "top of")  # one below
    refused(state, CardsDrawn(seat=0, count=3, cards=("scout", *order[1:3])), "top of")
    refused(state, CardsDrawn(seat=0, count=3, cards=order[:2]), "count")  # 3 said, 2 drawn
    refused(state, CardsDrawn(seat=0, count=4, cards=order[:4]), "three")  # a hand of four
    refused(state, CardsDrawn(seat=0, count=0, cards=()), "count")
    refused(state, CardsDrawn(seat=0, count=3, cards=None), "redacted")
    refused(state, CardsDrawn(seat=1, count=3, cards=SEVEN[:3]), "pile")  # not shuffled yet


def test_the_draw_after_a_play_is_the_top_card_of_the_pile() -> None:
    table = hunt_position(2, {0: HUNTERS[:8], 1: HUNTERS[2:9]})
    start = state_of(table)
    [played, drawn] = plays(table, (0, "hunter-1", 0))
    assert drawn == CardsDrawn(seat=0, count=1, cards=("hunter-4",))
    before = fold(start, played)  # the pile: hunter-4, hunter-5 ... hunter-8
    assert fold(before, drawn) == state_of(table)
    refused(before, CardsDrawn(seat=0, count=1, cards=("hunter-5",)), "top of")  # below it
    refused(before, CardsDrawn(seat=0, count=1, cards=("chief",)), "top of")  # not in the pile
    refused(before, CardsDrawn(seat=0, count=2, cards=("hunter-4", "hunter-5")), "three")
    emptied = with_player(before, 0, pile=())
    refused(emptied, CardsDrawn(seat=0, count=1, cards=("hunter-4",)), "top of")


# -- the hunting grounds ----------------------------------------------------------------------


def test_a_hunter_moves_only_from_the_ground_it_lies_in_to_another() -> None:
    table = hunt_position(2, {0: HUNTERS[:8], 1: HUNTERS[2:9]})
    plays(table, (0, "hunter-1", 0), (1, "hunter-3", 1))
    state = state_of(table)
    moved = fold(state, HunterMoved(seat=0, card="hunter-1", from_ground=0, to_ground=2))
    assert [p.card for p in moved.grounds[2].cards] == ["hunter-1"]
    refused(state, HunterMoved(seat=0, card="hunter-1", from_ground=1, to_ground=2), "no hunter-1")
    refused(state, HunterMoved(seat=0, card="hunter-3", from_ground=1, to_ground=2), "no hunter-3")
    refused(state, HunterMoved(seat=0, card="hunter-1", from_ground=0, to_ground=0), "another")
    refused(state, HunterMoved(seat=0, card="hunter-1", from_ground=0, to_ground=3), "another")
    refused(state, HunterMoved(seat=0, card="hunter-1", from_ground=-3, to_ground=2), "no hunter")


MIXED: tuple[TileKind, ...] = ("totem", "horse", "tepee-3", "buffalo-2")


def picking() -> State:
    """Ground 0 evaluated: seat 1 (a Hero) picks one tile, then seat 0 (Hunters) two."""
    table, _ = scripted_hunt(
        2, {0: seven(("hunter-10", 0)), 1: seven(("chief", 0))}, grounds=[MIXED, (), ()]
    )
    return state_of(table)


def test_booty_is_taken_from_the_ground_being_evaluated_as_the_pick_says() -> None:
    state = picking()
    hero = TilesTaken(seat=1, ground=0, tiles=("totem",))
    after = fold(state, hero)
    assert after.players[1].tiles == ("totem",) and after.grounds[0].tiles == MIXED[1:]
    refused(state, TilesTaken(seat=1, ground=0, tiles=("tomahawk",)), "not there")
    refused(state, TilesTaken(seat=1, ground=0, tiles=("totem", "horse")), "1 tile")
    refused(state, TilesTaken(seat=0, ground=0, tiles=("totem",)), "seat 1")  # not its pick
    refused(state, TilesTaken(seat=1, ground=1, tiles=()), "ground 0")
    done = fold(after, TilesTaken(seat=0, ground=0, tiles=("horse", "buffalo-2")))
    refused(done, TilesTaken(seat=0, ground=0, tiles=("tepee-3",)), "no pick")  # a third pick


def test_a_closed_ground_removes_exactly_the_tiles_nobody_took() -> None:
    state = picking()
    refused(state, GroundClosed(ground=0, removed=MIXED), "picks")  # before the picks
    done = fold(
        state,
        TilesTaken(seat=1, ground=0, tiles=("totem",)),
        TilesTaken(seat=0, ground=0, tiles=("horse", "buffalo-2")),
    )
    closed = fold(done, GroundClosed(ground=0, removed=("tepee-3",)))
    assert closed.removed == ("tepee-3",) and closed.grounds[0].tiles == ()
    refused(done, GroundClosed(ground=0, removed=()), "left")  # the tile vanishes
    refused(done, GroundClosed(ground=0, removed=("tepee-3", "tepee-3")), "left")
    refused(done, GroundClosed(ground=0, removed=("totem",)), "left")
    refused(done, GroundClosed(ground=1, removed=()), "ground 0")


# -- through the offline verifier -------------------------------------------------------------


def rechained(bundle: Bundle, seq: int, body: dict[str, Any]) -> bytes:
    """The bundle with event `seq`'s body replaced and every hash recomputed, as a forger
    would: only the checks through the rules can tell."""
    events: list[BundleEvent] = []
    previous = GENESIS_HASH
    for event in bundle.events:
        if event.seq == seq:
            event = msgspec.structs.replace(event, body=json.dumps(body).encode())
        digest = event_hash(previous, event.body)
        events.append(msgspec.structs.replace(event, prev_hash=previous.hex(), hash=digest.hex()))
        previous = digest
    return encode_bundle(msgspec.structs.replace(bundle, events=tuple(events)))


def check(report: AuditReport, check_id: str) -> CheckResult:
    return next(item for item in report.checks if item.id == check_id)


def first(bundle: Bundle, kind: str) -> tuple[int, dict[str, Any]]:
    event = next(event for event in bundle.events if event.type == f"big-manitou.{kind}")
    return event.seq, json.loads(event.body)


def forged_draw(bundle: Bundle) -> tuple[int, dict[str, Any]]:
    """The first card drawn after a play replaced by a different card below it in the pile."""
    codec = Codec(GAME)
    table = Table.replay(GAME, [Played(codec.decode_event(bundle.events[0].body), 0)])
    for event in bundle.events[1:]:
        decoded = codec.decode_event(event.body)
        if isinstance(decoded, CardsDrawn) and decoded.count == 1:
            pile = state_of(table).players[decoded.seat].pile or ()
            below = [card for card in pile[1:] if card != pile[0]]
            if below:
                return event.seq, {**json.loads(event.body), "cards": below[:1]}
        table.advance([Played(decoded, event.chance_cursor)])
    raise AssertionError("no draw after a play with a different card below it")


def forged_shuffle(bundle: Bundle) -> tuple[int, dict[str, Any]]:
    """A pile shuffled with its last card replaced by a card its owner did not choose."""
    seq, body = first(bundle, "pile-shuffled")
    body["order"][-1] = next(card for card in CARD_SET if card not in body["order"])
    return seq, body


def forged_bag(bundle: Bundle) -> tuple[int, dict[str, Any]]:
    """The bag filled with its first tile replaced by another kind (a ninth Totem, say)."""
    seq, body = first(bundle, "bag-filled")
    body["order"][0] = "totem" if body["order"][0] != "totem" else "horse"
    return seq, body


@pytest.mark.parametrize("forge", [forged_draw, forged_shuffle, forged_bag])
def test_a_forged_draw_in_a_bundle_fails_the_replay_at_its_event(forge: Any) -> None:
    bundle = read_bundle(CORPUS.read_bytes())
    assert check(verify_file(CORPUS.read_bytes(), REGISTRY), "replay").verdict == "passed"
    seq, body = forge(bundle)
    report = verify_file(rechained(bundle, seq, body), REGISTRY)
    assert check(report, "hash-chain").verdict == "passed"
    assert check(report, "replay").verdict == "failed"
    assert check(report, "replay").first_bad_seq == seq
    assert report.first_bad_seq == seq

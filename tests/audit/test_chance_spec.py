"""Every kind's chance re-derived by a third party from referee/kernel/CHANCE.md alone.

The words, `uniform` and `shuffle` are written here from CHANCE.md's pseudo-code, with no import
of the kernel's chance; the canonical orders come from each game's RULES.md and the draws follow
the order RULES.md and CHANCE.md state. For every registered kind, games opened in process and
the recorded corpus games must hold exactly the outcomes the seed, the game id and the entropy
give, at the chance cursors CHANCE.md describes; a derivation with a wrong key must not.

Only the opening is re-derived for every kind (the draws later in play, reshuffles and new deals,
follow the same rules from the cursor the step before ended at); for Coyote every shuffle of whole
games is re-derived too, from exported bundles read with nothing but the standard library.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from api.audit import Archive
from referee.games import REGISTRY
from referee.kernel import Table
from tests.corpus.generate import GAMES

ROOT = Path(__file__).parents[2]
CHANCE_MD = ROOT / "referee" / "kernel" / "CHANCE.md"
GAMES_DIR = ROOT / "referee" / "games"

T = TypeVar("T")
Json = Any  # an event or an option as a third party reads it: decoded JSON
NewGame = Callable[..., Awaitable[str]]


# -- CHANCE.md, "The stream of words" and "Drawing from the stream" -----------------------------


def chance_key(seed: bytes, game_id: str, entropy: str) -> bytes:
    """SHA-256(seed bytes ‖ UTF-8 game id ‖ UTF-8 entropy)."""
    return hashlib.sha256(seed + game_id.encode("utf-8") + entropy.encode("utf-8")).digest()


class Stream:
    """A game's words, read from word `cursor` on."""

    def __init__(self, key: bytes, cursor: int = 0) -> None:
        self.key = key
        self.cursor = cursor

    def word(self) -> int:
        block_number, position = divmod(self.cursor, 4)  # four 8-byte words per HMAC block
        block = hmac.new(self.key, block_number.to_bytes(8, "big"), hashlib.sha256).digest()
        self.cursor += 1
        return int.from_bytes(block[8 * position : 8 * position + 8], "big")

    def uniform(self, n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while (word := self.word()) >= limit:
            pass  # a rejected word is consumed all the same
        return word % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        shuffled = list(items)
        for i in range(len(shuffled) - 1, 0, -1):
            j = self.uniform(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        return shuffled


def test_the_test_vectors_of_chance_md() -> None:
    """The vectors printed in CHANCE.md, from its pseudo-code (seed: 31 zero bytes, then 0x2a)."""
    vectors = CHANCE_MD.read_text().split("<!-- test-vectors -->")[1]
    words_text, uniforms_text, shuffle_text = re.findall(
        r"^- Entropy.*?(?=^- |\Z)", vectors, re.M | re.S
    )
    words = [int(word, 16) for word in re.findall(r"`(0x[0-9a-f]{16})`", words_text)]
    (uniforms,) = [json.loads(listed) for listed in re.findall(r"`(\[[\d,\s]+\])`", uniforms_text)]
    (shuffled,) = [json.loads(listed) for listed in re.findall(r"`(\[[\d,\s]+\])`", shuffle_text)]
    assert (len(words), len(uniforms), len(shuffled)) == (5, 12, 36)
    seed = bytes(31) + b"\x2a"

    def stream(entropy: str = "", seed: bytes = seed) -> Stream:
        return Stream(chance_key(seed, "vector-game", entropy))

    first = stream()
    assert [first.word() for _ in words] == words
    six = stream()
    assert [six.uniform(6) for _ in uniforms] == uniforms
    assert stream("table-entropy").shuffle(range(36)) == shuffled
    # The seed enters the key as its bytes: its hex text gives other words.
    as_text = stream(seed=seed.hex().encode())
    assert [as_text.word() for _ in words] != words


# -- canonical orders, as each RULES.md lists them -----------------------------------------------


def rules_md(package: str) -> str:
    return (GAMES_DIR / package / "RULES.md").read_text()


def coyote_deck() -> list[Json]:
    """The table between the two `canonical-order` markers of Coyote's RULES.md."""
    table = rules_md("coyote").split("<!-- canonical-order -->")[1]
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (-?\d+) \|$", table, re.MULTILINE)
    return [{"id": int(i), "kind": kind, "value": int(value)} for i, kind, value in rows]


def manitou_number(card: int) -> int:
    """Manitou island's land card ids: id = (0 day, 20 night) + 2 * (number - 1) + copy."""
    return card % 20 // 2 + 1


def big_manitou_bag() -> list[str]:
    """The bag as Big Manitou's RULES.md lists it: each tile, then its count."""
    listed = rules_md("big_manitou").split("**The bag**")[1].split("\n\n")[0]
    return [
        tile
        for tile, count in re.findall(r"`([a-z0-9-]+)` \N{MULTIPLICATION SIGN}(\d+)", listed)
        for _ in range(int(count))
    ]


# Big Manitou's RULES.md, "A player's cards" (its "…" written out).
BIG_MANITOU_CARDS = [f"hunter-{value}" for value in range(1, 11)] + [
    "chief", "chief", "squaw", "squaw", "rain-maker", "scout", "medicine-man",
]  # fmt: skip


def tribu_deck() -> list[str]:
    """Tribù's RULES.md: the 25 card types in order, "each type four times"."""
    text = rules_md("tribu")
    listed = text.split("each type four times (`data.DECK`):")[1].split("Vases:")[0]
    return [card for card in re.findall(r"`([a-z-]+)`", listed) for _ in range(4)]


TRIBU_LEADERS = ["shaman", "warrior", "hunter", "elder"]  # Tribù's RULES.md, "Chance", 1.


def test_the_canonical_orders_hold_what_rules_md_counts() -> None:
    assert [card["id"] for card in coyote_deck()] == list(range(36))
    assert len(big_manitou_bag()) == 60 and len(BIG_MANITOU_CARDS) == 17
    assert len(tribu_deck()) == 100 and len(set(tribu_deck())) == 25


def in_canonical_order(items: Sequence[T], canonical: Sequence[T]) -> list[T]:
    """Items sorted by where their value first appears in the canonical order."""
    return sorted(items, key=list(canonical).index)


# -- each kind's opening: derived from the stream, and read from the recorded events ------------
#
# A derivation returns the outcomes of the opening's draws; `recorded` reads the same outcomes
# from the opening's events (as JSON, event 1 excluded). Both are plain data compared with ==.


def derive_coyote(stream: Stream, seats: int, options: Json) -> Json:
    """Coyote's RULES.md, "Chance", 1: shuffle, uniform(seats), one card to each seat from the
    top, seat 0 first."""
    order = stream.shuffle(coyote_deck())
    starter = stream.uniform(seats)
    return {
        "order": order,
        "starter": starter,
        "dealt": [[seat, order[seat]] for seat in range(seats)],
    }


def recorded_coyote(events: list[Json]) -> Json:
    shuffled, started, *dealt = events
    assert shuffled["type"] == "coyote.deck-shuffled" and shuffled["reason"] == "setup"
    assert started["type"] == "coyote.round-started"
    return {
        "order": shuffled["order"],
        "starter": started["starter"],
        "dealt": [[deal["seat"], deal["card"]] for deal in dealt],
    }


def derive_manitou_island(stream: Stream, seats: int, options: Json) -> Json:
    """Manitou island's RULES.md, "Canonical order and how a deal is re-derived"; CHANCE.md,
    "Manitou island: the origin of a bordered board"."""
    rounds = []
    drawing = list(range(seats))
    while len(drawing) > 1 or not rounds:
        deck = stream.shuffle(range(40))
        draws = list(zip(drawing, deck, strict=False))
        rounds.append([[seat, card] for seat, card in draws])
        highest = max(manitou_number(card) for _, card in draws)
        drawing = [seat for seat, card in draws if manitou_number(card) == highest]
    first = drawing[0]
    origin = {"q": 0, "r": 0}
    borders = options["borders"]
    if borders is not None:
        column, row = borders["origin_column"], borders["origin_row"]
        if column is None:
            space = stream.uniform(borders["columns"] * borders["rows"])
            column, row = space % borders["columns"], space // borders["columns"]
        origin = {"q": column - row // 2, "r": row}
    deck = stream.shuffle(range(40))
    dealt = 5 * seats
    hands = [[] for _ in range(seats)]
    for k in range(dealt):
        hands[(first + k) % seats].append(deck[k])
    return {
        "rounds": rounds,
        "first": first,
        "origin": origin,
        "hands": hands,
        "pile": deck[dealt:],
    }


def recorded_manitou_island(events: list[Json]) -> Json:
    *draws, dealt = events
    assert all(draw["type"] == "manitou-island.first-player-drawn" for draw in draws)
    assert dealt["type"] == "manitou-island.game-dealt"
    return {
        "rounds": [[[draw["seat"], draw["card"]] for draw in round["draws"]] for round in draws],
        "first": dealt["first_seat"],
        "origin": dealt["origin"],
        "hands": dealt["hands"],
        "pile": dealt["pile"],
    }


def big_manitou_cards_to_choose(seat: int, dealer: int, seats: int) -> int:
    """Big Manitou's RULES.md, S8: two players, the first player 8 and the other 7; three to
    five, the first player (left of the dealer) 9, the dealer 7, the others 8."""
    if seat == dealer:
        return 7
    if seat == (dealer + 1) % seats:
        return 8 if seats == 2 else 9
    return 8


def derive_big_manitou(stream: Stream, seats: int, options: Json) -> Json:
    """Big Manitou's RULES.md, "Canonical order and chance": the bag shuffled; the first dealer,
    unless an option names one; with random cards, seat by seat from 0 the 17 cards shuffled
    and the first ones taken (recorded in canonical order), then seat by seat from 0 the chosen
    cards, in canonical order, shuffled into a pile whose top three are the hand. Without random
    cards the opening ends there: the players choose."""
    bag = stream.shuffle(big_manitou_bag())
    dealer = options["first_dealer"]
    if dealer is None:
        dealer = stream.uniform(seats)
    derived: Json = {"bag": bag, "dealer": dealer}
    if options["random_cards"]:
        counts = [big_manitou_cards_to_choose(seat, dealer, seats) for seat in range(seats)]
        chosen = [
            in_canonical_order(stream.shuffle(BIG_MANITOU_CARDS)[:count], BIG_MANITOU_CARDS)
            for count in counts
        ]
        piles = [stream.shuffle(cards) for cards in chosen]
        derived |= {"counts": counts, "chosen": chosen, "piles": piles}
        derived["hands"] = [pile[:3] for pile in piles]
    return derived


def recorded_big_manitou(events: list[Json]) -> Json:
    filled, began, *rest = events
    assert filled["type"] == "big-manitou.bag-filled" and began["type"] == "big-manitou.hunt-began"
    # The dealer fills the grounds from the front of the bag: no draw, but the bag's order used.
    grounds = [tile for ground in began["grounds"] for tile in ground]
    assert filled["order"][: len(grounds)] == grounds
    recorded: Json = {"bag": filled["order"], "dealer": began["dealer"]}
    if rest:

        def field(event_type: str, name: str) -> list[Json]:
            return [event[name] for event in rest if event["type"] == event_type]

        recorded |= {
            "counts": began["cards_to_choose"],
            "chosen": field("big-manitou.cards-chosen", "cards"),
            "piles": field("big-manitou.pile-shuffled", "order"),
            "hands": field("big-manitou.cards-drawn", "cards"),
        }
    return recorded


def derive_wind_river(stream: Stream, seats: int, options: Json) -> Json:
    """Wind River's RULES.md, "Chance": the start player, uniform(number of players)."""
    return {"start": stream.uniform(seats)}


def recorded_wind_river(events: list[Json]) -> Json:
    drawn, *_ = events  # then the placement rounds begin: no draw
    assert drawn["type"] == "wind-river.start-player-drawn"
    return {"start": drawn["seat"]}


def derive_tribu(stream: Stream, seats: int, options: Json) -> Json:
    """Tribù's RULES.md, "Chance", 1 to 3: the four leaders shuffled, seat k taking the k-th;
    the first player; the 100 cards shuffled, card k to the seat k places after the first
    player for k < 5 * players, the rest the draw pile, top first."""
    leaders = stream.shuffle(TRIBU_LEADERS)[:seats]
    first = stream.uniform(seats)
    order = stream.shuffle(tribu_deck())
    hands = [order[(seat - first) % seats : 5 * seats : seats] for seat in range(seats)]
    return {"leaders": leaders, "first": first, "order": order, "hands": hands}


def recorded_tribu(events: list[Json]) -> Json:
    leaders, first, dealt, *_ = events  # then the first turn starts: no draw
    assert leaders["type"] == "tribu.leaders-drawn" and first["type"] == "tribu.first-player-drawn"
    assert dealt["type"] == "tribu.challenge-dealt" and dealt["first_player"] == first["seat"]
    assert dealt["draw_pile_size"] == len(dealt["order"]) - 5 * len(leaders["leaders"])
    return {
        "leaders": leaders["leaders"],
        "first": first["seat"],
        "order": dealt["order"],
        "hands": dealt["hands"],
    }


@dataclass(frozen=True)
class Opening:
    """How a kind's opening draws follow from its stream, and where its events record them."""

    derive: Callable[[Stream, int, Json], Json]
    recorded: Callable[[list[Json]], Json]


OPENINGS = {
    "coyote": Opening(derive_coyote, recorded_coyote),
    "manitou-island": Opening(derive_manitou_island, recorded_manitou_island),
    "big-manitou": Opening(derive_big_manitou, recorded_big_manitou),
    "wind-river": Opening(derive_wind_river, recorded_wind_river),
    "tribu": Opening(derive_tribu, recorded_tribu),
}


@dataclass(frozen=True)
class Case:
    kind: str
    seats: int
    options: Json
    entropy: str

    @property
    def name(self) -> str:
        options = ",".join(f"{key}={value}" for key, value in self.options.items()) or "default"
        entropy = "entropy" if self.entropy else "no-entropy"
        return f"{self.kind}-{self.seats}-{options}-{entropy}"


CASES = [
    Case("coyote", 3, {}, ""),
    Case("coyote", 6, {"shaman": True, "feathers": 5}, "our own words: 7 1 4"),
    Case("manitou-island", 2, {}, ""),
    Case("manitou-island", 4, {"borders": {}}, "des mots à nous ✓"),
    Case("manitou-island", 2, {"borders": {"columns": 7, "rows": 9}}, ""),
    Case(
        "manitou-island",
        4,
        {"borders": {"columns": 7, "rows": 9, "origin_column": 2, "origin_row": 5}},
        "fixed",
    ),
    Case("big-manitou", 2, {}, ""),
    Case("big-manitou", 5, {"random_cards": True}, "five hunters"),
    Case("big-manitou", 3, {"random_cards": True, "first_dealer": 2}, ""),
    Case("wind-river", 3, {}, ""),
    Case("wind-river", 4, {}, "the river"),
    Case("tribu", 2, {}, ""),
    Case("tribu", 3, {}, "tre"),
    Case("tribu", 4, {}, ""),
]

# Several seeds per case: a derivation with a wrong key could hit the same start player by
# luck in one game (one chance in three), not in all of them.
SEEDS = [hashlib.sha256(b"chance spec %d" % index).digest() for index in range(8)]


# -- the checks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedOpening:
    """A game's opening as a third party holds it: event 1 and the opening events as JSON, each
    event's chance cursor, and what the stream is keyed with (the seed once revealed)."""

    game_id: str
    seed: bytes
    entropy: str
    events: list[Json]
    cursors: list[int]

    @property
    def created(self) -> Json:
        return self.events[0]

    def stream(self) -> Stream:
        return Stream(chance_key(self.seed, self.game_id, self.entropy))


def opened_in_process(case: Case, seed: bytes) -> RecordedOpening:
    game = REGISTRY[case.kind]
    game_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"chance-spec/{case.name}/{seed.hex()}"))
    options = msgspec.convert(case.options, game.options_type)
    _, played = Table.open(
        game, options, case.seats, game_id=game_id, seed=seed, entropy=case.entropy
    )
    return RecordedOpening(
        game_id=game_id,
        seed=seed,
        entropy=case.entropy,
        events=[json.loads(msgspec.json.encode(item.event)) for item in played],
        cursors=[item.chance_cursor for item in played],
    )


def recorded_in_bundle(bundle: Json) -> RecordedOpening:
    """The opening of an exported game: event 1 and the events before the first command."""
    opening = []
    for event in bundle["events"]:
        if event["command_id"] is not None:
            break
        opening.append(event)
    return RecordedOpening(
        game_id=bundle["game_id"],
        seed=bytes.fromhex(bundle["seed"]),
        entropy=bundle["entropy"],
        events=[json.loads(base64.b64decode(event["body"])) for event in opening],
        cursors=[event["chance_cursor"] for event in opening],
    )


def check_opening(opening: RecordedOpening) -> Json:
    """The recorded outcomes of the opening's draws are the ones the stream gives, at the
    cursors CHANCE.md states; those outcomes."""
    created, *events = opening.events
    assert created["type"] == "game.created" and events
    assert hashlib.sha256(opening.seed).hexdigest() == created["commitment"]
    assert created["entropy"] == opening.entropy
    kind = OPENINGS[created["kind"]]
    stream = opening.stream()
    recorded = kind.recorded(events)
    assert kind.derive(stream, created["seats"], created["options"]) == recorded
    # game.created is written before any draw; every other opening event carries the words
    # the whole opening read, not those read up to that event.
    assert opening.cursors == [0] + [stream.cursor] * len(events)
    return recorded


# Keys and starts a careless third party might use: none may give the recorded outcomes.
WRONG_STREAMS: dict[str, Callable[[RecordedOpening], Stream]] = {
    "the seed's hex text in the key": lambda opening: Stream(
        chance_key(opening.seed.hex().encode(), opening.game_id, opening.entropy)
    ),
    "another entropy (none when there is one)": lambda opening: Stream(
        chance_key(opening.seed, opening.game_id, "" if opening.entropy else "entropy")
    ),
    "another game id": lambda opening: Stream(
        chance_key(opening.seed, opening.game_id.upper(), opening.entropy)
    ),
    "the stream read from word 1": lambda opening: Stream(opening.stream().key, cursor=1),
}


def check_wrong_streams_disagree(openings: list[RecordedOpening], recorded: list[Json]) -> None:
    for wrong, stream_of in WRONG_STREAMS.items():
        derived = [
            OPENINGS[opening.created["kind"]].derive(
                stream_of(opening), opening.created["seats"], opening.created["options"]
            )
            for opening in openings
        ]
        assert derived != recorded, f"a derivation from {wrong} agrees with the events"


def test_every_registered_kind_has_a_derivation_and_cases() -> None:
    kinds = [game.kind for game in REGISTRY]
    assert [kind for kind in kinds if kind not in OPENINGS] == [], "derive its opening here"
    assert [kind for kind in kinds if all(case.kind != kind for case in CASES)] == []


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_opening_follows_from_the_seed(case: Case) -> None:
    openings = [opened_in_process(case, seed) for seed in SEEDS]
    recorded = [check_opening(opening) for opening in openings]
    check_wrong_streams_disagree(openings, recorded)


def test_the_cases_reach_every_draw_of_an_opening() -> None:
    """The rarer branches happen: a first-player tie in Manitou island, a drawn origin."""
    manitou = [
        opened_in_process(case, seed)
        for case in CASES
        if case.kind == "manitou-island"
        for seed in SEEDS
    ]
    rounds = [recorded_manitou_island(opening.events[1:])["rounds"] for opening in manitou]
    assert any(len(draws) > 1 for draws in rounds), "no seed gives a first-player tie"
    origins = {json.dumps(recorded_manitou_island(o.events[1:])["origin"]) for o in manitou}
    assert len(origins) > 3, "the origin of a bordered board is drawn"


def test_the_recorded_openings_of_every_kind() -> None:
    """The corpus's games, from their bundles and nothing else."""
    openings = [recorded_in_bundle(json.loads(path.read_bytes())) for path in GAMES.glob("*.json")]
    recorded = [check_opening(opening) for opening in openings]
    check_wrong_streams_disagree(openings, recorded)
    assert {opening.created["kind"] for opening in openings} == {game.kind for game in REGISTRY}


# -- Coyote: every shuffle of whole games, from exported bundles ---------------------------------


def coyote_events(bundle: Json) -> list[Json]:
    return [
        {**event, "event": json.loads(base64.b64decode(event["body"]))}
        for event in bundle["events"]
    ]


def rederive_coyote(bundle: Json) -> int:
    """Check every shuffle of the game and the opening deal; the number of shuffles."""
    deck = coyote_deck()
    assert len(deck) == 36
    seed = bytes.fromhex(bundle["seed"])
    assert hashlib.sha256(seed).hexdigest() == bundle["commitment"]
    key = chance_key(seed, bundle["game_id"], bundle["entropy"])
    assert check_opening(recorded_in_bundle(bundle))
    shuffles = 0
    cursor = 0  # every step (the opening, a command) starts where the one before ended
    for _, step in groupby(coyote_events(bundle), key=lambda event: event["command_id"]):
        events = list(step)
        stream = Stream(key, cursor)
        for event in events:
            if event["event"]["type"] == "coyote.deck-shuffled":
                order = event["event"]["order"]
                assert all(card == deck[card["id"]] for card in order)
                assert stream.shuffle(sorted(order, key=lambda card: card["id"])) == order
                shuffles += 1
            elif event["event"]["type"] == "coyote.round-started" and events[0]["seq"] == 1:
                stream.uniform(bundle["seats"])  # the first player, checked by check_opening
        assert stream.cursor == events[-1]["chance_cursor"], "every word a step drew is counted"
        cursor = stream.cursor
    return shuffles


async def test_a_coyote_game_played_through_the_service(
    archive: Archive, new_game: NewGame
) -> None:
    """A seed drawn by the referee, secret until the end, and words the players added."""
    game_id = await new_game(seats=5, seed=None, entropy="our own words: 7 1 4")
    _, data = await archive.export(game_id)
    bundle = json.loads(data)
    assert bundle["entropy"] == "our own words: 7 1 4" and not bundle["seed_chosen_by_creator"]
    assert rederive_coyote(bundle) >= 1


def test_every_shuffle_of_the_recorded_coyote_games() -> None:
    shuffles = [
        rederive_coyote(json.loads(path.read_bytes())) for path in GAMES.glob("coyote-*.json")
    ]
    assert len(shuffles) >= 4
    assert sum(shuffles) > len(shuffles), "some shuffles come later than the opening"

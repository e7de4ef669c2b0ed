"""Every kind's chance re-derived by a third party from referee/kernel/CHANCE.md alone.

The words, `uniform` and `shuffle` are written here from CHANCE.md's pseudo-code, with no import
of the kernel's chance; the canonical orders come from each game's RULES.md and the draws follow
the order RULES.md and CHANCE.md state. For every registered kind, games opened in process and
the recorded corpus games must hold exactly the outcomes the seed, the game id and the entropy
give, at the chance cursors CHANCE.md describes; a derivation with a wrong key must not.

Open tables too (CHANCE.md, "Open tables"): the seat entropies are read from the recorded
`game.seat-taken` and `game.seat-left` events as that section says, the key made with its length
prefixes, and the opening found at the sitting that filled the table; careless derivations (no
prefixes, the first sitter's entropy at a seat taken again, the order of sitting) must not agree.

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
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import groupby
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.audit import Archive
from api.service import GameService
from referee.games import REGISTRY
from referee.kernel import Table
from referee.kernel.lifecycle import BotSeat, LeaveSeat, SeatTaken, Sit, TimeControl
from referee.kernel.table import NotYourTurn, OpenTable
from tests.corpus.generate import GAMES
from tests.corpus.recorder import Player

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


def lp(text: str) -> bytes:
    """CHANCE.md, "Open tables": a text's UTF-8 byte count as 4 bytes, big-endian, then its
    bytes."""
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def open_table_key(seed: bytes, game_id: str, entropy: str, seat_entropies: list[str]) -> bytes:
    """SHA-256(seed bytes ‖ lp(game id) ‖ lp(entropy) ‖ lp(e₀) ‖ … ‖ lp(eₙ₋₁))."""
    texts = [game_id, entropy, *seat_entropies]
    return hashlib.sha256(seed + b"".join(lp(text) for text in texts)).digest()


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


def test_the_open_table_vectors_of_chance_md() -> None:
    """The open table's vectors: the key, its first words and a shuffle, from the text's key
    (seed: 31 zero bytes, then 0x2a; game id `vector-game`; seats `alice`, ``, `bob's dice`)."""
    vectors = CHANCE_MD.read_text().split("<!-- open-table-test-vectors -->")[1]
    key_text, words_text, shuffle_text = re.findall(
        r"^- Open table.*?(?=^- |\Z)", vectors, re.M | re.S
    )
    (key_hex,) = re.findall(r"`([0-9a-f]{64})`", key_text)
    words = [int(word, 16) for word in re.findall(r"`(0x[0-9a-f]{16})`", words_text)]
    (shuffled,) = [json.loads(listed) for listed in re.findall(r"`(\[[\d,\s]+\])`", shuffle_text)]
    assert (len(words), len(shuffled)) == (5, 36)
    seed = bytes(31) + b"\x2a"
    key = open_table_key(seed, "vector-game", "", ["alice", "", "bob's dice"])
    assert key.hex() == key_hex
    first = Stream(key)
    assert [first.word() for _ in words] == words
    assert Stream(key).shuffle(range(36)) == shuffled
    # Neither the creator's key nor the texts run together give these words.
    for other in (
        chance_key(seed, "vector-game", "alice" + "" + "bob's dice"),
        hashlib.sha256(seed + b"vector-game" + b"alice" + b"bob's dice").digest(),
        open_table_key(seed, "vector-game", "", ["alic", "e", "bob's dice"]),
    ):
        again = Stream(other)
        assert [again.word() for _ in words] != words


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
    rounds: list[list[list[int]]] = []
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
    hands: list[list[int]] = [[] for _ in range(seats)]
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

NAMES = ["Bea", "Cy", "Dee", "Eve", "Fay", "Gus"]


@dataclass(frozen=True)
class OpenCase:
    """An open table: the creator's seat and the bots' taken at creation (all of them: dealt at
    creation), then the players sit in the reverse order of the seats, the first of them getting
    up again before another player takes that seat with other words (none given by the second
    to sit)."""

    kind: str
    seats: int
    options: Json = field(default_factory=dict)
    entropy: str = ""
    creator: int | None = None  # the seat its creator takes
    bots: tuple[int, ...] = ()
    timed: bool = False

    @property
    def name(self) -> str:
        options = ",".join(f"{key}={value}" for key, value in self.options.items()) or "default"
        creator = "" if self.creator is None else f"-creator{self.creator}"
        bots = "".join(f"-bot{seat}" for seat in self.bots)
        timed = "-timed" if self.timed else ""
        return f"open-{self.kind}-{self.seats}-{options}{creator}{bots}{timed}"

    def sittings(self) -> list[tuple[int, Sit | LeaveSeat]]:
        taken = {*self.bots, *([] if self.creator is None else [self.creator])}
        order = [seat for seat in reversed(range(self.seats)) if seat not in taken]
        plan: list[tuple[int, Sit | LeaveSeat]] = []
        if len(order) > 1:  # (one open seat: whoever sits fills the table, and stays)
            plan += [
                (order[0], Sit(name="Ann", entropy="ann's first words")),
                (order[0], LeaveSeat()),
            ]
        for number, seat in enumerate(order):
            name = NAMES[number]
            plan.append((seat, Sit(name=name, entropy="" if number == 1 else f"{name}'s dice ✓")))
        return plan


OPEN_CASES = [
    OpenCase("coyote", 3),
    OpenCase("coyote", 5, {"shaman": True}, "table words", creator=2, bots=(0,)),
    OpenCase("coyote", 3, creator=0, bots=(1, 2)),
    OpenCase("manitou-island", 2, creator=0),
    OpenCase("manitou-island", 4, {"borders": {}}, "des mots", bots=(3,), timed=True),
    OpenCase("big-manitou", 2),
    OpenCase("big-manitou", 3, {"random_cards": True}, creator=1),
    OpenCase("wind-river", 4, creator=3, timed=True),
    OpenCase("tribu", 4, bots=(1,)),
    OpenCase("tribu", 2, {}, "due", creator=0, bots=(1,)),
]


# -- the checks -----------------------------------------------------------------------------------

SETTINGS = ("game.time-control", "game.bots", "game.table-opened")


def settings_after_event_1(events: list[Json]) -> list[str]:
    """CHANCE.md: the table's settings that follow event 1, in their order."""
    settings = []
    for event in events[1:]:
        if event["type"] not in SETTINGS:
            break
        settings.append(event["type"])
    return settings


def is_open_table(events: list[Json]) -> bool:
    return "game.table-opened" in settings_after_event_1(events)


@dataclass(frozen=True)
class Seated:
    """An open table's seats when its last seat was taken, read as CHANCE.md says ("Where the
    seat entropies are recorded"); and two careless readings of the same events."""

    filling: int  # the index among the events of the game.seat-taken that filled the table
    entropies: list[str]  # e₀ … eₙ₋₁: the entropy of whoever sat at each seat then
    first_sitters: list[str]  # each seat's first sitter's entropy, whoever sat there last
    in_sitting_order: list[str]  # the entropies held at the fill, in the order their owners sat


def seated_at_fill(events: list[Json]) -> Seated:
    seats = events[0]["seats"]
    held: list[tuple[int, str] | None] = [None] * seats  # (when they sat, their entropy)
    first: list[str | None] = [None] * seats
    for index, event in enumerate(events):
        if event["type"] == "game.seat-taken":
            seat = event["seat"]
            held[seat] = (index, event["entropy"])
            first[seat] = event["entropy"] if first[seat] is None else first[seat]
            sitters = [sitter for sitter in held if sitter is not None]
            if len(sitters) == seats:
                return Seated(
                    filling=index,
                    entropies=[entropy for _, entropy in sitters],
                    first_sitters=[entropy or "" for entropy in first],
                    in_sitting_order=[entropy for _, entropy in sorted(sitters)],
                )
        elif event["type"] == "game.seat-left":
            held[event["seat"]] = None
    raise AssertionError("the table was never filled: nothing was dealt")


@dataclass(frozen=True)
class RecordedOpening:
    """A game's opening as a third party holds it: the events as JSON from event 1 to the end of
    the step that dealt (the creation, or at an open table the sitting that filled it), each
    event's chance cursor, what the stream is keyed with (the seed once revealed), and how many
    events the creation step holds (event 1 and those that no command caused)."""

    game_id: str
    seed: bytes
    entropy: str
    events: list[Json]
    cursors: list[int]
    creation: int

    @property
    def created(self) -> Json:
        return self.events[0]

    @property
    def seated(self) -> Seated | None:
        """The seats at the fill of an open table; None at a table its creator seated."""
        return seated_at_fill(self.events) if is_open_table(self.events) else None

    def key(
        self,
        *,
        seed: bytes | None = None,
        game_id: str | None = None,
        entropy: str | None = None,
        seat_entropies: list[str] | None = None,
    ) -> bytes:
        """The key CHANCE.md gives this table (or with one of its inputs replaced)."""
        seed = self.seed if seed is None else seed
        game_id = self.game_id if game_id is None else game_id
        entropy = self.entropy if entropy is None else entropy
        seated = self.seated
        if seated is None:
            return chance_key(seed, game_id, entropy)
        seats = seated.entropies if seat_entropies is None else seat_entropies
        return open_table_key(seed, game_id, entropy, seats)

    def stream(self) -> Stream:
        return Stream(self.key())

    def setup(self) -> list[Json]:
        """The events of the game's own opening draws: those after the settings at a table its
        creator seated, after the filling sitting at an open table; the kernel's (a timed game's
        clock) left out."""
        seated = self.seated
        start = 1 + len(settings_after_event_1(self.events)) if seated is None else seated.filling
        return [event for event in self.events[start:] if not event["type"].startswith("game.")]

    def expected_cursors(self, cursor: int) -> list[int]:
        """CHANCE.md: event 1 and the settings carry 0; the step that deals carries `cursor`,
        the words its opening read, on every event; at an open table every event before it, 0.
        That step is the creation, or the sitting that filled the table."""
        dealt = 1 + len(settings_after_event_1(self.events))
        seated = self.seated
        if seated is not None and seated.filling >= self.creation:
            dealt = seated.filling
        return [0] * dealt + [cursor] * (len(self.events) - dealt)


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
        creation=len(played),
    )


def opened_at_open_table(case: OpenCase, seed: bytes) -> RecordedOpening:
    """An open table opened in process, its players seated with `Table.play`, to the deal."""
    game = REGISTRY[case.kind]
    game_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"chance-spec/{case.name}/{seed.hex()}"))
    options = msgspec.convert(case.options, game.options_type)
    at = datetime(2026, 5, 1, 12, tzinfo=UTC)
    creator = None
    if case.creator is not None:
        creator = SeatTaken(seat=case.creator, name="Creator", entropy="the creator's words")
    table, played = Table.open(
        game,
        options,
        case.seats,
        game_id=game_id,
        seed=seed,
        entropy=case.entropy,
        time_control=TimeControl(per_move_seconds=60) if case.timed else None,
        bots=[BotSeat(seat=seat) for seat in case.bots],
        at=at,
        open_table=OpenTable("public", at + timedelta(hours=1), creator),
    )
    creation = len(played)
    for number, (seat, command) in enumerate(case.sittings(), start=1):
        assert table.waiting()
        chance = table.chance_for(seed, game_id)
        played += table.play(seat, command, chance, at=at + timedelta(seconds=number))
    assert not table.waiting() and table.to_act(), "the last sitting dealt"
    return RecordedOpening(
        game_id=game_id,
        seed=seed,
        entropy=case.entropy,
        events=[json.loads(msgspec.json.encode(item.event)) for item in played],
        cursors=[item.chance_cursor for item in played],
        creation=creation,
    )


def recorded_in_bundle(bundle: Json) -> RecordedOpening:
    """The opening of an exported game: its events up to the end of the step that dealt (the
    creation, or at an open table the sitting that filled it; a step is the creation's events,
    with no command, or one command's)."""
    events = [json.loads(base64.b64decode(event["body"])) for event in bundle["events"]]
    indices = range(len(events))
    steps = [
        list(step)
        for _, step in groupby(indices, key=lambda index: bundle["events"][index]["command_id"])
    ]
    dealt = seated_at_fill(events).filling if is_open_table(events) else 0
    end = next(step[-1] + 1 for step in steps if dealt in step)
    return RecordedOpening(
        game_id=bundle["game_id"],
        seed=bytes.fromhex(bundle["seed"]),
        entropy=bundle["entropy"],
        events=events[:end],
        cursors=[event["chance_cursor"] for event in bundle["events"][:end]],
        creation=len(steps[0]),
    )


def check_opening(opening: RecordedOpening) -> Json:
    """The recorded outcomes of the opening's draws are the ones the stream gives, at the
    cursors CHANCE.md states; those outcomes."""
    created = opening.created
    assert created["type"] == "game.created" and len(opening.events) > 1
    assert hashlib.sha256(opening.seed).hexdigest() == created["commitment"]
    assert created["entropy"] == opening.entropy
    kind = OPENINGS[created["kind"]]
    stream = opening.stream()
    recorded = kind.recorded(opening.setup())
    assert kind.derive(stream, created["seats"], created["options"]) == recorded
    # Event 1 (and the settings) are written before any draw; every event of the step that
    # dealt carries the words its whole opening read, not those read up to that event.
    assert opening.cursors == opening.expected_cursors(stream.cursor)
    return recorded


# Keys and starts a careless third party might use: none may give the recorded outcomes.
WRONG_STREAMS: dict[str, Callable[[RecordedOpening], Stream]] = {
    "the seed's hex text in the key": lambda opening: Stream(
        opening.key(seed=opening.seed.hex().encode())
    ),
    "another entropy (none when there is one)": lambda opening: Stream(
        opening.key(entropy="" if opening.entropy else "entropy")
    ),
    "another game id": lambda opening: Stream(opening.key(game_id=opening.game_id.upper())),
    "the stream read from word 1": lambda opening: Stream(opening.key(), cursor=1),
}


def _seated(opening: RecordedOpening) -> Seated:
    seated = opening.seated
    assert seated is not None
    return seated


# And readings of an open table's seats that CHANCE.md rules out.
WRONG_OPEN_STREAMS: dict[str, Callable[[RecordedOpening], Stream]] = {
    "the creator's key, without the seats": lambda opening: Stream(
        chance_key(opening.seed, opening.game_id, opening.entropy)
    ),
    "the texts without their length prefixes": lambda opening: Stream(
        hashlib.sha256(
            opening.seed
            + "".join([opening.game_id, opening.entropy, *_seated(opening).entropies]).encode()
        ).digest()
    ),
    "the first sitter's entropy at a seat taken again": lambda opening: Stream(
        opening.key(seat_entropies=_seated(opening).first_sitters)
    ),
    "the entropies in the order their players sat": lambda opening: Stream(
        opening.key(seat_entropies=_seated(opening).in_sitting_order)
    ),
}


def check_wrong_streams_disagree(
    openings: list[RecordedOpening],
    recorded: list[Json],
    wrong_streams: dict[str, Callable[[RecordedOpening], Stream]] = WRONG_STREAMS,
) -> None:
    """Each wrong stream, on the openings where it is another stream than the right one (a
    reading of the seats can be right by luck: no seat taken again), gives other outcomes."""
    for wrong, stream_of in wrong_streams.items():
        differing = [
            (opening, outcome)
            for opening, outcome in zip(openings, recorded, strict=True)
            if (stream_of(opening).key, stream_of(opening).cursor) != (opening.key(), 0)
        ]
        derived = [
            OPENINGS[opening.created["kind"]].derive(
                stream_of(opening), opening.created["seats"], opening.created["options"]
            )
            for opening, _ in differing
        ]
        assert derived != [outcome for _, outcome in differing] or not differing, (
            f"a derivation from {wrong} agrees with the events"
        )


def test_every_registered_kind_has_a_derivation_and_cases() -> None:
    kinds = [game.kind for game in REGISTRY]
    assert [kind for kind in kinds if kind not in OPENINGS] == [], "derive its opening here"
    assert [kind for kind in kinds if all(case.kind != kind for case in CASES)] == []
    assert [kind for kind in kinds if all(case.kind != kind for case in OPEN_CASES)] == []


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_opening_follows_from_the_seed(case: Case) -> None:
    openings = [opened_in_process(case, seed) for seed in SEEDS]
    recorded = [check_opening(opening) for opening in openings]
    check_wrong_streams_disagree(openings, recorded)


@pytest.mark.parametrize("case", OPEN_CASES, ids=lambda case: case.name)
def test_the_opening_of_an_open_table_follows_from_the_seed_and_the_seats(case: OpenCase) -> None:
    openings = [opened_at_open_table(case, seed) for seed in SEEDS]
    assert all(opening.seated is not None for opening in openings)
    recorded = [check_opening(opening) for opening in openings]
    check_wrong_streams_disagree(openings, recorded)
    check_wrong_streams_disagree(openings, recorded, WRONG_OPEN_STREAMS)


def test_the_open_cases_reach_every_reading_of_the_seats() -> None:
    """Somewhere a seat is taken again with other words, players sit out of seat order, a seat
    is given no entropy, the table is full at creation, and a timed game's clock is read."""
    seated = [
        (opening, _seated(opening))
        for opening in (opened_at_open_table(case, SEEDS[0]) for case in OPEN_CASES)
    ]
    assert any(seats.first_sitters != seats.entropies for _, seats in seated)
    assert any(seats.in_sitting_order != seats.entropies for _, seats in seated)
    assert any("" in seats.entropies for _, seats in seated)
    assert any(seats.filling < opening.creation for opening, seats in seated)
    assert any(seats.filling >= opening.creation for opening, seats in seated)
    assert any(event["type"] == "game.clock" for opening, _ in seated for event in opening.events)


def test_the_cases_reach_every_draw_of_an_opening() -> None:
    """The rarer branches happen: a first-player tie in Manitou island, a drawn origin."""
    manitou = [
        opened_in_process(case, seed)
        for case in CASES
        if case.kind == "manitou-island"
        for seed in SEEDS
    ]
    rounds = [recorded_manitou_island(opening.setup())["rounds"] for opening in manitou]
    assert any(len(draws) > 1 for draws in rounds), "no seed gives a first-player tie"
    origins = {json.dumps(recorded_manitou_island(o.setup())["origin"]) for o in manitou}
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
    opening = recorded_in_bundle(bundle)
    assert check_opening(opening)
    key = opening.key()  # an open table's covers the seats' entropies
    shuffles = 0
    first_round = True
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
            elif event["event"]["type"] == "coyote.round-started" and first_round:
                stream.uniform(bundle["seats"])  # the first player, checked by check_opening
                first_round = False
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


async def test_a_coyote_open_table_seated_and_played_through_the_api(
    client: AsyncTestClient[Litestar], service: GameService
) -> None:
    """An open table through the API: its creator and a bot seated at creation, strangers
    sitting with words of their own, one getting up and another taking the seat; played to the
    end, exported, and every shuffle re-derived from the bundle with the seats' entropies."""
    body = {
        "kind": "coyote",
        "seats": 5,
        "entropy": "the table's words",
        "bots": [{"seat": 4}],
        "open_table": {"creator": {"name": "Ann", "entropy": "ann's dice ✓", "seat": 1}},
    }
    created = await client.post("/v1/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    seats = f"/v1/games/{game_id}/seats"

    async def sit(name: str, seat: int, entropy: str) -> str:
        sat = await client.post(seats, json={"name": name, "seat": seat, "entropy": entropy})
        assert sat.status_code == 201, sat.text
        token: str = sat.json()["token"]
        return token

    cy = await sit("Cy", 3, "cy's first words")
    await sit("Bob", 2, "")
    left = await client.delete(f"{seats}/3", headers={"Authorization": f"Bearer {cy}"})
    assert left.status_code == 200, left.text
    await sit("Dee", 3, "dee's words")
    await sit("Eve", 0, "eve")  # the last seat: the deal
    player = Player("open coyote")
    while not (table := await service.table(game_id)).outcome().finished:
        try:
            await service.play(game_id, *player.choose(table))
        except NotYourTurn:  # the server's bot moved for seat 4 first: read the table again
            continue
    exported = await client.get(f"/v1/games/{game_id}/export")
    assert exported.status_code == 200, exported.text
    bundle = json.loads(exported.content)
    assert bundle["seating"] == "open" and bundle["status"] == "finished"
    opening = recorded_in_bundle(bundle)
    assert _seated(opening).entropies == ["eve", "ann's dice ✓", "", "dee's words", ""]
    assert rederive_coyote(bundle) >= 1
    recorded = [check_opening(opening)]
    check_wrong_streams_disagree([opening], recorded)
    check_wrong_streams_disagree([opening], recorded, WRONG_OPEN_STREAMS)


def test_every_shuffle_of_the_recorded_coyote_games() -> None:
    shuffles = [
        rederive_coyote(json.loads(path.read_bytes())) for path in GAMES.glob("coyote-*.json")
    ]
    assert len(shuffles) >= 4
    assert sum(shuffles) > len(shuffles), "some shuffles come later than the opening"

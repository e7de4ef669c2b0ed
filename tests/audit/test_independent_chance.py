"""Coyote's deals re-derived by a third party: the chance algorithm written here from DESIGN.md's
text alone (no import of the kernel's chance), the cards from the canonical order in Coyote's
RULES.md, the events read from an exported bundle with nothing but the standard library."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Awaitable, Callable
from itertools import groupby
from pathlib import Path
from typing import Any

from api.audit import Archive
from tests.corpus.generate import GAMES

RULES = Path(__file__).parents[2] / "referee" / "games" / "coyote" / "RULES.md"
NewGame = Callable[..., Awaitable[str]]
Card = dict[str, Any]


class Words:
    """DESIGN.md, "Chance": the stream of 8-byte words of a game, from word `cursor` on."""

    def __init__(self, seed: bytes, game_id: str, entropy: str, cursor: int) -> None:
        self.key = hashlib.sha256(seed + game_id.encode("utf-8") + entropy.encode("utf-8")).digest()
        self.cursor = cursor

    def word(self) -> int:
        k, index = divmod(self.cursor, 4)  # one HMAC-SHA256 block holds four words
        block = hmac.new(self.key, k.to_bytes(8, "big"), hashlib.sha256).digest()
        self.cursor += 1
        return int.from_bytes(block[8 * index : 8 * index + 8], "big")

    def uniform(self, n: int) -> int:
        while (word := self.word()) >= 2**64 - (2**64 % n):
            pass
        return word % n

    def shuffle(self, items: list[Card]) -> list[Card]:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.uniform(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def canonical_order() -> list[Card]:
    """The table between the two `canonical-order` markers of RULES.md."""
    table = RULES.read_text().split("<!-- canonical-order -->")[1]
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (-?\d+) \|$", table, re.MULTILINE)
    return [{"id": int(i), "kind": kind, "value": int(value)} for i, kind, value in rows]


def events_of(bundle: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {**event, "event": json.loads(base64.b64decode(event["body"]))}
        for event in bundle["events"]
    ]


def rederive(bundle: dict[str, Any]) -> int:
    """Check every shuffle of the game and the opening deal; the number of shuffles."""
    deck = canonical_order()
    assert len(deck) == 36
    seed = bytes.fromhex(bundle["seed"])
    assert hashlib.sha256(seed).hexdigest() == bundle["commitment"]
    events = events_of(bundle)
    shuffles = 0
    cursor = 0  # every step (the opening, a command) starts where the one before ended
    for _, step in groupby(events, key=lambda event: event["command_id"]):
        step = list(step)
        words = Words(seed, bundle["game_id"], bundle["entropy"], cursor)
        for event in step:
            if event["event"]["type"] == "coyote.deck-shuffled":
                order = event["event"]["order"]
                assert all(card == deck[card["id"]] for card in order)
                assert words.shuffle(sorted(order, key=lambda card: card["id"])) == order
                shuffles += 1
        if step[0]["event"]["type"] == "game.created":
            check_opening_deal(bundle["seats"], [event["event"] for event in step], words)
        assert words.cursor == step[-1]["chance_cursor"], "every word a step drew is accounted for"
        cursor = words.cursor
    return shuffles


def check_opening_deal(seats: int, opening: list[dict[str, Any]], words: Words) -> None:
    """RULES.md: shuffle, then uniform(seats) for the first player, then one card to each seat
    from the top, seat 0 first."""
    created, shuffled, started, *dealt = opening
    assert created["type"] == "game.created" and shuffled["type"] == "coyote.deck-shuffled"
    assert started == {"type": "coyote.round-started", "round": 1, "starter": words.uniform(seats)}
    assert [(deal["seat"], deal["card"]) for deal in dealt] == list(
        enumerate(shuffled["order"][:seats])
    )


async def test_a_game_played_through_the_service(archive: Archive, new_game: NewGame) -> None:
    """A seed drawn by the referee, secret until the end, and words the players added."""
    game_id = await new_game(seats=5, seed=None, entropy="our own words: 7 1 4")
    _, data = await archive.export(game_id)
    bundle = json.loads(data)
    assert bundle["entropy"] == "our own words: 7 1 4" and not bundle["seed_chosen_by_creator"]
    assert rederive(bundle) >= 1


def test_the_recorded_coyote_games() -> None:
    shuffles = [rederive(json.loads(path.read_bytes())) for path in GAMES.glob("coyote-*.json")]
    assert len(shuffles) >= 4
    assert sum(shuffles) > len(shuffles), "some shuffles come later than the opening"

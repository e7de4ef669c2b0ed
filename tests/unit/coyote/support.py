"""Shared test helpers: positions built by folding events, and a random player.

Positions are built from recorded-looking events (a chosen deck order, a round, the deals) and
replayed through `referee.kernel.Table`, so the tests drive the game exactly as the API does.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from referee.games.coyote import GAME
from referee.games.coyote.commands import Bid, Command
from referee.games.coyote.data import DECK, Card
from referee.games.coyote.events import CardDealt, DeckShuffled, Event, RoundStarted
from referee.games.coyote.options import Options
from referee.games.coyote.state import State
from referee.kernel import Seat, Table
from tests.unit import positions

SEED = b"coyote-test-seed"
GAME_ID = "coyote-test"

_NAMES = {
    "cactus": ("cactus", 0),
    "chief": ("chief", 0),
    "moon": ("moon", 0),
    "spirit": ("spirit", 0),
    "teepee": ("teepee", 0),
}


def _kind_value(name: str) -> tuple[str, int]:
    if name in _NAMES:
        return _NAMES[name]
    value = int(name)
    return ("indian", value) if value > 0 else ("cavalry", value)


def pick(*names: str) -> list[Card]:
    """Distinct cards of the deck by name: "5" (Indian), "-5" (Cavalry), "cactus", "teepee"...

    A name given twice picks two different copies.
    """
    taken: set[int] = set()
    cards = []
    for name in names:
        kind, value = _kind_value(name)
        card = next(c for c in DECK if c.kind == kind and c.value == value and c.id not in taken)
        taken.add(card.id)
        cards.append(card)
    return cards


def position_events(
    seats: int, heads: Sequence[str], pile: Sequence[str] = (), starter: Seat = 0
) -> list[Event]:
    """A first round whose heads are `heads` (seat order) and whose draw pile starts with `pile`;
    the rest of the deck follows in canonical order."""
    chosen = pick(*heads, *pile)
    rest = tuple(card for card in DECK if card not in chosen)
    order = (*chosen, *rest)
    events: list[Event] = [
        DeckShuffled(reason="setup", size=len(order), order=order),
        RoundStarted(round=1, starter=starter),
    ]
    events += [CardDealt(seat=seat, card=chosen[seat]) for seat in range(seats)]
    return events


def table_from(options: Options, seats: int, events: Iterable[msgspec.Struct]) -> Table:
    return positions.table_from(GAME, options, seats, events, SEED)


def position(
    heads: Sequence[str],
    pile: Sequence[str] = (),
    *,
    starter: Seat = 0,
    feathers: int = 3,
    shaman: bool = False,
) -> Table:
    seats = len(heads)
    options = Options(feathers=feathers, shaman=shaman)
    return table_from(options, seats, position_events(seats, heads, pile, starter))


def play(table: Table, seat: Seat, command: Command) -> list[Any]:
    """Play a command from the table's acting seat; the events it produced."""
    return [played.event for played in table.play(seat, command, table.chance_for(SEED, GAME_ID))]


def state(table: Table) -> State:
    assert isinstance(table.state, State)
    return table.state


def events_of(events: Iterable[Any], kind: type) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


_CARD_ID = re.compile(rb'\{"id":(-?\d+),"kind":')


def card_ids(value: Any) -> set[int]:
    """Every card id anywhere inside a Struct, read from its JSON (a card encodes as
    {"id": ..., "kind": ..., "value": ...}; no other type has those keys in that order)."""
    return {int(found) for found in _CARD_ID.findall(msgspec.json.encode(value))}


def deck_counter(cards: Iterable[Card]) -> Counter[int]:
    return Counter(card.id for card in cards)


def random_command(legal: Sequence[Command], rng: random.Random) -> Command:
    """One of `legal`, chosen by index only, weighted so that rounds stay short.

    It relies on the documented order of `legal_command_space` (answers first, then bids by number,
    each with its declarations) only to weight its choice: whatever it returns comes from `legal`.
    """
    answers = next((i for i, command in enumerate(legal) if isinstance(command, Bid)), len(legal))
    bids = len(legal) - answers
    if answers and (not bids or rng.random() < 0.45):
        return legal[rng.randrange(answers)]
    first = legal[answers]
    assert isinstance(first, Bid)
    per_number = 1
    while per_number < bids:
        following = legal[answers + per_number]
        assert isinstance(following, Bid)
        if following.number != first.number:
            break
        per_number += 1
    numbers = bids // per_number
    small_raise = rng.random() < 0.75
    step = min(numbers - 1, rng.randrange(8)) if small_raise else rng.randrange(numbers)
    block = answers + step * per_number
    if per_number == 1 or rng.random() < 0.7:
        return legal[block]  # no power
    # A power: each kind of power alike, whatever the number of targets it can name.
    by_power: dict[object, list[int]] = {}
    for index in range(block + 1, block + per_number):
        declared = legal[index]
        assert isinstance(declared, Bid)
        by_power.setdefault(declared.power, []).append(index)
    return legal[rng.choice(rng.choice(list(by_power.values())))]


def round_position(
    hands: Sequence[Sequence[str]],
    *,
    draw_pile: Sequence[str] | None = None,
    feathers: Sequence[int] | None = None,
    starter: Seat | None = None,
    shaman: bool = False,
    shaman_used: Iterable[Seat] = (),
    direction: int | None = None,
    round_number: int = 2,
) -> Table:
    """A round about to open, as a State set on a real Table: `hands` per seat (a seat out of
    the game holds nothing), the draw pile exactly `draw_pile` (top first; None: the rest of
    the deck in canonical order) and every other card of the 36 on the discard pile, so that
    the deck is conserved as in a real game. `feathers` defaults to 3 for a seat holding a card
    and 0 for the others; the seats with none are out, in seat order. The starter (by default
    the first seat in the game) is to bid."""
    names = [name for hand in hands for name in hand]
    chosen = pick(*names, *(draw_pile or ()))
    dealt, pile = chosen[: len(names)], chosen[len(names) :]
    rest = [card for card in DECK if card not in chosen]
    if draw_pile is None:  # the rest of the deck under the named cards, the discard pile empty
        pile, rest = [*pile, *rest], []
    cards = iter(dealt)
    held = tuple(tuple(next(cards) for _ in hand) for hand in hands)
    feathers = tuple(feathers if feathers is not None else (3 if hand else 0 for hand in hands))
    if starter is None:
        starter = next(seat for seat, count in enumerate(feathers) if count > 0)
    used = set(shaman_used)
    options = Options(feathers=min(max(max(feathers), 1), 5), shaman=shaman)
    table = table_from(options, len(hands), [])
    table.state = State(
        seats=len(hands),
        shaman=shaman,
        feathers=feathers,
        eliminated=tuple(seat for seat, count in enumerate(feathers) if count == 0),
        shaman_used=tuple(seat in used for seat in range(len(hands))),
        draw_pile=tuple(pile),
        discard=tuple(rest),
        hands=held,
        round=round_number,
        starter=starter,
        turn=starter,
    )
    if direction is not None:  # clockwise otherwise, as a game starts
        table.state = msgspec.structs.replace(table.state, direction=direction)
    return table

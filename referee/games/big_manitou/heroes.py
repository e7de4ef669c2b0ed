"""Cards in a hunting ground: Trials of Strength, protected pairs and the sacrifice."""

from __future__ import annotations

from typing import TypeGuard

from referee.games.big_manitou.data import DEFEATS, HUNTER_VALUES, CardKind, HunterKind
from referee.games.big_manitou.state import Ground

MAX_FACE_UP_HEROES = 2


def is_hero(card: CardKind) -> bool:
    return card in DEFEATS


def is_hunter(card: CardKind) -> TypeGuard[HunterKind]:
    return card in HUNTER_VALUES


def hunter_value(card: CardKind) -> int:
    """A Hunter's printed value; 0 for a Hero."""
    return HUNTER_VALUES.get(card, 0)


def defeats(attacker: CardKind, defender: CardKind) -> bool:
    return defender in DEFEATS[attacker]


def face_up_heroes(ground: Ground, owner: int | None = None) -> list[int]:
    """Positions of the face-up Heroes in the ground (of `owner` only, when given)."""
    return [
        position
        for position, placed in enumerate(ground.cards)
        if placed.face_up and is_hero(placed.card) and owner in (None, placed.owner)
    ]


def hero_owner(ground: Ground) -> int | None:
    """The player whose Heroes lie face up in the ground; after every Trial there is one at most."""
    owners = {ground.cards[position].owner for position in face_up_heroes(ground)}
    return owners.pop() if owners else None


def may_place(ground: Ground, owner: int, card: CardKind) -> bool:
    """No player may have more than two face-up Heroes of their own in one ground."""
    return not is_hero(card) or len(face_up_heroes(ground, owner)) < MAX_FACE_UP_HEROES


def turned_down_by(ground: Ground, owner: int, card: CardKind) -> tuple[int, ...]:
    """The positions turned face down when `owner` places `card` in the ground.

    The new card takes the next position. A lone opposing Hero fights a normal Trial of
    Strength (identical Heroes both go down). A protected pair can only be attacked by a Hero
    at least as strong as its top card, the one played second: both that card and the attacker
    go down (the sacrifice); a weaker attacker alone goes down (BM-7).
    """
    if not is_hero(card):
        return ()
    new = len(ground.cards)
    defenders = [p for p in face_up_heroes(ground) if ground.cards[p].owner != owner]
    if not defenders:
        return ()
    top = defenders[-1]
    defender = ground.cards[top].card
    if len(defenders) == 1:
        if defender == card:
            return (top, new)
        return (top,) if defeats(card, defender) else (new,)
    if defender == card or defeats(card, defender):
        return (top, new)
    return (new,)

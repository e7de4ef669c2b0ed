"""The result of a hunt: the Leather Thief's victims and who picks booty in each ground (BM-6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.games.big_manitou.events import Pick, PickedBy
from referee.games.big_manitou.heroes import hero_owner, hunter_value, is_hero
from referee.games.big_manitou.state import Ground

HERO_PICK = 1
HUNTER_PICKS = (2, 1)  # the best untied Hunter total, then the next
HUNTER_PICKED_BY: tuple[PickedBy, ...] = ("best-hunters", "next-hunters")


def strengths(grounds: Sequence[Ground], seats: int) -> tuple[int, ...]:
    """The strength each player used this hunt: their Hunters' printed values, all grounds."""
    used = [0] * seats
    for ground in grounds:
        for placed in ground.cards:
            used[placed.owner] += hunter_value(placed.card)
    return tuple(used)


def thief_victims(used: Sequence[int]) -> tuple[int, ...]:
    """Everyone level with the most strength; nobody when nobody played a Hunter (BM-R5)."""
    most = max(used)
    return tuple(seat for seat, value in enumerate(used) if most > 0 and value == most)


def hunter_totals(ground: Ground, bonus: Sequence[int]) -> tuple[int | None, ...]:
    """Per seat, its Hunters' values in the ground plus its Tomahawk bonus for each Hunter."""
    totals: list[int | None] = [None] * len(bonus)
    for placed in ground.cards:
        if not is_hero(placed.card):
            value = hunter_value(placed.card) + bonus[placed.owner]
            totals[placed.owner] = (totals[placed.owner] or 0) + value
    return tuple(totals)


def untied_by_total(totals: Sequence[int | None]) -> list[int]:
    """The seats whose total nobody else shares, highest total first: tied seats are skipped."""
    shared = Counter(total for total in totals if total is not None)
    untied = {s: t for s, t in enumerate(totals) if t is not None and shared[t] == 1}
    return sorted(untied, key=untied.__getitem__, reverse=True)


def picks(ground: Ground, bonus: Sequence[int]) -> tuple[Pick, ...]:
    """The picks in order: the face-up Hero's owner 1 tile, the best untied Hunters 2, the next 1.

    Counts shrink to the tiles left; a pick of nothing is dropped.
    """
    wanted: list[tuple[int, int, PickedBy]] = []
    hero = hero_owner(ground)
    if hero is not None:
        wanted.append((hero, HERO_PICK, "hero"))
    hunters = untied_by_total(hunter_totals(ground, bonus))
    wanted += zip(hunters, HUNTER_PICKS, HUNTER_PICKED_BY, strict=False)
    left = len(ground.tiles)
    result = []
    for seat, count, by in wanted:
        taken = min(count, left)
        if taken:
            result.append(Pick(seat=seat, count=taken, by=by))
        left -= taken
    return tuple(result)

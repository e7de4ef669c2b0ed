"""The count at a challenge (CY-3): how many Indians are really hidden."""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.coyote.data import Card


def count_indians(cards: Iterable[Card]) -> int:
    """The total a bid is compared with.

    `cards` are the cards in play with the Teepee's drawn card among them (the Teepee itself
    counts nothing: the drawn card replaces it, CY-3a). The Spirit zeroes one highest Indian
    (CY-3b), the Chief doubles every Indian but not the Cavalry (CY-3c), then the Cavalry is added
    (CY-3d). Cactus and Moon count 0. The order of b and c does not change the result.
    """
    indians: list[int] = []
    cavalry = 0
    spirit = chief = False
    for card in cards:
        if card.kind == "indian":
            indians.append(card.value)
        elif card.kind == "cavalry":
            cavalry += card.value
        elif card.kind == "spirit":
            spirit = True
        elif card.kind == "chief":
            chief = True
    indian_total = sum(indians) - (max(indians) if spirit and indians else 0)
    return indian_total * (2 if chief else 1) + cavalry

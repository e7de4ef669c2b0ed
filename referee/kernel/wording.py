"""Numbers in the sentences people read: "1 card", "2 cards", never "1 cards"."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`number` and `noun`, in the plural (`noun` + "s" unless given) for any number but 1."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"

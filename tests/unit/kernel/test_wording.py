"""Counted nouns read right for every number."""

from __future__ import annotations

import pytest

from referee.kernel.wording import counted


@pytest.mark.parametrize(
    ("number", "expected"),
    [(0, "0 commands"), (1, "1 command"), (2, "2 commands"), (-1, "-1 commands")],
)
def test_one_is_singular_every_other_number_plural(number: int, expected: str) -> None:
    assert counted(number, "command") == expected


def test_an_irregular_plural_is_given() -> None:
    assert counted(1, "opening", "openings") == "1 opening"
    assert counted(3, "body", "bodies") == "3 bodies"

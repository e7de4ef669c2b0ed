"""The deck as the project's deck list has it (RULES.md, "The deck"), and RULES.md's
canonical order matching the data."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import referee.games.coyote as coyote_package
from referee.games.coyote.data import DECK


def test_the_deck_is_the_36_cards_of_the_rulings() -> None:
    expected = Counter(
        {("indian", value): 4 for value in (1, 2, 3, 4, 5)}
        | {("indian", 10): 3, ("indian", 15): 2, ("indian", 20): 1}
        | {("cactus", 0): 3, ("cavalry", -5): 2, ("cavalry", -10): 1}
        | {("chief", 0): 1, ("moon", 0): 1, ("spirit", 0): 1, ("teepee", 0): 1}
    )
    assert Counter((card.kind, card.value) for card in DECK) == expected
    assert sum(expected.values()) == len(DECK) == 36
    assert sum(1 for card in DECK if card.kind == "indian") == 26
    assert sum(1 for card in DECK if card.kind == "cavalry") == 3  # not the seed's "4"


def test_card_ids_are_the_canonical_positions() -> None:
    assert [card.id for card in DECK] == list(range(36))


def test_rules_md_lists_the_canonical_order_of_the_data() -> None:
    """A third party re-derives deals from RULES.md: it must say exactly what the code uses."""
    rules = (Path(coyote_package.__file__).parent / "RULES.md").read_text()
    block = rules.split("<!-- canonical-order -->")[1]
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (-?\d+) \|$", block, flags=re.MULTILINE)
    assert [(int(i), kind, int(value)) for i, kind, value in rows] == [
        (card.id, card.kind, card.value) for card in DECK
    ]


def test_every_test_named_in_rules_md_exists() -> None:
    """The traceability table points at real tests (a `*` names a family by its prefix)."""
    rules = (Path(coyote_package.__file__).parent / "RULES.md").read_text()
    here = Path(__file__).parent
    named = set(re.findall(r"(test_\w+)\.py::([\w.]+\*?)", rules))
    assert len(named) > 50
    for module, name in named:
        source = (here / f"{module}.py").read_text()
        parts = name.rstrip("*").split(".")
        for part in parts[:-1]:
            assert f"class {part}" in source, (module, name)
        pattern = rf"def {re.escape(parts[-1])}" + ("" if name.endswith("*") else r"\(")
        assert re.search(pattern, source), (module, name)

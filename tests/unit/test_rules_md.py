"""Every game's RULES.md says where each rule is enforced and which test proves it: this keeps
those references true. A code reference (`checks.insert_refusal`, `board.Board.neighbour`,
`decide.py`) must name a module of the game's package and, when it names more, an attribute
there; a test reference (`test_extra::test_refused_insertions`, `test_setup.py::name`) must name
a test module of the game's tests and a function in it (a name ending in "_" stands for the
tests that start with it, and must match at least one)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

from referee.games import REGISTRY

ROOT = Path(__file__).parents[2]
CODE = re.compile(r"`([a-z_]+)(?:\.py)?((?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*)`")
TEST = re.compile(r"\b(test_[a-z0-9_]+)(?:\.py)?::([A-Za-z_][A-Za-z0-9_]*)")


def package_of(kind: str) -> str:
    return REGISTRY[kind].command_events.__module__.rsplit(".", 1)[0]


def rules_text(kind: str) -> str:
    path = ROOT / package_of(kind).replace(".", "/") / "RULES.md"
    return path.read_text()


def resolve(module: ModuleType, dotted: str) -> bool:
    target: object = module
    for name in filter(None, re.split(r"\.|::", dotted)):
        if not hasattr(target, name):
            return False
        target = getattr(target, name)
    return True


KINDS = REGISTRY.kinds()


@pytest.mark.parametrize("kind", KINDS)
def test_every_code_reference_names_a_module_and_attribute_of_the_game(kind: str) -> None:
    package = package_of(kind)
    modules = {path.stem for path in (ROOT / package.replace(".", "/")).glob("*.py")}
    missing = []
    for name, dotted in CODE.findall(rules_text(kind)):
        if name not in modules:
            continue  # a field, an event type or a kernel module named in prose
        module = importlib.import_module(f"{package}.{name}")
        if not resolve(module, dotted):
            missing.append(f"{name}{dotted}")
    assert not missing, f"{kind}: RULES.md names code that does not exist: {missing}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_test_reference_names_a_test_of_the_game(kind: str) -> None:
    folder = ROOT / "tests" / "unit" / package_of(kind).rsplit(".", 1)[1]
    references = TEST.findall(rules_text(kind))
    assert references, f"{kind}: RULES.md cites no test"
    missing = []
    for file, name in references:
        path = folder / f"{file}.py"
        ending = "" if name.endswith("_") else r"\b"
        if not path.exists() or not re.search(
            rf"^(?:def|class) {name}{ending}", path.read_text(), re.M
        ):
            missing.append(f"{file}::{name}")
    assert not missing, f"{kind}: RULES.md cites tests that do not exist: {missing}"

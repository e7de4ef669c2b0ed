"""Every game package has the common skeleton of `referee/games/README.md`.

The same modules for the same roles in every game: whoever knows one package finds their way in
the next. Checked for every registered game, from the package its `GAME` comes from.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from referee.games import REGISTRY
from referee.kernel.wiring import WiredGame

# Each role's module, and what it must define itself (not import from elsewhere).
REQUIRED: dict[str, tuple[str, ...]] = {
    "data": (),
    "options": ("Options", "validate"),
    "state": ("State", "initial_state"),
    "commands": ("Command",),
    "events": ("Event",),
    "setup": ("setup",),
    "stages": ("to_act",),
    "decide": ("decide",),
    "evolve": ("evolve",),
    "legal": ("legal_commands",),
    "views": ("view", "redact"),
    "scoring": ("outcome",),
    "bots": ("imagine", "evaluate"),
    "actions": ("ACTIONS",),
    "game": ("GAME",),
}
# There when the game needs them; then they hold their role.
OPTIONAL: dict[str, tuple[str, ...]] = {
    "checks": ("refuse",),
    "flow": ("next_step",),
}
# Names the packages used for these roles before the skeleton: a role has one name only.
RETIRED = {
    "model": "state.py and options.py",
    "rules": "decide.py, legal.py and checks.py",
    "fold": "evolve.py",
    "automatic": "flow.py",
    "deal": "setup.py",
    "bidding": "checks.py",
}

GAMES = list(REGISTRY)


def package_of(game: Any) -> ModuleType:
    """The package the game's rules come from: the one its `decide` is written in."""
    module = game.command_events.__module__
    return importlib.import_module(module.rpartition(".")[0])


def modules_of(package: ModuleType) -> set[str]:
    return {info.name for info in pkgutil.iter_modules(package.__path__)}


def source_of(package: ModuleType, module: str) -> ast.Module:
    return ast.parse((Path(package.__path__[0]) / f"{module}.py").read_text())


def defined_in(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level: functions, classes, assignments."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@pytest.fixture(params=GAMES, ids=[game.kind for game in GAMES])
def game(request: pytest.FixtureRequest) -> Any:
    return request.param


def test_the_package_is_named_after_the_kind(game: Any) -> None:
    package = package_of(game)
    assert package.__name__ == f"referee.games.{game.kind.replace('-', '_')}"


def test_the_package_has_every_required_module_and_its_rules(game: Any) -> None:
    package = package_of(game)
    missing = set(REQUIRED) - modules_of(package)
    assert not missing, f"{package.__name__} lacks {sorted(missing)}"
    rules = Path(package.__path__[0]) / "RULES.md"
    assert rules.is_file() and rules.read_text().strip(), f"{package.__name__} lacks RULES.md"


def test_init_is_a_docstring_that_exports_game_only(game: Any) -> None:
    package = package_of(game)
    assert package.__doc__ and package.__doc__.strip(), "the door names the game: a docstring"
    assert package.__all__ == ["GAME"]
    tree = ast.parse(Path(package.__file__ or "").read_text())
    body = tree.body[1:]  # after the docstring
    imports = [node for node in body if isinstance(node, ast.ImportFrom)]
    assert [(node.level, node.module, [a.name for a in node.names]) for node in imports] in (
        [(0, f"{package.__name__}.game", ["GAME"])],
        [(1, "game", ["GAME"])],  # from .game import GAME
    ), "__init__ imports GAME from game.py and nothing else"
    others = [node for node in body if node not in imports]
    assert len(others) == 1, "__init__ holds the docstring, the import of GAME and __all__ only"
    assert defined_in(ast.Module(body=others, type_ignores=[])) == {"__all__"}


def test_game_is_defined_in_game_py(game: Any) -> None:
    package = package_of(game)
    game_module = importlib.import_module(f"{package.__name__}.game")
    assert "GAME" in defined_in(source_of(package, "game"))
    assert game_module.GAME is package.GAME is game
    assert isinstance(game, WiredGame), "game.py wires the package's functions, nothing more"
    for name in ("opening", "command_events", "evolve", "legal_commands", "view", "outcome"):
        module = getattr(game, name).__module__
        assert module.startswith(f"{package.__name__}."), f"{name} comes from {module}"


@pytest.mark.parametrize("role", [*REQUIRED, *OPTIONAL])
def test_a_module_named_for_a_role_holds_that_role(game: Any, role: str) -> None:
    package = package_of(game)
    if role not in modules_of(package):
        assert role in OPTIONAL, f"{package.__name__} lacks {role}.py"
        return
    wanted = (REQUIRED | OPTIONAL)[role]
    missing = set(wanted) - defined_in(source_of(package, role))
    assert not missing, f"{role}.py of {package.__name__} does not define {sorted(missing)}"


def test_no_module_keeps_a_retired_role_name(game: Any) -> None:
    package = package_of(game)
    retired = {name: RETIRED[name] for name in modules_of(package) & set(RETIRED)}
    assert not retired, f"{package.__name__}: rename {retired} to the skeleton's modules"

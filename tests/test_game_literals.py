"""No module of ``bot/`` names a game in a string literal, outside the game's own places (issue 27.1).

A layer that needs a fact about a game reads it from the game's ``Game`` (``bot.rules.GAMES``:
deck kind, teams, bids, declarer, contract names, session length, vocabulary) or finds the
game's own module by its name through its layer's registry (``bot/render/games/<game>.py``).
So ``if game == "mus"`` is written nowhere. Allowed: ``bot/rules/__init__.py`` (the registry),
each game's packages ``bot/rules/<game>/`` and ``bot/ai/<game>/``, and per-game modules named
after their game (``bot/render/games/<game>.py``, …).

Read by the syntax tree, not by text: every string constant (f-string pieces included) that is
exactly a game's name counts; docstrings and comments that mention a game in a sentence do not.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bot.rules import GAME_MODULES, GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bot"
#: The layers whose per-game code is one package per game (``bot/<layer>/<game>/``).
GAME_PACKAGES = ("rules", "ai")


def allowed(path: Path) -> bool:
    """True for the places a game's name may be written (see the module docstring)."""
    rel = path.relative_to(ROOT).as_posix()
    if rel == "bot/rules/__init__.py":
        return True
    parts = path.relative_to(PACKAGE).parts
    if len(parts) >= 2 and parts[0] in GAME_PACKAGES and parts[1] in GAMES:
        return True
    return path.stem in GAMES


def game_literals(path: Path) -> list[str]:
    """``file:line: 'name'`` for every string constant of ``path`` that is exactly a game's name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAMES]


def test_the_scan_sees_every_game() -> None:
    assert set(GAMES) == set(GAME_MODULES) and len(GAMES) == 5


def test_the_scan_finds_a_game_literal() -> None:
    probe = PACKAGE / "views" / "probe.py"
    source = 'SPANISH = {"mus"}\nif game == "marias":\n    pass\nx = f"{a}maitre"\n'
    tree = ast.parse(source)
    found = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in GAMES]
    assert found == ["mus", "marias", "maitre"]
    assert not allowed(probe)
    assert allowed(PACKAGE / "render" / "games" / "mus.py")
    assert allowed(PACKAGE / "rules" / "mus" / "state.py")
    assert allowed(PACKAGE / "ai" / "mus" / "spec.py")
    assert not allowed(PACKAGE / "ai" / "registry.py") and not allowed(PACKAGE / "ai" / "strong" / "spec.py")
    assert not allowed(PACKAGE / "rules" / "base.py")


def test_no_module_of_bot_names_a_game_outside_its_own_places() -> None:
    paths = [path for path in sorted(PACKAGE.rglob("*.py")) if not allowed(path)]
    found = [hit for path in paths for hit in game_literals(path)]
    assert not found, "game names written outside the game's own modules:\n" + "\n".join(found)

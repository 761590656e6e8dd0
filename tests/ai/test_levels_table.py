"""The AI's two tables are complete: every game has its AI in the registry (``bot.ai.registry``),
every level has every fact in ``LEVELS`` (``bot.ai.levels``), and no module of ``bot/`` but the
levels' table writes a level's name."""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
import re
from pathlib import Path

import pytest

from bot.ai import levels
from bot.ai.levels import (
    DEFAULT,
    FALLBACK,
    HINT,
    LEVELS,
    LOBBY,
    Button,
    Level,
    Search,
    level_of,
    lobby_choice,
)
from bot.ai.policy import Policy
from bot.ai.registry import ENTRIES, GameAI, game_ai
from bot.ai.strong.spec import GameSpec
from bot.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
POT = (ROOT / "bot" / "locales" / "tapis.pot").read_text(encoding="utf-8")
#: String literals of ``bot/`` that happen to spell a level's name without naming the level: the
#: Jeu du Maître's option ``first`` (who leads the first manche).
NOT_A_LEVEL = {("bot/rules/maitre/state.py", "first")}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_ai_in_one_folder(name: str) -> None:
    entry = game_ai(name)
    assert isinstance(entry, GameAI) and entry.name == name
    folder = ROOT / "bot" / "ai" / name
    for part in ("__init__.py", "easy.py", "spec.py", "determinize.py"):
        assert (folder / part).is_file(), f"bot/ai/{name}/{part} is missing"
    assert isinstance(entry.easy(), Policy)
    assert type(entry.easy()).__module__ == f"bot.ai.{name}.easy"
    assert isinstance(entry.spec, GameSpec) and entry.spec.name == name
    assert entry.determinize.__module__ == f"bot.ai.{name}.determinize"
    game = GAMES[name]
    n = game.default_seats or game.min_seats
    state = game.new_table(seats=n, options=game.validate_options({}), seed=5)
    seat = state.to_act()[0]
    redealt = entry.determinize(state, seat, random.Random(1))
    assert redealt is not state and redealt.view(seat) == state.view(seat)


def test_a_game_without_an_entry_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose folder declares no ``AI`` has no AI at any searching or rule-based level."""
    import bot.ai.motz as motz

    monkeypatch.delitem(ENTRIES, "motz", raising=False)
    monkeypatch.delattr(motz, "AI")
    with pytest.raises(ValueError, match="declares no AI"):
        game_ai("motz")
    with pytest.raises(ValueError):
        game_ai("poker")


@pytest.mark.parametrize("level", LEVELS, ids=str)
def test_every_level_has_every_fact(level: Level) -> None:
    assert isinstance(level, Level) and level_of(level.name) is level
    assert level.name == level and type(level.name) is str
    assert callable(level.factory)
    assert level.search is None or (
        isinstance(level.search, Search) and level.search.budget_ms > 0 and level.search.max_iterations > 0)
    assert isinstance(level.rated, bool)
    if level.button is not None:
        assert isinstance(level.button, Button)
        for msgid in (level.button.label, level.button.sits):
            assert f'msgid "{msgid}"' in POT, f"{msgid!r} is not in bot/locales/tapis.pot"
    for name in GAMES:
        policy = level.policy(name)
        assert isinstance(policy, Policy)
        assert bool(getattr(policy, "searches", False)) == (level.search is not None)
    assert pickle.loads(pickle.dumps(level)) is level  # sent to an AI worker process by name


def test_the_table_names_its_roles() -> None:
    assert {DEFAULT, FALLBACK, HINT} <= set(LEVELS)
    assert HINT.search is not None  # /hint shows a search
    assert DEFAULT.button is not None and LOBBY[0][0] is DEFAULT and LOBBY[0][2] is None
    assert [level for level, _, _ in LOBBY] == [level for level in LEVELS if level.button is not None]
    for level, button, arg in LOBBY:
        assert lobby_choice(arg) == (level, button)
    assert lobby_choice("no-such-level") == (DEFAULT, DEFAULT.button)
    assert dataclasses.is_dataclass(Search) and dataclasses.is_dataclass(Button)
    assert levels.rated(LEVELS) == all(level.rated for level in LEVELS)


def _literals(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module, docstrings and prose (text with a space) left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and " " not in node.value]


def test_only_the_table_names_a_level() -> None:
    """No module of ``bot/`` outside ``bot/ai/levels.py`` has a string literal that is a level's
    name, or holds one as a word (``"ai:strong"``); prose (msgids, docstrings) may speak of them."""
    words = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, LEVELS)) + r")(?![A-Za-z0-9_])")
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "bot/ai/levels.py":
            continue
        for line, value in _literals(path):
            match = words.search(value)
            if match and (rel, value) not in NOT_A_LEVEL:
                found.append(f"{rel}:{line}: {value!r}")
    assert not found, "level names written outside bot/ai/levels.py:\n" + "\n".join(found)


def test_the_scan_sees_a_level_name(tmp_path: Path) -> None:
    """The scan above finds a literal level name and a level inside an identifier-like string."""
    module = tmp_path / "m.py"
    module.write_text('"""Docstring: the strong AI."""\nx = "strong"\ny = f"ai:{z or \'easy\'}"\n'
                      'w = "An expert sits."\n', encoding="utf-8")
    assert sorted(v for _, v in _literals(module)) == ["ai:", "easy", "strong"]

"""Issue 19 point 1: the Discord layer is typed, so an editor can follow a click to the service.

In ``bot/views`` and ``bot/cogs`` every parameter or variable named ``table``, ``bot`` or
``interaction`` is annotated, and never with ``Any``; nothing hides the service behind
``maybe()`` or ``getattr(…tables…)``. (``mypy``, run by ``.ci/run``, checks the types themselves.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYER = [*sorted((ROOT / "bot" / "views").glob("*.py")), *sorted((ROOT / "bot" / "cogs").glob("*.py")),
         *sorted((ROOT / "bot" / "outbox").glob("*.py"))]
NAMES = {"table", "bot", "interaction"}


def loose_annotations(source: str, names: set[str] = NAMES) -> list[str]:
    """``name: annotation`` of every parameter/variable in ``names`` left untyped or typed ``Any``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        pairs: list[tuple[str, ast.expr | None]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            pairs = [(a.arg, a.annotation) for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            pairs = [(node.target.id, node.annotation)]
        for name, annotation in pairs:
            if name not in names:
                continue
            text = ast.unparse(annotation) if annotation is not None else "(none)"
            if annotation is None or "Any" in re.findall(r"\w+", text):
                out.append(f"{name}: {text}")
    return out


def test_table_bot_and_interactions_are_typed() -> None:
    loose = {p.name: found for p in LAYER if (found := loose_annotations(p.read_text(encoding="utf-8")))}
    assert not loose, f"untyped or Any: {loose}"


def test_nothing_hides_the_service() -> None:
    for path in LAYER:
        text = path.read_text(encoding="utf-8")
        assert "maybe(" not in text, path.name
        assert 'getattr(self.bot.tables' not in text and 'getattr(bot.tables' not in text, path.name


def test_the_checker_sees_loose_annotations() -> None:
    src = ("def f(table: Any, bot, interaction: discord.Interaction[TapisBot], other: Any) -> None:\n"
           "    bot2: Any = 1\n    bot: Any = 2\n"
           "def g(interaction: discord.Interaction[Any], table: 'Table') -> None: ...\n")
    assert sorted(loose_annotations(src)) == sorted(
        ["table: Any", "bot: (none)", "bot: Any", "interaction: discord.Interaction[Any]"])


#: bot/tables: what holds a running table is typed too (``mypy --strict`` there as well).
TABLES = sorted((ROOT / "bot" / "tables").glob("*.py"))
TABLE_NAMES = {"table", "s", "session", "state", "rules", "clone", "job", "conn"}


def test_the_table_service_is_typed_without_any() -> None:
    """Tables, sessions, rules states and games are never ``Any`` in bot/tables, and mypy checks it."""
    loose = {p.name: found for p in TABLES
             if (found := loose_annotations(p.read_text(encoding="utf-8"), TABLE_NAMES))}
    assert not loose, f"untyped or Any: {loose}"
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    files = re.search(r"^files = \[(.*)\]$", config, re.M)
    assert files is not None and '"bot/tables"' in files.group(1)

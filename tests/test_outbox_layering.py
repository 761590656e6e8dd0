"""Issue 27 item 3: a click reads top-down, handler → service → event → outbox.

- The outbox (``bot/outbox``) imports neither the click handlers (``bot.views.handlers``,
  ``bot.views.history``, ``bot.cogs``) nor the table service (``bot.tables`` and its service
  modules): not at run time, not even for a type. It reads tables as data (``bot.tables.model``)
  and refusals (``bot.tables.errors``).
- The handlers import from the outbox only ``bot.outbox.respond`` (answering the interaction in
  hand); everything else they ask of the outbox goes through the bot's ``presenter``.
- The outbox asks the service only what ``TableSource`` declares: no ``.tables`` of the bot or of
  an interaction's client is used in ``bot/outbox`` (``mypy`` checks ``TableSource`` itself).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_cycles import imports_of, modules

ROOT = Path(__file__).resolve().parent.parent
OUTBOX = "bot.outbox"
HANDLERS = ("bot.views.handlers", "bot.views.history", "bot.cogs")
SERVICE = ("bot.tables", "bot.tables.service", "bot.tables.lobby", "bot.tables.autoplay", "bot.tables.resume",
           "bot.tables.session", "bot.tables.parts")
#: What the handlers may import from the outbox.
HANDLERS_MAY_USE = {"bot.outbox.respond"}


def all_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every ``bot`` module ``name`` imports, type-checking imports included."""
    runtime = imports_of(name, path, known)
    typed: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                typed.add(full if full in known else node.module)
        elif isinstance(node, ast.Import):
            typed.update(a.name for a in node.names if a.name in known)
    return runtime | typed


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_outbox_imports_neither_handlers_nor_service() -> None:
    mods = modules()
    known = set(mods)
    bad = {name: sorted(i for i in all_imports(name, path, known)
                        if _within(i, HANDLERS) or i in SERVICE)
           for name, path in mods.items() if _within(name, (OUTBOX,))}
    assert not {k: v for k, v in bad.items() if v}, bad


def test_the_handlers_use_only_the_outbox_answer_helpers() -> None:
    mods = modules()
    known = set(mods)
    bad = {name: sorted(i for i in all_imports(name, path, known)
                        if _within(i, (OUTBOX,)) and i not in HANDLERS_MAY_USE)
           for name, path in mods.items() if _within(name, HANDLERS)}
    assert not {k: v for k, v in bad.items() if v}, bad


def service_calls(source: str) -> list[str]:
    """``x.tables.<attr>`` where ``x`` is not ``self`` (the presenter's own ``TableSource``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "tables":
            owner = node.value
            if not (isinstance(owner, ast.Name) and owner.id == "self"):
                out.append(ast.unparse(node))
    return out


def test_the_outbox_reaches_the_service_only_through_its_interface() -> None:
    found = {p.name: calls for p in sorted((ROOT / "bot" / "outbox").glob("*.py"))
             if (calls := service_calls(p.read_text(encoding="utf-8")))}
    assert not found, found


def test_the_checkers_see_a_violation() -> None:
    assert service_calls("async def f(self):\n    await self.bot.tables.get(1)\n    self.tables.get(2)\n") \
        == ["self.bot.tables"]
    mods = modules()
    known = set(mods)
    path = ROOT / "bot" / "app.py"
    assert "bot.views.handlers" in all_imports("bot.app", path, known)
    assert "bot.tables" in all_imports("bot.app", path, known)  # under TYPE_CHECKING only

"""No import cycle in ``bot/``: the static import graph of the package (every ``import`` and
``from … import`` of a ``bot`` module, at any depth of a module, including imports inside
functions, which only postpone a cycle) has no strongly connected component of more than one
module, apart from the cycles listed in ``KNOWN`` (none left: the Discord layer's
components → handlers → history cycle went with issue 19 point 1). Any new cycle fails.

Imports under ``if TYPE_CHECKING:`` are left out: they never run (they only name a type for the
type checker, e.g. ``TapisBot`` in ``bot/views``), so they cannot make an import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bot"

#: Cycles known today, each as the sorted modules of its component. Shrink this list, never grow it.
KNOWN: list[list[str]] = []


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``bot`` modules ``name`` imports (a ``from pkg import mod`` counts as ``pkg.mod``)."""
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_pkg else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` (their ``else`` is kept)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)


def test_no_new_import_cycle_in_bot() -> None:
    found = cycles(graph())
    new = [c for c in found if c not in KNOWN]
    assert not new, f"new import cycle(s) in bot/: {new}"


def test_known_cycles_are_still_there() -> None:
    """A known cycle that was removed must leave ``KNOWN`` too (so the list only shrinks)."""
    found = cycles(graph())
    gone = [c for c in KNOWN if c not in found]
    assert not gone, f"these cycles are gone, remove them from KNOWN: {gone}"


def test_the_checker_sees_a_cycle() -> None:
    """The checker itself: a two-module cycle and one through a function-level import are found."""
    g = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": set()}
    assert cycles(g) == [["a", "b"]]
    tree = modules()
    known = set(tree)
    assert "bot.rules.base" in imports_of("bot.rules.motz.state", tree["bot.rules.motz.state"], known)


def test_type_checking_imports_are_not_runtime_imports() -> None:
    """An import under ``if TYPE_CHECKING:`` is ignored; one in its ``else`` or a function is not."""
    src = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import bot.app\nelse:\n    import bot.config\n"
        "def f():\n    import bot.rules\n"
    )
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(src)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    assert found == {"bot.config", "bot.rules"}

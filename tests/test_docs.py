"""The repository stands on its own (issue 27.5): ``docs/`` and the README link only to files in
the repository and name nothing outside it, and no product test reaches into ``research/``
(experiments measured and not shipped) or imports one of its drivers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
#: Words that point outside the repository: the old workspace and its folders.
OUTSIDE = re.compile(r"\.\./shared|shared/(notes|tools|rules|seeds|discord-api)|workspace", re.IGNORECASE)
RESEARCH = ROOT / "research"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        resolved = (doc.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{doc.name} links outside the repository: {target}"
        assert resolved.exists(), f"{doc.name} links to a missing {target}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_name_nothing_outside_the_repository(doc: Path) -> None:
    lines = doc.read_text(encoding="utf-8").splitlines()
    hits = [f"{doc.name}:{n}: {line.strip()}" for n, line in enumerate(lines, 1) if OUTSIDE.search(line)]
    assert not hits, "\n".join(hits)


def research_modules() -> set[str]:
    """The importable names of the research drivers (``research/<name>.py``)."""
    return {p.stem for p in RESEARCH.glob("*.py") if p.stem != "__init__"}


def test_the_research_folder_holds_the_experiments() -> None:
    assert {"ceiling", "michigan_peek", "michigan_regret", "motz_decl", "motz_declarations",
            "motz_variants"} <= research_modules()
    assert (RESEARCH / "README.md").is_file()
    assert not any((ROOT / "bench" / f"{name}.py").exists() for name in research_modules())


def research_use(node: ast.AST, names: set[str]) -> str | None:
    """What ``node`` takes from research/: an import of a driver or of ``research``, a driver's
    name given to ``import_module``, or a path into the folder; None otherwise."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        return next((m for m in modules if m.split(".")[0] in names | {"research"}), None)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
        if value in names or value.startswith("research/") or "/research/" in value:
            return value
    return None


def test_no_product_test_uses_research_code() -> None:
    names = research_modules()
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path == Path(__file__).resolve():
            continue  # this checker names them
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            use = research_use(node, names)
            if use is not None:
                found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {use}")
    assert not found, "product tests reaching into research/:\n" + "\n".join(found)


def test_the_research_check_sees_a_use() -> None:
    names = research_modules()
    used = [research_use(node, names) for node in ast.walk(ast.parse(
        'import ceiling\nfrom research.motz_decl import x\nimportlib.import_module("michigan_peek")\n'
        'p = "research/motz_decl.csv"\nimport arena\n'))]
    assert sorted(u for u in used if u) == ["ceiling", "michigan_peek", "research.motz_decl",
                                            "research/motz_decl.csv"]

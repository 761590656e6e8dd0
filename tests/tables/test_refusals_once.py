"""Issue 27 item 4: every fixed refusal of the table service is written once (``bot.tables.errors``),
and the catalogue has each of them, so a reader sees it translated."""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.pofile import read_po

from bot.tables import errors

ROOT = Path(__file__).resolve().parents[2]


def _written(node: ast.expr) -> bool:
    """A message written in place: a string (or f-string), or a choice of which one is."""
    if isinstance(node, ast.IfExp):
        return _written(node.body) or _written(node.orelse)
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def literal_refusals(source: str) -> list[str]:
    """``TableError("…")`` calls whose message is written in place (a string literal)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "TableError":
            out += [ast.unparse(a) for a in node.args if _written(a)]
    return out


def test_no_refusal_is_written_in_place() -> None:
    found = {str(p.relative_to(ROOT)): hits for p in sorted((ROOT / "bot").rglob("*.py"))
             if (hits := literal_refusals(p.read_text(encoding="utf-8")))}
    assert not found, found


def test_every_refusal_is_in_the_catalogue() -> None:
    with open(ROOT / "bot" / "locales" / "tapis.pot", "rb") as f:
        ids = {m.id for m in read_po(f)}
    fixed = [v for k, v in vars(errors).items() if k.isupper() and isinstance(v, str)]
    assert len(fixed) >= 16
    assert not [text for text in fixed if text not in ids]


def test_the_checker_sees_a_literal() -> None:
    src = ('raise TableError("No.")\nraise TableError(A if x else "b")\nraise TableError(CLOSED)\n'
           'raise TableError(A if x else B)\n')
    assert literal_refusals(src) == ["'No.'", "A if x else 'b'"]

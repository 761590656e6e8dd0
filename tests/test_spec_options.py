"""Each spec's host options table (``docs/rules/<game>.md`` section 6) says what the engine's
``OptionSpec`` does: the same options, ranges, choices and defaults (what ``/rules`` prints and the
option help repeats, see ``tests/i18n/test_rules_facts.py``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.rules import GAMES
from bot.rules.base import TABLE_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
#: The options every game's stake is counted in ("≥ 20 × `ante`" is 20 at ante 1).
UNITS = {"ante": 1, "ante_unit": 1, "u": 1, "stake": 1}


def _rows(game: str) -> dict[str, tuple[str, str]]:
    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    section = doc.split("## 6. Host options", 1)[1].split("\n## ", 1)[0]
    return {m[1]: (m[2].strip(), m[3].strip())
            for m in re.finditer(r"^\| `(\w+)`[^|]*\| ([^|]*)\| ([^|]*)\|", section, re.MULTILINE)}


def _times_unit(text: str) -> int | None:
    """``"100 × `ante`"`` / ``"≥ 40 × `u`"`` at one unit; None for any other formula."""
    m = re.fullmatch(r"(?:≥ )?(\d+) × `(\w+)`", text)
    return int(m[1]) * UNITS[m[2]] if m and m[2] in UNITS else None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_spec_options_table_is_the_engines(name: str) -> None:
    game = GAMES[name]
    rows = _rows(name)
    shared = {spec.name for spec in TABLE_OPTIONS}
    mine = [spec for spec in game.options if not spec.hidden and spec.name not in shared]
    assert {spec.name for spec in mine} <= set(rows), "an option the spec does not list"
    unit: dict[str, Any] = {}
    for spec in game.options:
        unit[spec.name] = UNITS.get(spec.name) or spec.resolve_default(unit)
    for spec in mine:
        values, default = rows[spec.name]
        span = re.match(r"(\d+)–(\d+)\b", values)
        if span:
            assert (spec.minimum, spec.maximum) == (int(span[1]), int(span[2])), spec.name
        if spec.choices:
            listed = re.findall(r"[\w]+", values.replace("`", "").replace('"', ""))
            assert [str(c) for c in spec.choices] == listed, spec.name
        if _times_unit(values) is not None:
            assert spec.resolve_minimum(unit) == _times_unit(values), spec.name
        if spec.kind == "bool":
            assert default in ("on", "off", "true", "false"), spec.name
            assert spec.default is (default in ("on", "true")), spec.name
        elif re.fullmatch(r"\d+", default):
            assert spec.default == int(default), spec.name
        elif _times_unit(default) is not None:
            assert spec.resolve_default(unit) == _times_unit(default), spec.name
        elif default.strip('`"') in map(str, spec.choices):
            assert str(spec.default) == default.strip('`"'), spec.name

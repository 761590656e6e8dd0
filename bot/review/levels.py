"""The AI levels' accuracy per game: a data file (``data/levels.json``) written by
``bench/review_levels.py``, which reviews the levels' own seats in AI-only sessions with the
review's search, as a player's sessions are reviewed. Levels are the registry's
(``bot.ai.LEVELS``), shown in its order; a level or game the file lacks is left out."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from bot.ai import LEVELS

FILE = "data/levels.json"


@cache
def _data() -> dict[str, Any]:
    try:
        text = resources.files("bot.review").joinpath(FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    raw = json.loads(text)
    return raw if isinstance(raw, dict) else {}


def level_accuracy(game: str) -> list[tuple[str, float]]:
    """``[(level, accuracy in percent)]`` of ``game``'s measured levels, in the registry's order."""
    measured = (_data().get("games") or {}).get(game) or {}
    names = [str(level) for level in LEVELS]
    return [(name, float(measured[name]["accuracy"])) for name in names
            if isinstance(measured.get(name), dict) and measured[name].get("accuracy") is not None]

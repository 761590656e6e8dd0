"""Grades of a decision and the accuracy of a session, from per-game thresholds (a data file).

The thresholds of each game are fractions of the search's scale (``GameSpec.scale``: 4 stakes in
Marias, 10 antes in Motz, 15 chips in Michigan, 40 points in the Maître, 10 points of match
chance in Mus), so a game played for higher stakes keeps the same grades. They live in
``data/grades.json`` (one entry per game, read by name: no game is named in code) and are
published, in natural units at the default options, in docs/review.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: The grades, best first (their message ids are in ``bot.review.text``).
GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """Upper bounds of a decision's cost for each grade, as fractions of the search's scale."""

    best: float
    good: float
    inaccuracy: float
    mistake: float


@cache
def _table() -> dict[str, Thresholds]:
    raw = json.loads(resources.files("bot.review").joinpath("data/grades.json").read_text(encoding="utf-8"))
    return {k: Thresholds(**v) for k, v in raw.items() if not k.startswith("_")}


def thresholds(game: str) -> Thresholds:
    """The thresholds of ``game`` (``KeyError`` if the data file lacks it: a test checks every game)."""
    return _table()[game]


def grade(game: str, cost: float, scale: float, choices: int = 2) -> str:
    """The grade of a decision that cost ``cost`` (natural unit, >= 0) where ``scale`` is the
    search's unit; a forced decision (one legal move) is always ``best``."""
    if choices <= 1:
        return "best"
    t = thresholds(game)
    rel = max(0.0, cost) / (scale or 1.0)
    for name, bound in zip(GRADES, (t.best, t.good, t.inaccuracy, t.mistake), strict=False):
        if rel <= bound:
            return name
    return "blunder"


def score(game: str, cost: float, scale: float) -> float:
    """A decision's share of accuracy: 1 for no cost, down to 0 at a mistake's upper bound."""
    t = thresholds(game)
    return max(0.0, 1.0 - max(0.0, cost) / ((scale or 1.0) * t.mistake))

"""Mus hand equity per lance, read once from ``bot/ai/mus/data/mus_equity.csv`` (issue 17).

The table is computed by ``tools/mus_equity.py`` (exact counts over the 36 cards a hand leaves;
see its docstring): for each of the 330 hands (strengths high → low, as
``bot.rules.mus.tables.Reading.grande``) and each lance it can win, the probability of beating /
tying one random opposing hand (``beat1``, ``tie1``), the better of two (``beat2``, ``tie2``),
and the probability that one opposing hand cannot play the lance (``none1``: no pares / no
juego). In pares and juego an opposing hand without the combination counts as beaten; punto is
measured against hands without juego. A lookup only ever reads the hand it is given (the seat's
own, or a determinization's), never hidden cards.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import NamedTuple

Desc = tuple[int, ...]

HEADER = "hand,lance,beat1,tie1,beat2,tie2,none1"
_STRENGTH_OF = {"K": 8, "C": 7, "S": 6, "7": 5, "6": 4, "5": 3, "4": 2, "A": 1}


class Equity(NamedTuple):
    """One hand's chances in one lance (see the module docstring)."""

    beat1: float
    tie1: float
    beat2: float
    tie2: float
    none1: float

    def one(self, wins_ties: bool = False) -> float:
        """Chance to win against one opposing hand (all ties when it wins them, else half)."""
        return self.beat1 + (self.tie1 if wins_ties else self.tie1 / 2)

    def two(self, wins_ties: bool = False) -> float:
        """Chance to beat the better of two opposing hands."""
        return self.beat2 + (self.tie2 if wins_ties else self.tie2 / 2)

    def against_holder(self, wins_ties: bool = False) -> float:
        """Chance to win against one opposing hand that can play the lance (it declared pares /
        juego): ``(one − none1) / (1 − none1)``."""
        if self.none1 >= 1.0:
            return 1.0
        return max(0.0, (self.one(wins_ties) - self.none1) / (1.0 - self.none1))


def parse(text: str) -> dict[str, dict[Desc, Equity]]:
    """``{lance: {strengths high → low: Equity}}`` from the CSV text."""
    lines = text.strip().splitlines()
    if lines[0] != HEADER:
        raise ValueError("not a Mus equity table")
    out: dict[str, dict[Desc, Equity]] = {}
    for line in lines[1:]:
        hand, lance, *nums = line.split(",")
        desc = tuple(_STRENGTH_OF[ch] for ch in hand)
        out.setdefault(lance, {})[desc] = Equity(*(float(x) for x in nums))
    return out


@cache
def tables() -> dict[str, dict[Desc, Equity]]:
    """The shipped tables (loaded once, on first use)."""
    text = resources.files("bot").joinpath("ai/mus/data/mus_equity.csv").read_text(encoding="utf-8")
    return parse(text)


def equity(lance: str, desc: Desc) -> Equity | None:
    """The hand's equity in ``lance``; None when it cannot win it (no pares, no juego, or punto
    with juego)."""
    return tables()[lance].get(desc)


def strength(lance: str, desc: Desc) -> float:
    """Chance against one opposing hand that plays ``lance`` (a declared holder in pares and
    juego), ties counted half; 0 when the hand cannot play the lance."""
    eq = tables()[lance].get(desc)
    if eq is None:
        return 0.0
    return eq.against_holder() if lance in ("pares", "juego") else eq.one()

"""Words drawn into the images, through the reader's ``Text`` (the table's language).

A view's phase (``view["phase"]``, named by each game's ``Vocabulary``) and the small shared
pieces; each game layout translates its own labels with ``TableCtx.word`` (an extraction keyword).
"""

from __future__ import annotations

from bot.rules import GAMES
from bot.rules.base import Text, signed
from bot.rules.vocabulary import COMMON


def phase_name(phase: str, game: str, tr: Text) -> str:
    """A view's phase as drawn in the header ("Spare auction", "Enchère de la main de trop"),
    in ``game``'s words (``Game.vocabulary``)."""
    rules = GAMES.get(game)
    return (rules.vocabulary if rules is not None else COMMON).phase(phase, tr)


def deltas_parts(names: list[str], deltas: list[int], tr: Text) -> list[str]:
    """``["Ann +20", "Bob -10"]`` for the non-zero deltas (or ``["no change"]``)."""
    return [f"{names[i]} {signed(d, tr)}" for i, d in enumerate(deltas) if d] or [tr._("no change")]



def decimal(value: float, tr: Text, digits: int = 1) -> str:
    """``12.3`` / ``12,3``: a rating with the language's decimal sign (``tr`` a ``Translator``)."""
    fmt = getattr(tr, "decimal", None)
    return fmt(value, digits) if fmt is not None else f"{value:.{digits}f}"


def signed_decimal(value: float, tr: Text, digits: int = 1) -> str:
    """``+1.5`` / ``-0.3``: a rating's trend, with the language's decimal sign."""
    fmt = getattr(tr, "signed_decimal", None)
    return fmt(value, digits) if fmt is not None else f"{value:+.{digits}f}"


def percent(value: float, tr: Text) -> str:
    """``50%`` / ``50 %``: a win rate in the language."""
    fmt = getattr(tr, "percent", None)
    return fmt(value) if fmt is not None else f"{value:.0%}"

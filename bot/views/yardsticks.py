"""AI levels as yardsticks (issue 32): their ratings as reference lines on the rating board, and
where a player stands against them in ``/stats`` ("you rate above the strong AI").

The AI levels are rated like players (``bot.store.ratings``: one ``ai:<level>`` entry per guild,
game and season) and compared by the same number as the board, ``mu - 3 sigma``. A level's entry
has played many sessions (small sigma) where a new player's has not, so a player rates above a
level once the board's cautious score says so, not at the first win.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.ai.levels import WORDS
from bot.i18n import Translator
from bot.store.boards import LevelRating

T = TypeVar("T")


def level_word(level: str, tr: Translator) -> str:
    """An AI level (its name, as ``bot.ai.levels`` writes it) in the reader's words."""
    pair = WORDS.get(level)
    return tr.p_(*pair) if pair is not None else level


def reference_label(level: str, tr: Translator) -> str:
    """"strong AI": the name of a level's reference line."""
    return tr._("{level} AI", level=level_word(level, tr))


def reference_line(ref: LevelRating, tr: Translator) -> str:
    """A reference line of the rating board's text: not ranked, the level's score in italics."""
    return f"`  ·` ┄ *{reference_label(ref.level, tr)}* — *{tr.decimal(ref.score)}* ┄"


def reference_row(ref: LevelRating, tr: Translator) -> dict[str, Any]:
    """A reference row of the leaderboard image (``bot.render.leaderboard``)."""
    return {"reference": True, "name": reference_label(ref.level, tr), "value": ref.score,
            "shown": tr.decimal(ref.score)}


def merged(
    players: Sequence[T], refs: Sequence[LevelRating], score: Callable[[T], float],
) -> list[T | LevelRating]:
    """Players (best first) with the levels' references between them by score.

    A reference stands above the players who do not rate strictly above it.
    """
    out: list[T | LevelRating] = []
    pending = sorted(refs, key=lambda r: -r.score)
    for p in players:
        while pending and pending[0].score >= score(p):
            out.append(pending.pop(0))
        out.append(p)
    return out + pending


def standing(score: float, refs: Sequence[LevelRating], tr: Translator,
             name: str | None = None) -> str | None:
    """Where a player's rating stands against the AI levels rated in the same game (``/stats``):
    the reader's own ("You rate…"), or, with ``name``, another player's ("Ann rates…")."""
    if not refs:
        return None
    above = [r for r in refs if score > r.score]
    below = [r for r in refs if score <= r.score]
    if not above:
        low = min(below, key=lambda r: r.score)
        words = {"level": level_word(low.level, tr), "score": tr.decimal(low.score)}
        if name is not None:
            return tr._("{name} rates below the {level} AI ({score}).", name=name, **words)
        return tr._("You rate below the {level} AI ({score}).", **words)
    beaten = max(above, key=lambda r: r.score)
    words = {"level": level_word(beaten.level, tr), "score": tr.decimal(beaten.score)}
    if not below:
        if name is not None:
            return tr._("{name} rates above the {level} AI ({score}), the best AI rated here.", name=name,
                        **words)
        return tr._("You rate above the {level} AI ({score}), the best AI rated here.", **words)
    next_up = min(below, key=lambda r: r.score)
    words |= {"next": level_word(next_up.level, tr), "next_score": tr.decimal(next_up.score)}
    if name is not None:
        return tr._("{name} rates above the {level} AI ({score}), below the {next} AI ({next_score}).",
                    name=name, **words)
    return tr._("You rate above the {level} AI ({score}), below the {next} AI ({next_score}).", **words)

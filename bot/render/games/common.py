"""Small helpers shared by the game layouts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.cards import FRENCH_SUITS, SUIT_SYMBOLS

FRENCH_SUIT_ORDER = {s: i for i, s in enumerate(FRENCH_SUITS)}


def per_seat(view: dict[str, Any], key: str, n: int, default: Any = 0) -> list[Any]:
    """``view[key]`` as a list of length ``n`` (padded with ``default`` when missing or short)."""
    value = view.get(key)
    if not isinstance(value, list | tuple):
        return [default] * n
    out = list(value[:n])
    return out + [default] * (n - len(out))


def suit_sym(suit: str | None) -> str:
    return SUIT_SYMBOLS.get(suit or "", "—")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def french_key(order: Sequence[str]):
    """Sort key: suits S H D C, then ranks in ``order`` (first = first shown)."""
    pos = {r: i for i, r in enumerate(order)}

    def key(code: str) -> tuple[int, int]:
        if code in ("X1", "X2"):
            return (9, int(code[1]))
        return (FRENCH_SUIT_ORDER.get(code[-1], 8), pos.get(code[:-1], 99))

    return key

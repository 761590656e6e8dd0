"""Determinization: a clone of the real state where every card hidden from one seat is redealt.

``determinize(game_name, state, seat, rng)`` dispatches to ``determinize/<game>.py``. The
result keeps the seat's own view, every hidden zone's size and the engine's invariants; it
carries no private information beyond what ``seat`` could know (the table seed and stacked
decks are replaced too, so not even future deals leak).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from functools import cache
from typing import Any

Determinizer = Callable[[Any, int, random.Random], Any]


@cache
def determinizer(game_name: str) -> Determinizer:
    """The ``determinize(state, seat, rng)`` function of ``game_name``."""
    try:
        module = importlib.import_module(f"bot.ai.strong.determinize.{game_name}")
    except ModuleNotFoundError as exc:
        raise ValueError(f"no determinizer for game {game_name!r}") from exc
    return module.determinize


def determinize(game_name: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A determinized clone of ``state`` as seen from ``seat``."""
    return determinizer(game_name)(state, seat, rng)

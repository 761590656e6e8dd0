"""Per-game table layouts and hand orders: ``bot/render/games/<game>.py`` for every game of
``bot.rules.GAMES``, found by the game's name.

Each module defines ``draw(t: TableCtx)`` (the table's centre, the seats' plates and the
sidebar) and ``hand_key(view)`` (a sort key for the seat's hand, in that game's order). Which
deck a game's codes belong to is the game's own fact (``Game.spanish``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bot.rules import GAMES


def _load_layouts() -> dict[str, ModuleType]:
    """The layout module of every game, by name; a game without one raises at import."""
    return {name: importlib.import_module(f"{__name__}.{name}") for name in GAMES}


LAYOUTS: dict[str, ModuleType] = _load_layouts()

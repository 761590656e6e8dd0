"""Level "easy": one rule-based policy per game, seeing only the seat's view.

``easy_policy(game)`` is the one lookup (the registry and the strong AI's fallback use it).
"""

from __future__ import annotations

import importlib
from typing import Any

#: Game name -> module in ``bot.ai.easy`` defining ``EasyPolicy``.
EASY_MODULES = {
    "motz": "bot.ai.easy.motz",
    "mus": "bot.ai.easy.mus",
    "marias": "bot.ai.easy.marias",
    "michigan": "bot.ai.easy.michigan",
    "maitre": "bot.ai.easy.maitre",
}


def easy_policy(game_name: str) -> Any:
    """A new easy policy of ``game_name`` (``ValueError`` for a game without one)."""
    module = EASY_MODULES.get(game_name)
    if module is None:
        raise ValueError(f"no easy AI for game {game_name!r}")
    return importlib.import_module(module).EasyPolicy()

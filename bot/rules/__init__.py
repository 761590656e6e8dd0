"""The rules core: every game of Tapis behind one contract (DESIGN.md section 2).

``GAMES`` maps a game name to its :class:`Game`. Pure Python: no Discord, no database, no
images, no clock. Usage::

    from bot.rules import GAMES, IllegalMove
    game = GAMES["motz"]
    state = game.new_table(seats=4, options=game.validate_options({}), seed=1234)
"""

from __future__ import annotations

import importlib

from bot.rules.base import Action, Event, Game, IllegalMove, OptionSpec, State, View

__all__ = [
    "GAMES", "GAME_MODULES", "Action", "Event", "Game", "IllegalMove", "OptionSpec", "State", "View",
    "is_spanish",
]

#: Game modules in display order; each defines ``GAME``.
GAME_MODULES = ("motz", "michigan", "mus", "marias", "maitre")


def _load_games() -> dict[str, Game]:
    """Every game of ``GAME_MODULES``; all five are required, so a missing one raises at import."""
    games: dict[str, Game] = {}
    for name in GAME_MODULES:
        module = importlib.import_module(f"bot.rules.{name}")
        games[module.GAME.name] = module.GAME
    return games


GAMES: dict[str, Game] = _load_games()


def is_spanish(game: str) -> bool:
    """True when the game named ``game`` is played with the Spanish deck (False for an unknown name)."""
    rules = GAMES.get(game)
    return rules is not None and rules.spanish

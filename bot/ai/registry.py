"""Each game's AI, found by the game's name: ``game_ai("mus")`` is ``bot.ai.mus.AI``.

A game's AI lives in one folder, ``bot/ai/<game>/``: ``easy.py`` (the rule-based policy),
``spec.py`` (how the search reads the game: ``bot.ai.strong.spec.GameSpec``), ``determinize.py``
(the redeal with the game's opponent model) and whatever the search needs besides (a fast
rollout, a bettor, tables). Its ``__init__.py`` declares them in one :class:`GameAI` named
``AI``. Nothing else in the AI layer tells one game from another: the levels
(``bot.ai.levels``), the search (``bot.ai.strong``), the coach and the arena ask this registry.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from bot.ai.policy import Policy
from bot.rules import GAMES

if TYPE_CHECKING:
    from bot.ai.strong.spec import GameSpec

__all__ = ["ENTRIES", "GameAI", "determinize", "determinizer", "easy_policy", "game_ai", "spec_for"]

S = TypeVar("S")


@dataclass
class GameAI(Generic[S]):
    """One game's AI, generic in the game's state type ``S``.

    Not frozen: a test or a bench may swap the ``spec`` of a run (``monkeypatch.setattr``).
    """

    name: str
    #: The rule-based policy's class (the easy level, and the search's default model).
    easy: Callable[[], Policy]
    #: How the search reads the game.
    spec: GameSpec[S]
    #: ``determinize(state, seat, rng)``: a clone where every card hidden from ``seat`` is redealt
    #: (the engine's ``redeal``) by the game's reading of the other players.
    determinize: Callable[[S, int, random.Random], S]


#: The entries loaded so far, by game name (each game's folder is imported on first use).
ENTRIES: dict[str, GameAI[Any]] = {}


def game_ai(game_name: str) -> GameAI[Any]:
    """The AI of ``game_name`` (``ValueError`` for a game without one)."""
    entry = ENTRIES.get(game_name)
    if entry is not None:
        return entry
    if game_name not in GAMES:
        raise ValueError(f"no AI for game {game_name!r}")
    try:
        module = importlib.import_module(f"bot.ai.{game_name}")
    except ModuleNotFoundError as exc:
        raise ValueError(f"no AI for game {game_name!r}") from exc
    entry = getattr(module, "AI", None)
    if not isinstance(entry, GameAI) or entry.name != game_name:
        raise ValueError(f"bot.ai.{game_name} declares no AI for game {game_name!r}")
    ENTRIES[game_name] = entry
    return entry


def easy_policy(game_name: str) -> Policy:
    """A new rule-based policy of ``game_name``."""
    return game_ai(game_name).easy()


def spec_for(game_name: str) -> GameSpec[Any]:
    """The search spec of ``game_name``."""
    return game_ai(game_name).spec


def determinizer(game_name: str) -> Callable[[Any, int, random.Random], Any]:
    """The ``determinize(state, seat, rng)`` function of ``game_name``."""
    return game_ai(game_name).determinize


def determinize(game_name: str, state: Any, seat: int, rng: random.Random) -> Any:
    """A determinized clone of ``state`` as seen from ``seat``."""
    return determinizer(game_name)(state, seat, rng)

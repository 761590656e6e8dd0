"""Which policy plays which game at which level.

Levels: ``"first"`` (first legal action), ``"random"``, ``"easy"`` (rule-based, per game) and
``"strong"`` (ISMCTS, ``bot.ai.strong``: it searches when given the real state through
``bot.ai.policy.decide``, and plays like easy without it) and ``"expert"`` (the same search with
a 900 ms budget instead of 200 ms: run it off the event loop). Integer levels are kept for the
table service's stored seats: 0 = first legal, 1 and above = random.
"""

from __future__ import annotations

from functools import cache

from bot.ai.easy import EASY_MODULES, easy_policy
from bot.ai.policy import FirstLegalPolicy, Policy, RandomPolicy

__all__ = ["EASY_MODULES", "LEVELS", "easy_policy", "normalize_level", "policy_for"]

LEVELS = ("first", "random", "easy", "strong", "expert")


def normalize_level(level: str | int) -> str:
    """A level name from a name or a legacy integer level; ``ValueError`` if unknown."""
    if isinstance(level, bool):
        raise ValueError(f"unknown AI level {level!r}")
    if isinstance(level, int):
        return "first" if level <= 0 else "random"
    name = str(level).strip().lower()
    if name not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")
    return name


def policy_for(game_name: str, level: str | int = "easy") -> Policy:
    """The policy playing ``game_name`` at ``level`` (policies are stateless and shared).

    An unknown level, or a game without an AI of that level, raises ``ValueError``.
    """
    return _policy(game_name, normalize_level(level))


@cache
def _policy(game_name: str, name: str) -> Policy:
    if name == "first":
        return FirstLegalPolicy()
    if name == "random":
        return RandomPolicy()
    if name in ("strong", "expert"):
        if game_name not in EASY_MODULES:
            raise ValueError(f"no {name} AI for game {game_name!r}")
        from bot.ai.strong import expert_policy, strong_policy

        return strong_policy(game_name) if name == "strong" else expert_policy(game_name)
    return easy_policy(game_name)


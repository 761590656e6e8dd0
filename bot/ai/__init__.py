"""Seat-fillers: ``policy_for(game, level)`` gives an object with ``choose(view, legal, rng)``.

The levels are one table, ``bot.ai.levels.LEVELS``; each game's AI is one folder
``bot/ai/<game>/`` found by the game's name through ``bot.ai.registry``; the search shared by the
searching levels is ``bot.ai.strong``. This package re-exports the entry points the table service
uses. The AI sees exactly the view a human in the same seat would, and draws randomness only
from the ``rng`` it is given.
"""

from bot.ai.levels import LEVELS, Level, level_of, normalize_level, policy_for
from bot.ai.policy import FirstLegalPolicy, Policy, RandomPolicy

__all__ = [
    "LEVELS", "FirstLegalPolicy", "Level", "Policy", "RandomPolicy", "level_of", "normalize_level",
    "policy_for",
]

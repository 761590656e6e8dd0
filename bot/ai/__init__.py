"""Seat-fillers: ``policy_for(game, level)`` gives an object with ``choose(view, legal, rng)``.

The policies live in ``bot.ai.policy`` and the level registry in ``bot.ai.registry``; this
package re-exports the entry points the table service uses. The AI sees exactly the view a
human in the same seat would, and draws randomness only from the ``rng`` it is given.

Levels (``LEVELS``): ``"first"``, ``"random"``, ``"easy"`` (rule-based, one module per game in
``bot.ai.easy``) and ``"strong"`` (ISMCTS, 200 ms per decision) and ``"expert"`` (the same search, 900 ms).
Legacy integer levels: 0 = first legal action, 1 and above = random.
"""

from bot.ai.policy import FirstLegalPolicy, Policy, RandomPolicy
from bot.ai.registry import LEVELS, normalize_level, policy_for

__all__ = ["LEVELS", "FirstLegalPolicy", "Policy", "RandomPolicy", "normalize_level", "policy_for"]

"""The searching levels: single-observer ISMCTS over determinizations of the real state.

``StrongPolicy(game, budget_ms, max_iterations, expert)``; its ``choose`` takes the real state as
an extra ``state=`` argument (without it, it plays the easy policy). Game-independent modules:
``spec`` (``GameSpec``: what the search needs to know of a game; each game's is in
``bot/ai/<game>/spec.py``), ``ismcts`` (the search), ``endgame`` (exact end of a deal),
``paired`` (root moves on the same deals), ``keys``, ``policy`` (the player). The levels that
use it and their limits are in ``bot.ai.levels``; ``bot.ai.arena`` plays them against others.
"""

from __future__ import annotations

from bot.ai.strong.policy import StrongPolicy

__all__ = ["StrongPolicy"]

"""Levels "strong" and "expert": single-observer ISMCTS over determinizations of the real state.

``strong_policy(game_name)`` (200 ms per decision), ``expert_policy(game_name)`` (900 ms) and
``StrongPolicy(game, budget_ms, max_iterations)``; its ``choose``
takes the real state as an extra ``state=`` argument (without it, it plays the easy policy).
Modules: ``determinize/`` (one redealer per game), ``games`` (deal ends, rewards, pruning),
``ismcts`` (the search), ``policy`` (the player); ``bot.ai.arena`` plays it against other levels.
"""

from __future__ import annotations

from bot.ai.strong.policy import StrongPolicy, expert_policy, strong_policy

__all__ = ["StrongPolicy", "expert_policy", "strong_policy"]

"""``StrongPolicy``: the searching levels' player, ISMCTS over the rules core's ``clone()``.

Its defaults (``DEFAULT_BUDGET_MS``, ``DEFAULT_MAX_ITERATIONS``) are the strong level's; the
levels' table (``bot.ai.levels.LEVELS``) gives each searching level its limits.

Search needs the real state to determinize from, which the plain ``Policy`` interface
(``choose(view, legal, rng)``) does not carry. So ``choose`` takes an optional ``state``:

* ``choose(view, legal, rng, state=state)`` searches (``ismcts.search``) for the seat to act,
  within ``budget_ms`` (default 200) and ``max_iterations``. The state is only cloned and
  determinized, never mutated, and the search never looks at a card the seat may not see.
* ``choose(view, legal, rng)`` without a state falls back to the game's easy policy.
* A decision with one legal action returns at once, without searching.

The caller (the table service, the arenas, via ``bot.ai.policy.decide``) passes ``state``; everything the
policy draws at random comes from ``rng`` (the time budget makes the choice itself depend on
the machine's speed; replay uses the action log, never the AI). The search is pure Python and
holds the GIL for up to ``budget_ms``: call it off the event loop (a process pool, or a thread
if a stall of that length is acceptable). ``choose_traced`` also returns the search's
statistics (for the arena and tests); the policy itself keeps no per-decision state, so one
shared instance may serve several worker threads at once (the registry's contract).
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from bot.ai.policy import Action, View
from bot.ai.registry import easy_policy, spec_for
from bot.ai.strong.ismcts import SearchResult, search
from bot.ai.strong.keys import action_key

DEFAULT_BUDGET_MS = 200.0
DEFAULT_MAX_ITERATIONS = 20_000


class StrongPolicy:
    """ISMCTS player for one game (see the module docstring for the ``state`` argument)."""

    #: Callers pass the real state (``bot.ai.policy.decide``) so the search can determinize it.
    searches = True

    def __init__(
        self,
        game: str,
        budget_ms: float = DEFAULT_BUDGET_MS,
        max_iterations: int | None = DEFAULT_MAX_ITERATIONS,
        expert: bool = False,
    ):
        self.game = game
        self.spec = spec_for(game)
        if expert and self.spec.expert_overrides:
            self.spec = dataclasses.replace(self.spec, **dict(self.spec.expert_overrides))
        self.budget_ms = budget_ms
        self.max_iterations = max_iterations
        self.fallback = easy_policy(game)
        #: The move kept unless the search beats it (``GameSpec.prior_policy``, else easy's).
        make_prior = (expert and self.spec.expert_prior_policy) or self.spec.prior_policy
        self.prior = make_prior() if make_prior is not None else self.fallback
        model = self.spec.model_policy() if self.spec.model_policy is not None else self.fallback
        self.rollout = model if self.spec.rollout_easy else None
        self.opponents = model if self.spec.model_opponents else None

    def choose(self, view: View, legal: list[Action], rng: random.Random, state: Any = None) -> Action:
        """One of ``legal``: searched when ``state`` is given, else the easy policy's choice."""
        return self.choose_traced(view, legal, rng, state)[0]

    def choose_traced(
        self, view: View, legal: list[Action], rng: random.Random, state: Any = None,
    ) -> tuple[Action, SearchResult | None]:
        """``choose``'s action and the search's statistics (None when it did not search)."""
        if len(legal) == 1:
            return legal[0], None
        if state is None:
            return self.prior.choose(view, legal, rng), None
        spec = self.spec
        if spec.search_when is not None and not spec.search_when(view, legal):
            return self.prior.choose(view, legal, rng), None
        easy = None
        z = spec.prior_z if spec.prior_z_of is None else spec.prior_z_of(legal)
        if z is not None:
            easy = self.prior.choose(view, legal, random.Random(rng.getrandbits(64)))
        seat = view["to_act"][0] if view.get("to_act") else state.to_act()[0]
        result = search(
            self.game, self.spec, state, seat, random.Random(rng.getrandbits(64)),
            budget_ms=self.budget_ms, max_iterations=self.max_iterations, rollout_policy=self.rollout,
            opponent_policy=self.opponents,
        )
        key = action_key(result.action)
        if easy is not None and z is not None:
            key = _with_prior(result, key, action_key(easy), z)
        for a in legal:
            if action_key(a) == key:
                return a, result
        return legal[0], result


def _with_prior(result: SearchResult, best: tuple, easy: tuple, z: float) -> tuple:
    """``best`` if its mean reward beats the easy move's by ``z`` standard errors, else ``easy``
    (after an exact endgame: the standard error of their difference on the same deals)."""
    if best == easy or easy not in result.means:
        return best
    if result.paired is not None:  # PIMC: the two moves on the same determinizations
        diffs = [b - e for b, e in zip(result.paired[best], result.paired[easy], strict=True)]
        n = len(diffs)
        if n < 2:
            return easy
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return best if mean > z * math.sqrt(var / n) and mean > 0 else easy
    var = result.variances or {}
    nb, ne = result.visits.get(best, 0), result.visits.get(easy, 0)
    if not nb or not ne:
        return easy
    se = math.sqrt(var.get(best, 0.0) / nb + var.get(easy, 0.0) / ne)
    return best if result.means[best] - result.means[easy] > z * se else easy

"""How the search reads the Jeu du Maître (``GameSpec``): session points (a strike weighs 40 when a
second can eliminate), relative to the others; rollouts by the easy play read from the state."""

from __future__ import annotations

from bot.ai.maitre.rollout import easy_choice
from bot.ai.strong.spec import GameSpec
from bot.rules.maitre.state import MaitreState

#: The play is solved exactly once the hands hold this many cards in all.
MAITRE_ENDGAME_CARDS = 5


def _maitre_values(s: MaitreState) -> list[float]:
    """Session points, a strike counting as 40 points lost when a second one can eliminate
    (``tours`` ≥ 2; with one tour each seat is Maître once, so a strike costs nothing)."""
    if s.tours < 2:
        return list(s.points)
    return [p - 40 * k for p, k in zip(s.points, s.strikes, strict=True)]


def _maitre_endgame(s: MaitreState) -> bool:
    return s.phase == "play" and sum(len(h) for h in s.hands) <= MAITRE_ENDGAME_CARDS


SPEC: GameSpec[MaitreState] = GameSpec(
    "maitre", lambda s: s.manche, _maitre_values, lambda s: 40.0, relative=True, prior_z=1.0,
    rollout_easy=True, unit="points", endgame=_maitre_endgame, rollout_fast=easy_choice,
)

"""The expert's model of a strong Motz player: easy's rules without the blind muet.

The search models the other seats (and plays its rollouts) with a policy. Easy takes the muet
with a bad hand about a third of the time when the pot is worth it; strong almost never does
(3 of ~3,860 declarations, ``strong/README.md``), so the expert, whose real opponents are strong,
models them as easy that never takes the muet. Everything else is easy's choice.
"""

from __future__ import annotations

import random

from bot.ai.easy.motz import EasyPolicy
from bot.ai.policy import Action, View


class NoMuetEasy:
    """Easy Motz that never takes the muet (``choose`` as the easy policy over the other actions)."""

    def __init__(self) -> None:
        self.easy = EasyPolicy()

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """Easy's choice among ``legal`` without ``take_muet``."""
        kept = [a for a in legal if a["type"] != "take_muet"]
        return self.easy.choose(view, kept or legal, rng)

"""The Marias expert's model of the table: the easy player, but a defender doubles.

Inside the search the other seats (and the rollouts) play a cheap policy from their own view.
Easy passes in the flek phase unless its hand is very strong; the searching levels, as
defenders, double a contract nobody has doubled in almost every deal (strong at 300 iterations:
139 of 141 plain games, 35 of 35 betl and sedma, in easy-bid deals; issue 17, ``strong/README.md``),
since an unchallenged plain game is conceded to the soloist. A soloist who models its defenders
as easy expects the concession and misjudges its trumps, contract and discards; the expert's
model has every defender double once.
"""

from __future__ import annotations

import random

from bot.ai.marias.easy import EasyPolicy
from bot.ai.policy import Action, View


class FlekkingDefence:
    """Easy Marias, except that a defender always doubles (``flek``) at flek level 0."""

    def __init__(self) -> None:
        self.easy = EasyPolicy()

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """``flek`` for a defender while nobody has doubled, else the easy policy's move."""
        if legal[0]["type"] == "flek" and not view.get("flek") and view["to_act"][0] != view.get("soloist"):
            return legal[0]
        return self.easy.choose(view, legal, rng)

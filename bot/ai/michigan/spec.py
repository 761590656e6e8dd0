"""How the search reads Michigan (``GameSpec``): stacks plus the seat's stakes on the pools; a lead
is compared suit by suit on the same deals (``paired``), rolled out by the easy lead."""

from __future__ import annotations

import random

from bot.ai.michigan.rollout import easy_lead
from bot.ai.policy import Action
from bot.ai.strong.spec import GameSpec
from bot.rules.michigan import MichiganState
from bot.rules.michigan.tables import PLAY


def _michigan_values(s: MichiganState) -> list[float]:
    """Stack plus the seat's own contributions still lying on the pools."""
    n = s.cfg.n
    c = s.contrib
    return [s.stacks[i] + c[i] + c[n + i] + c[2 * n + i] + c[3 * n + i] for i in range(n)]


def _michigan_easy_lead(
    s: MichiganState, seat: int, legal: list[Action], rng: random.Random,
) -> Action | None:
    return easy_lead(s, seat, legal)


def _michigan_paired(s: MichiganState) -> bool:
    """A lead (at most four suits, issue 17): every suit rolled out on the same deals (``paired``);
    the variant's spare-hand choice and bids keep the tree."""
    return s.phase == PLAY


SPEC: GameSpec[MichiganState] = GameSpec(
    "michigan", lambda s: s.deals_played, _michigan_values, lambda s: 15.0 * s.cfg.c, rollout_easy=True,
    model_opponents=True, prior_z=1.0, paired_root=_michigan_paired,
    rollout_fast=_michigan_easy_lead,
)

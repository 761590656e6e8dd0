"""The AI of Michigan: the easy policy, the search's spec and the determinizer (``bot.ai.registry``)."""

from __future__ import annotations

from bot.ai.michigan import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.michigan import MichiganState

AI: GameAI[MichiganState] = GameAI("michigan", easy.EasyPolicy, spec.SPEC, determinize.determinize)

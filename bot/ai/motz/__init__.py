"""The AI of Motz: the easy policy, the search's spec and the determinizer (``bot.ai.registry``)."""

from __future__ import annotations

from bot.ai.motz import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.motz import MotzState

AI: GameAI[MotzState] = GameAI("motz", easy.EasyPolicy, spec.SPEC, determinize.determinize)

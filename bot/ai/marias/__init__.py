"""The AI of Marias: the easy policy, the search's spec and the determinizer (``bot.ai.registry``)."""

from __future__ import annotations

from bot.ai.marias import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.marias import MariasState

AI: GameAI[MariasState] = GameAI("marias", easy.EasyPolicy, spec.SPEC, determinize.determinize)

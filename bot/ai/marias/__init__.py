"""The AI of Marias: the easy policy, the search's spec and the determinizer (``bot.ai.registry``):
the calls and the plays read (``determinize.determinize``, issue 32 item 4)."""

from __future__ import annotations

from bot.ai.marias import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.marias import MariasState

AI: GameAI[MariasState] = GameAI("marias", easy.EasyPolicy, spec.SPEC, determinize.determinize)

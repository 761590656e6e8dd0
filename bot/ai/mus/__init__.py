"""The AI of Mus: the easy policy, the search's spec and the determinizer (``bot.ai.registry``)."""

from __future__ import annotations

from bot.ai.mus import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.mus.state import MusState

AI: GameAI[MusState] = GameAI("mus", easy.EasyPolicy, spec.SPEC, determinize.determinize)

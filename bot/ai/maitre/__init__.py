"""The AI of Jeu du Maître: the easy policy, the search's spec and the determinizer (``bot.ai.registry``)."""

from __future__ import annotations

from bot.ai.maitre import determinize, easy, spec
from bot.ai.registry import GameAI
from bot.rules.maitre.state import MaitreState

AI: GameAI[MaitreState] = GameAI("maitre", easy.EasyPolicy, spec.SPEC, determinize.determinize)

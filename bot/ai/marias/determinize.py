"""Marias determinization: the engine's redeal (``MariasState.redeal``), nothing more.

The constraints on Marias's hidden cards (the trump card, sedma and kilo cards held by their
seat, the talon's rules) are public facts the engine keeps itself; the AI adds no reading of
the other players here. ``determinize_shown`` also keeps what the plays showed (no card of a suit
a seat did not follow, nothing above a card it could not beat: ``bot.rules.marias.shown``); it is
measured (issue 32, item 4) before it may replace ``determinize``.
"""

from __future__ import annotations

import random

from bot.ai.search_copy import for_search
from bot.rules.marias import MariasState


def determinize(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal of ``state`` for ``seat`` (every card hidden from it dealt again at random)."""
    return for_search(state.redeal(seat, rng))


def determinize_shown(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal of ``state`` for ``seat`` keeping what this deal's plays showed of the other hands."""
    return for_search(state.redeal(seat, rng, shown=True))

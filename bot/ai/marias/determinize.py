"""Marias determinization: the engine's redeal (``MariasState.redeal``), nothing more.

The constraints on Marias's hidden cards (the trump card, sedma and kilo cards held by their
seat, the talon's rules) are public facts the engine keeps itself; the AI adds no reading of
the other players here.
"""

from __future__ import annotations

import random

from bot.rules.marias import MariasState


def determinize(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal of ``state`` for ``seat`` (every card hidden from it dealt again at random)."""
    return state.redeal(seat, rng)

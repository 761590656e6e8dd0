"""Marias determinization: the engine's redeal (``MariasState.redeal``) keeping what the plays
showed, weighed by the other seats' calls (``determinize``, the levels').

The constraints on Marias's hidden cards (the trump card, sedma and kilo cards held by their
seat, the talon's rules) are public facts the engine keeps itself. ``determinize_shown`` also
keeps what this deal's plays showed of the other hands (no card of a suit a seat did not follow,
nothing above a card it could not beat: ``bot.rules.marias.shown``). Issue 32's item 4 measured
both readings built on it against the plain redeal on the same deals at equal time: ``shown``
bought ΔĒ +1.71 (+0.27 … +3.14) jetons a session, and the calls read on top of it
(``bot.ai.marias.calls.determinize_calls``) +2.96 (+1.42 … +4.51), +1.26 (+0.02 … +2.49) over
``shown``; so ``determinize``, the levels' determinizer, is the calls reading. The two redeals
live in ``bot.ai.marias.redeal`` and are named here too, as the plan's runs name them
(``--spec determinize="bot.ai.marias.determinize:determinize_plain"`` pins the Marias peeks to the
redeal their honest run played with).
"""

from __future__ import annotations

import random

from bot.ai.marias.calls import determinize_calls
from bot.ai.marias.redeal import determinize_plain, determinize_shown
from bot.rules.marias import MariasState

__all__ = ["determinize", "determinize_plain", "determinize_shown"]


def determinize(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal for ``seat`` keeping what the plays showed, weighed by the other seats' calls
    (``bot.ai.marias.calls.determinize_calls``): the levels' Marias determinizer."""
    return determinize_calls(state, seat, rng)

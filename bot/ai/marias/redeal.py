"""Marias's redeals for the search: the engine's (``MariasState.redeal``), plain or keeping what the
plays showed (``bot.rules.marias.shown``). The levels draw theirs through ``bot.ai.marias.calls``
(``bot.ai.marias.determinize``); ``determinize_plain`` stays for the runs declared with it.
"""

from __future__ import annotations

import random

from bot.ai.search_copy import for_search
from bot.rules.marias import MariasState


def determinize_plain(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal of ``state`` for ``seat`` (every card hidden from it dealt again at random within
    the engine's public constraints), as strong and expert played before issue 32's item 4."""
    return for_search(state.redeal(seat, rng))


def determinize_shown(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A redeal of ``state`` for ``seat`` keeping what this deal's plays showed of the other hands."""
    return for_search(state.redeal(seat, rng, shown=True))

"""Marias determinization: the engine's redeal (``MariasState.redeal``) keeping what the plays showed.

The constraints on Marias's hidden cards (the trump card, sedma and kilo cards held by their
seat, the talon's rules) are public facts the engine keeps itself. The shipped ``determinize``
also keeps what this deal's plays showed of the other hands (no card of a suit a seat did not
follow, nothing above a card it could not beat: ``bot.rules.marias.shown``): issue 32's item 4
measured it against the plain redeal on the same deals at equal time and it bought
ΔĒ +1.71 (+0.27 … +3.14) jetons a session, so it replaced ``determinize_plain``, which stays for
the runs declared with it (the Marias peeks pin it with ``--spec``, so they still compare with
the honest run played before the change).
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


#: The determinizer strong and expert search with (``bot.ai.registry``).
determinize = determinize_shown

"""Michigan determinization: the engine's redeal (``MichiganState.redeal``), nothing more.

Every constraint on the hidden cards in Michigan is a public fact the engine keeps itself (the
dead hand's known cards, the buyer's knowledge of the spare hand, who the lead passed over);
the AI adds no reading of the other players here.
"""

from __future__ import annotations

import random

from bot.rules.michigan import MichiganState


def determinize(state: MichiganState, seat: int, rng: random.Random) -> MichiganState:
    """A redeal of ``state`` for ``seat`` (every card hidden from it dealt again at random)."""
    return state.redeal(seat, rng)

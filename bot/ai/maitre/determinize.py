"""Jeu du Maître determinization: the engine's redeal with a reading of the Maître's Coffre.

``MaitreState.redeal`` reshuffles the other hands, their discards and (unless the seat is the
Maître) the Coffre, keeping every public fact (spec 7). The AI adds one plausible reading of the
Maître (never a peek): a hidden Coffre is not drawn uniformly but chosen out of the Maître's
redealt holding (his hand plus the two Coffre cards) the way a sound Maître chooses, the easy
policy's rule (``bot.ai.maitre.easy.likely_coffre``): Majeure his strongest suit, Mineure his
weakest, its highest number card on top and the lowest underneath. Only the cards still hidden
are read (those he played are not tracked by seat), so late in a manche the reading is weaker,
never inconsistent with the view.
"""

from __future__ import annotations

import random

from bot.ai.maitre.easy import likely_coffre as easy_coffre
from bot.ai.search_copy import for_search
from bot.rules.maitre.state import MaitreState
from bot.rules.maitre.tables import CODES

CODE_ID = {code: i for i, code in enumerate(CODES)}


def determinize(state: MaitreState, seat: int, rng: random.Random) -> MaitreState:
    """A redeal of ``state`` for ``seat`` where a hidden Coffre is the easy Maître's choice."""
    return for_search(state.redeal(seat, rng, choose_coffre=likely_coffre))


def likely_coffre(holding: list[int]) -> tuple[int, int] | None:
    """The (mineure, majeure) pair the easy Maître lays from ``holding`` (engine card ids), or None."""
    pair = easy_coffre([CODES[c] for c in holding])
    return None if pair is None else (CODE_ID[pair[0]], CODE_ID[pair[1]])

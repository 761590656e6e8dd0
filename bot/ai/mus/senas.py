"""How the Mus AI makes and reads señas (``bot.rules.mus.senas``; table option ``senas``).

It makes only señas its hand holds (the first it holds, in the standard order: the most telling
first), one per hand, and reads those it saw as facts about the signer's hand: the determinizer
(``bot.ai.mus.determinize``) redraws that hand until it holds them.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence

from bot.ai.mus.determinize import KNOWN, determinize
from bot.rules.mus import senas
from bot.rules.mus.state import MusState


def ai_sena(hand: Sequence[int], done: Collection[str] = ()) -> str | None:
    """The seña an AI makes with ``hand`` (never one it does not hold), or None."""
    if done:
        return None  # one seña per hand
    held = senas.held(hand)
    return held[0] if held else None


def signed(known: Mapping[int, Sequence[str]]) -> Callable[[MusState, int, random.Random], MusState]:
    """A ``determinize(state, seat, rng)`` that respects the señas ``known`` (per seat) seen."""
    frozen = {s: tuple(v) for s, v in known.items()}

    def run(state: MusState, seat: int, rng: random.Random) -> MusState:
        return determinize(state, seat, rng, frozen)

    return run


@contextlib.contextmanager
def reading(known: Mapping[int, Sequence[str]] | None) -> Iterator[None]:
    """While it lasts, ``determinize`` (hence the search) respects the señas ``known``."""
    token = KNOWN.set(known)
    try:
        yield
    finally:
        KNOWN.reset(token)

"""Dealing hidden cards again under what the play has shown (for the engines' ``redeal``).

A seat that did not follow suit holds none of it; in Marias one that followed without beating
holds nothing higher. ``deal_under`` deals the hidden places from a shuffled pool so that every
seat gets only cards it may hold (``allowed``), uniformly among the deals that do so as far as a
greedy deal can, with an exact matching when the greedy deal runs short.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

#: ``allowed(seat, card)``: may ``seat`` hold ``card``, given what its plays showed?
Allowed = Callable[[int, str], bool]


def deal_under(pool: list[str], places: list[tuple[int, int]], allowed: Allowed,
               strictness: Mapping[int, int], rng: random.Random) -> dict[int, list[str]]:
    """Deal ``places`` (seat, size) from the shuffled ``pool`` so that every seat gets only cards
    ``allowed`` for it; the dealt cards are removed from ``pool`` (the rest stays shuffled, for the
    places dealt after). ``strictness[seat]`` says how constrained a seat is (0 or absent: free).

    With no constrained seat, the seats take the next cards in turn, as a plain deal; otherwise
    every seat, most constrained first, draws uniformly among its allowed cards left (the cards
    before a seat's first allowed one are not a fair sample once another seat has taken the first
    cards of its own suits). If that greedy deal leaves a seat short (several constraints competing
    for few cards), a matching of cards to places finds a deal meeting every constraint; one exists
    whenever the hidden cards came from a real deal. ``ValueError`` if none does.
    """
    if not any(strictness.get(s, 0) for s, _ in places):
        out = {}
        for s, k in places:
            out[s] = pool[:k]
            del pool[:k]
        return out
    order = sorted(places, key=lambda p: (-strictness.get(p[0], 0), p[0]))
    taken: set[int] = set()
    out = {}
    for s, k in order:
        fits = [i for i, c in enumerate(pool) if i not in taken and allowed(s, c)]
        if len(fits) < k:
            return match_under(pool, places, allowed, rng)
        got = rng.sample(fits, k)  # not the first ones: the seats dealt before skewed them
        taken.update(got)
        out[s] = [pool[i] for i in got]
    pool[:] = [c for i, c in enumerate(pool) if i not in taken]
    return out


def match_under(pool: list[str], places: list[tuple[int, int]], allowed: Allowed,
                rng: random.Random) -> dict[int, list[str]]:
    """Cards to places by augmenting paths (Kuhn), over the shuffled pool: a deal meeting every
    constraint whenever one exists; removes the dealt cards from ``pool``."""
    slots = [s for s, k in places for _ in range(k)]
    rng.shuffle(slots)
    owner: dict[int, int] = {}  # pool index -> slot

    def augment(slot: int, seen: set[int]) -> bool:
        for i in range(len(pool)):
            if i in seen or not allowed(slots[slot], pool[i]):
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not augment(slot, set()):
            raise ValueError("no deal meets what the play has shown")  # impossible for a real deal
    out: dict[int, list[str]] = {s: [] for s, _ in places}
    for i, slot in owner.items():
        out[slots[slot]].append(pool[i])
    pool[:] = [c for i, c in enumerate(pool) if i not in owner]
    return out

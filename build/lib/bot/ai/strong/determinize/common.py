"""Helpers shared by the per-game determinizers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def deal_sizes(pool: list[T], sizes: Sequence[int], rng: random.Random) -> list[list[T]]:
    """Shuffle ``pool`` and cut it into consecutive parts of ``sizes`` (which must sum to its length)."""
    rng.shuffle(pool)
    out: list[list[T]] = []
    i = 0
    for n in sizes:
        out.append(pool[i:i + n])
        i += n
    if i != len(pool):
        raise ValueError(f"sizes {list(sizes)} do not cover {len(pool)} hidden cards")
    return out


def fresh_seed(rng: random.Random) -> int:
    """A new table seed, so a determinization cannot replay the real future deals."""
    return rng.getrandbits(48)

"""Who sits with whom in a round: tables of the game's size, repeats avoided. Pure functions.

Both formats seat an ordered list of entrants into ``ceil(n / size)`` tables whose entrant counts
differ by at most one (larger tables first); the seats left over are filled by the AI. The search
places the entrants in order, each at the first table with room where they meet nobody they
have met before; it backtracks, within ``BUDGET`` steps, until no pair meets twice. When that is
impossible (or too costly to find) it takes the arrangement with the fewest repeated meetings a
greedy pass finds. The order decides the rest:

- **club night**: a seeded shuffle per round, so the tables change every round ("rotating who
  sits with whom");
- **Swiss**: the standings, best first, so the leaders meet (the first table holds the top).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence

#: Steps of the backtracking search before the greedy fallback (``bench/tournaments.py``: the worst
#: round of 64 entrants at tables of 4 takes about 0.14 s; the runner seats in a thread).
BUDGET = 4000

Met = Mapping[frozenset[int], int]


def meetings(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """How many times each pair of entrants sat at one table, over ``tables``."""
    met: dict[frozenset[int], int] = {}
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return met


def table_sizes(n: int, size: int) -> list[int]:
    """How many entrants sit at each table: ``ceil(n / size)`` tables, as even as possible."""
    if n <= 0:
        return []
    k = math.ceil(n / size)
    base, extra = divmod(n, k)
    return [base + 1 if i < extra else base for i in range(k)]


def repeats(tables: Sequence[Sequence[int]], met: Met) -> int:
    """Pairs at these tables that have met before (counted once per earlier meeting)."""
    return sum(met.get(frozenset((a, b)), 0) for t in tables for i, a in enumerate(t) for b in t[i + 1 :])


def seat(order: Sequence[int], size: int, met: Met) -> list[list[int]]:
    """Seat ``order`` at tables of ``size`` entrants: no repeated meeting while avoidable."""
    caps = table_sizes(len(order), size)
    tables: list[list[int]] = [[] for _ in caps]
    steps = 0

    def fits(entrant: int, table: list[int]) -> bool:
        return all(frozenset((entrant, other)) not in met for other in table)

    def place(i: int) -> bool:
        nonlocal steps
        if i == len(order):
            return True
        steps += 1
        if steps > BUDGET:
            return False
        tried_empty = False
        for t, cap in enumerate(caps):
            table = tables[t]
            if len(table) >= cap or not fits(order[i], table):
                continue
            if not table:  # empty tables of one size are alike: try only the first
                if tried_empty:
                    continue
                tried_empty = True
            table.append(order[i])
            if place(i + 1):
                return True
            table.pop()
        return False

    if place(0):
        return tables
    return greedy(order, caps, met)


def greedy(order: Sequence[int], caps: Sequence[int], met: Met) -> list[list[int]]:
    """Each entrant in order at the table with room where they meet the fewest earlier opponents."""
    tables: list[list[int]] = [[] for _ in caps]
    for entrant in order:
        best = min(
            (t for t in range(len(caps)) if len(tables[t]) < caps[t]),
            key=lambda t: (sum(met.get(frozenset((entrant, o)), 0) for o in tables[t]), t),
        )
        tables[best].append(entrant)
    return tables


def club_order(entrants: Sequence[int], seed: int, round_no: int) -> list[int]:
    """A club night's order for a round: a shuffle seeded by the event and the round."""
    order = list(entrants)
    random.Random(f"{seed}:{round_no}").shuffle(order)
    return order


def club_round(entrants: Sequence[int], size: int, met: Met, seed: int, round_no: int) -> list[list[int]]:
    """The tables of a club night's round."""
    return seat(club_order(entrants, seed, round_no), size, met)


def swiss_round(ranked: Sequence[int], size: int, met: Met) -> list[list[int]]:
    """The tables of a Swiss round: ``ranked`` is the standings order, best first."""
    return seat(ranked, size, met)

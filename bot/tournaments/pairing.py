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
    found = search(order, caps, met)
    return found if found is not None else greedy(order, caps, met)


def search(order: Sequence[int], caps: Sequence[int], met: Met) -> list[list[int]] | None:
    """The backtracking search: each entrant in order at the first table with room where they meet
    nobody they met before; None when there is no such seating or ``BUDGET`` steps did not find one.

    Iterative (an explicit stack of the tables chosen), so no number of entrants can overflow the
    interpreter's stack; a step is the first visit of an entrant, as in a recursive search.
    """
    tables: list[list[int]] = [[] for _ in caps]
    chosen: list[int] = []  # the table of order[0], order[1], ... as placed so far
    steps, start = 0, 0  # start: the first table to try for the entrant order[len(chosen)]
    while len(chosen) < len(order):
        entrant = order[len(chosen)]
        if start == 0:
            steps += 1
            if steps > BUDGET:
                return None
        t = _next_table(entrant, tables, caps, met, start)
        if t is not None:
            tables[t].append(entrant)
            chosen.append(t)
            start = 0
        elif chosen:  # no table left for this entrant: move the one before to its next table
            last = chosen.pop()
            tables[last].pop()
            start = last + 1
        else:
            return None
    return tables


def _next_table(entrant: int, tables: list[list[int]], caps: Sequence[int], met: Met,
                start: int) -> int | None:
    """The first table from ``start`` with room where ``entrant`` meets nobody met before; of the
    empty tables only the first is tried (empty tables of one size are alike)."""
    first_empty = next((t for t, table in enumerate(tables) if not table), None)
    for t in range(start, len(caps)):
        table = tables[t]
        if len(table) >= caps[t] or (not table and t != first_empty):
            continue
        if all(frozenset((entrant, other)) not in met for other in table):
            return t
    return None


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

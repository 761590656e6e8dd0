"""Standings and prizes of an event, from its finished round tables. Pure functions.

At each table, an entrant scores **2 points for each other entrant they finished ahead of and 1
for each they tied with** (their net result at that table decides); AI seats count for no one.
Heads-up (two entrants at a table, a Mus match) this is 2 for a win, 1 for a draw, 0 for a loss.
A forfeited table scores nothing for anyone and is not a session.

- **Swiss** ranks by points, then **Buchholz** (the sum of the points of every opponent met,
  once per meeting), then net result, then join order.
- **Club night** adds up the scores: it ranks by net result (the jetons won at its tables), then
  points, then join order.

Entrants equal on every key but join order share a rank. Prizes: ``PRIZE_SHARES``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournaments.model import DONE, SWISS, Entrant, RoundTable


@dataclass
class Standing:
    """One line of the standings."""

    entrant: int
    name: str
    points: int = 0
    buchholz: int = 0
    net: int = 0
    sessions: int = 0
    wins: int = 0
    rank: int = 0
    withdrawn: bool = False


def table_points(results: Sequence[int]) -> list[int]:
    """Points of each entrant at one table from their net results (2 per entrant beaten, 1 per tie)."""
    return [
        sum(2 if r > o else 1 if r == o else 0 for j, o in enumerate(results) if j != i)
        for i, r in enumerate(results)
    ]


def compute(entrants: Sequence[Entrant], tables: Sequence[RoundTable], fmt: str) -> list[Standing]:
    """The standings, best first, with ranks (shared on a full tie)."""
    rows = {e.id: Standing(e.id, e.names, withdrawn=e.left_after is not None) for e in entrants}
    order = {e.id: i for i, e in enumerate(entrants)}
    opponents: dict[int, list[int]] = {e.id: [] for e in entrants}
    for t in tables:
        if t.status != DONE or t.results is None:
            continue
        points = table_points(t.results)
        best = max(t.results)
        for who, result, pts in zip(t.entrants, t.results, points, strict=True):
            row = rows.get(who)
            if row is None:
                continue
            row.points += pts
            row.net += result
            row.sessions += 1
            row.wins += int(result == best and len(t.results) > 1 and min(t.results) < best)
            opponents[who].extend(o for o in t.entrants if o != who and o in rows)
    for who, met in opponents.items():
        rows[who].buchholz = sum(rows[o].points for o in met)

    def key(s: Standing) -> tuple[int, ...]:
        if fmt == SWISS:
            return (-s.points, -s.buchholz, -s.net)
        return (-s.net, -s.points)

    ranked = sorted(rows.values(), key=lambda s: (key(s), order[s.entrant]))
    for i, s in enumerate(ranked):
        s.rank = ranked[i - 1].rank if i and key(ranked[i - 1]) == key(s) else i + 1
    return ranked


#: Share of the prize pool (per cent) by place, after the number of entrants ranked.
PRIZE_SHARES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (4, (100,)),  # up to 4 entrants: the winner takes the pool
    (8, (60, 40)),  # 5 to 8: 60 % and 40 %
    (10**9, (50, 30, 20)),  # 9 or more: 50 %, 30 %, 20 %
)


def shares_for(n: int) -> tuple[int, ...]:
    """The prize shares (per cent, by place) for ``n`` entrants."""
    for most, shares in PRIZE_SHARES:
        if n <= most:
            return shares
    return PRIZE_SHARES[-1][1]


def prizes(pool: int, ranked: Sequence[Standing]) -> dict[int, int]:
    """Jetons per entrant: each paid place's share; entrants sharing a rank split the shares of
    the places they cover evenly; every jeton rounding leaves goes to the best-placed winner."""
    if pool <= 0 or not ranked:
        return {}
    shares = shares_for(len(ranked))
    out: dict[int, int] = {}
    i = 0
    while i < len(ranked) and i < len(shares):
        tied = [s for s in ranked if s.rank == ranked[i].rank]
        places = range(i, i + len(tied))
        percent = sum(shares[p] for p in places if p < len(shares))
        amount = pool * percent // 100
        each, rest = divmod(amount, len(tied))
        for k, s in enumerate(tied):
            out[s.entrant] = out.get(s.entrant, 0) + each + (1 if k < rest else 0)
        i += len(tied)
    left = pool - sum(out.values())
    if left:
        first = ranked[0].entrant
        out[first] = out.get(first, 0) + left
    return {k: v for k, v in out.items() if v > 0}


def split(amount: int, members: int) -> list[int]:
    """An entrant's prize split between its members (the odd jeton to the first)."""
    each, rest = divmod(amount, members)
    return [each + (1 if i < rest else 0) for i in range(members)]

"""Mus determinization: reshuffle what ``seat`` cannot see (spec section 7).

Hidden from a seat: the other three hands, their discards of the current exchange round, the
stock and the discard pile. The seat's own discards still lying in the pile stay there (it
knows them, and the pile's layout by round and mano order is public while no reshuffle mixed
it). During the lances the public ``declared`` flags (has pares / has juego) are respected.
"""

from __future__ import annotations

import random

from bot.ai.easy.mus import PERCENTILE, describe, wants_cut
from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.mus.state import MusState
from bot.rules.mus.tables import CODES, read_hand

_MAX_TRIES = 60


def _own_pile_positions(state: MusState, seat: int) -> set[int]:
    """Positions in ``pile`` holding ``seat``'s own discards, when the layout can be read."""
    rounds = state.discard_counts
    left = len(state.pile)
    first = len(rounds)
    while left > 0 and first > 0:
        first -= 1
        left -= sum(rounds[first])
    if left != 0:
        return set()
    mano = (state.d + 1) % 4
    out: set[int] = set()
    pos = 0
    for counts in rounds[first:]:
        for j in range(4):
            s = (mano + j) % 4
            if s == seat:
                out.update(range(pos, pos + counts[s]))
            pos += counts[s]
    return out


def _fits(hand: list[int], pares: tuple[bool, ...] | None, juego: tuple[bool, ...] | None, s: int) -> bool:
    r = read_hand(hand)
    if pares is not None and bool(r.pares[0]) != pares[s]:
        return False
    return juego is None or bool(r.juego) == juego[s]


#: A team that bet in a lance is dealt, among its hands, one at least this strong in that lance
#: (percentile over all hands, ``bot.ai.easy.mus.PERCENTILE``); redeals tried before giving up.
BET_PERCENTILE = 0.6
_BET_TRIES = 20
#: Also redraw deals where the seat that cut the mus holds a hand that would not cut, or a seat
#: that said mus holds one that would (``bot.ai.easy.mus.wants_cut``: a plausible reading).
CUT_INFERENCE = True


def _bets(state: MusState, seat: int) -> list[str]:
    """Lances of this deal in which the other team bet last (an open bet, or a closed lance)."""
    if state.readings is None:
        return []
    them = 1 - (seat & 1)
    out = [r["lance"] for r in state.lances if r.get("team") == them and r["lance"] in PERCENTILE]
    if state.pending and state.bteam == them and state.lance in PERCENTILE:
        out.append(state.lance)
    return out


def _calls(state: MusState, seat: int) -> tuple[int | None, list[int]]:
    """(the seat that cut the mus, the seats that said mus before it) with their present hands,
    other than ``seat``; (None, []) when unknown."""
    if state.phase == "mus":
        mano = (state.d + 1) % 4
        said = [(mano + j) % 4 for j in range(state.pos)]
        return None, [s for s in said if s != seat]
    if state.readings is None:
        return None, []
    pos = state.pos
    cutter = (state.d + 1) % 4 if state.corrido else (state.d + 1 + pos) % 4
    said = [(cutter - j) % 4 for j in range(1, pos + 1)]
    return (cutter if cutter != seat else None), [s for s in said if s != seat]


def _desc(c: MusState, s: int) -> tuple[int, ...]:
    return describe([CODES[x] for x in c.hands[s]])


def _shows_calls(c: MusState, cutter: int | None, said: list[int]) -> bool:
    if cutter is not None and not wants_cut(_desc(c, cutter)):
        return False
    return not any(wants_cut(_desc(c, s)) for s in said)


def _shows_bets(c: MusState, seat: int, lances: list[str]) -> bool:
    them = [s for s in range(4) if (s & 1) != (seat & 1)]
    descs = [_desc(c, s) for s in them]
    for lance in lances:
        table = PERCENTILE[lance]
        if max(table.get(d, 0.0) for d in descs) < BET_PERCENTILE:
            return False
    return True


def determinize(state: MusState, seat: int, rng: random.Random) -> MusState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random.

    When the other team bet in a lance of this deal, a deal where neither of its hands is
    strong in that lance is redrawn (public inference from its bets, up to ``_BET_TRIES``).
    """
    lances = _bets(state, seat)
    cutter, said = _calls(state, seat) if CUT_INFERENCE else (None, [])
    c = _determinize(state, seat, rng)
    if lances or cutter is not None or said:
        for _ in range(_BET_TRIES):
            if _shows_bets(c, seat, lances) and _shows_calls(c, cutter, said):
                break
            c = _determinize(state, seat, rng)
    return c


def _determinize(state: MusState, seat: int, rng: random.Random) -> MusState:
    c = state.clone()
    c.seed = fresh_seed(rng)
    c.decks = None
    c.rng = None
    c._legal = None
    if state.over:
        return c
    others = [s for s in range(4) if s != seat]
    pinned = _own_pile_positions(state, seat)
    pile_free = [i for i in range(len(state.pile)) if i not in pinned]
    pool: list[int] = []
    for s in others:
        pool += state.hands[s]
        pool += state.round_disc[s]
    pool += state.stock
    pool += [state.pile[i] for i in pile_free]
    pool.sort()  # canonical before shuffling: the result depends on no hidden order
    rng.shuffle(pool)
    pares, juego = state.declared if state.readings is not None else (None, None)
    if pares is not None or juego is not None:
        pool = _deal_constrained(c, state, others, pool, pares, juego, rng)
    else:
        for s in others:
            n = len(state.hands[s])
            c.hands[s] = sorted(pool[:n])
            del pool[:n]
    for s in others:
        n = len(state.round_disc[s])
        c.round_disc[s] = sorted(pool[:n])
        del pool[:n]
    n = len(state.stock)
    c.stock = pool[:n]
    del pool[:n]
    for i, card in zip(pile_free, pool, strict=True):
        c.pile[i] = card
    if state.readings is not None:
        c.readings = [read_hand(h) for h in c.hands]
    return c


def _deal_constrained(
    c: MusState, state: MusState, others: list[int], pool: list[int],
    pares: tuple[bool, ...] | None, juego: tuple[bool, ...] | None, rng: random.Random,
) -> list[int]:
    """Deal the other hands one by one, redrawing a hand that contradicts the declarations."""
    for s in others:
        n = len(state.hands[s])
        for _ in range(_MAX_TRIES):
            idx = rng.sample(range(len(pool)), n)
            hand = [pool[i] for i in idx]
            if _fits(hand, pares, juego, s):
                break
        for i in sorted(idx, reverse=True):
            pool.pop(i)
        c.hands[s] = sorted(hand)
    return pool

"""Mus determinization: reshuffle what ``seat`` cannot see (spec section 7).

Hidden from a seat: the other three hands, their discards of the current exchange round, the
stock and the discard pile. The seat's own discards still lying in the pile stay there (it
knows them, and the pile's layout by round and mano order is public while no reshuffle mixed
it). During the lances the public ``declared`` flags (has pares / has juego) are respected.
"""

from __future__ import annotations

import random

from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.mus.hands import read_hand
from bot.rules.mus.state import MusState

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


def determinize(state: MusState, seat: int, rng: random.Random) -> MusState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random."""
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

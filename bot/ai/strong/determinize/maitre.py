"""Jeu du Maître determinization: reshuffle other hands, their discards and the Coffre (spec 7).

Hidden from a seat: the other hands, the other seats' discard piles (counts are public) and,
unless the seat is the Maître, the Coffre. Kept: hand and pile sizes; the Coffre stays two
number cards (A–10, no joker) of different suits, mineure first; before the Coffre is laid,
the Maître's hand keeps number cards of at least two suits (the public redeal rule).
"""

from __future__ import annotations

import random

from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.maitre.state import MaitreState
from bot.rules.maitre.tables import RANK, SUIT

_MAX_TRIES = 50


def _is_number(c: int) -> bool:
    return c < 52 and RANK[c] <= 10


def _two_suits(hand: list[int]) -> bool:
    return len({SUIT[c] for c in hand if _is_number(c)}) >= 2


def determinize(state: MaitreState, seat: int, rng: random.Random) -> MaitreState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random."""
    c = state.clone()
    c.seed = fresh_seed(rng)
    c.decks = None
    c._legal = None
    if state.over:
        return c
    n, m = state.n, state.maitre
    others = [s for s in range(n) if s != seat]
    pool: list[int] = []
    for s in others:
        pool += state.hands[s]
        pool += state.discards[s]
    hide_coffre = seat != m and state.coffre is not None
    if hide_coffre:
        pool += state.coffre
    pool.sort()  # canonical before shuffling: the result depends on no hidden order
    rng.shuffle(pool)
    if hide_coffre:
        c.coffre = _draw_coffre(pool, rng)
    need_suits = state.coffre is None and seat != m and state.phase == "coffre"
    for _ in range(_MAX_TRIES):
        rest = pool[:]
        hands = {}
        for s in others:
            k = len(state.hands[s])
            hands[s] = sorted(rest[:k])
            del rest[:k]
        if not need_suits or _two_suits(hands[m]):
            break
        rng.shuffle(pool)
    for s in others:
        c.hands[s] = hands[s]
        k = len(state.discards[s])
        c.discards[s] = rest[:k]
        del rest[:k]
    return c


def _draw_coffre(pool: list[int], rng: random.Random) -> tuple[int, int]:
    """Take a random (mineure, majeure) pair of number cards of different suits out of ``pool``."""
    nums = [i for i, card in enumerate(pool) if _is_number(card)]
    i = rng.choice(nums)
    js = [j for j in nums if SUIT[pool[j]] != SUIT[pool[i]]]
    j = rng.choice(js)
    pair = (pool[i], pool[j])
    for k in sorted((i, j), reverse=True):
        pool.pop(k)
    return pair

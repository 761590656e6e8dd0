"""Jeu du Maître determinization: reshuffle other hands, their discards and the Coffre (spec 7).

Hidden from a seat: the other hands, the other seats' discard piles (counts are public) and,
unless the seat is the Maître, the Coffre. Kept: hand and pile sizes; the Coffre stays two
number cards (A–10, no joker) of different suits, mineure first; before the Coffre is laid,
the Maître's hand keeps number cards of at least two suits (the public redeal rule).

A plausible reading of the Maître (never a peek): a hidden Coffre is not drawn uniformly but
chosen out of the Maître's redealt holding (his hand plus the two Coffre cards) the way a sound
Maître chooses, the easy policy's rule (``bot.ai.easy.maitre.likely_coffre``): Majeure his
strongest suit, Mineure his weakest, its highest number card on top and the lowest underneath.
Only the cards still hidden are read (those he played are not tracked by seat), so late in a
manche the reading is weaker, never inconsistent with the view.
"""

from __future__ import annotations

import random

from bot.ai.easy.maitre import likely_coffre as easy_coffre
from bot.ai.strong.determinize.common import deal_sizes, fresh_seed
from bot.rules.maitre.state import MaitreState
from bot.rules.maitre.tables import CODES, RANK, SUIT

CODE_ID = {code: i for i, code in enumerate(CODES)}

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
    discard_sizes = [len(state.discards[s]) for s in others]
    hand_sizes = [len(state.hands[s]) + (2 if hide_coffre and s == m else 0) for s in others]
    need_suits = state.coffre is None and seat != m and state.phase == "coffre"
    for _ in range(_MAX_TRIES):
        parts = deal_sizes(pool, hand_sizes + discard_sizes, rng)
        held = parts[others.index(m)] if m in others else []
        if hide_coffre:
            coffre = likely_coffre(held)
            if coffre is None:  # no two number suits among the hidden cards: deal again
                continue
            held.remove(coffre[0])
            held.remove(coffre[1])
            c.coffre = coffre
        if not need_suits or _two_suits(held):
            break
    else:
        if hide_coffre:  # every draw lacked a pair (practically never): a uniform valid pair
            c.coffre = _draw_coffre(pool, rng)
            parts = deal_sizes(pool, [len(state.hands[s]) for s in others] + discard_sizes, rng)
    for i, s in enumerate(others):
        c.hands[s] = sorted(parts[i])
        c.discards[s] = parts[len(others) + i]
    return c


def likely_coffre(holding: list[int]) -> tuple[int, int] | None:
    """The (mineure, majeure) pair the easy Maître lays from ``holding`` (engine card ids), or None."""
    pair = easy_coffre([CODES[c] for c in holding])
    return None if pair is None else (CODE_ID[pair[0]], CODE_ID[pair[1]])


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

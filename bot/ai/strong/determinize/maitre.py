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
from bot.ai.strong.determinize.common import fresh_seed
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
    rng.shuffle(pool)
    need_suits = state.coffre is None and seat != m and state.phase == "coffre"
    for _ in range(_MAX_TRIES):
        rest = pool[:]
        hands = {}
        for s in others:
            k = len(state.hands[s]) + (2 if hide_coffre and s == m else 0)
            hands[s] = rest[:k]
            del rest[:k]
        if hide_coffre:
            coffre = likely_coffre(hands[m])
            if coffre is None:  # no two number suits among the hidden cards: any valid pair
                rng.shuffle(pool)
                continue
            hands[m].remove(coffre[0])
            hands[m].remove(coffre[1])
            c.coffre = coffre
        if not need_suits or _two_suits(hands[m]):
            break
        rng.shuffle(pool)
    else:
        if hide_coffre:  # every draw lacked a pair (practically never): a uniform valid pair
            rest = pool[:]
            c.coffre = _draw_coffre(rest, rng)
            for s in others:
                k = len(state.hands[s])
                hands[s] = rest[:k]
                del rest[:k]
    for s in others:
        hands[s].sort()
        c.hands[s] = hands[s]
        k = len(state.discards[s])
        c.discards[s] = rest[:k]
        del rest[:k]
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

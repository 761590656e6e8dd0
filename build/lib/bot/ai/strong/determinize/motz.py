"""Motz determinization: redeal the other hands and the muet (spec section 7).

The engine keeps neither the stock, the dead pile nor earlier tricks' cards, so the cards a seat
has not seen are the 32 minus its own hand, the turn-up and the current trick. The other hands
and the muet (when still on the table) are dealt again from those, with the same sizes. (Cards
played in this deal's earlier tricks, which a player would remember, are not recorded by the
engine and so count as unseen: a small loss of knowledge, never a leak.)
"""

from __future__ import annotations

import random

from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.cards import DECK_32, SAME_COLOUR
from bot.rules.motz import HAND_ORDER, MotzState

#: Redeals tried to meet the declarations' constraints before accepting an unconstrained deal.
MAX_TRIES = 40


def _good_stand(hand: list[str], trump: str) -> bool:
    """A hand a sensible player stands with: two trumps (second jack included) or a trump-colour jack."""
    second = "J" + SAME_COLOUR[trump]
    trumps = 0
    for c in hand:
        if c[-1] == trump or c == second:
            if c[:-1] == "J":
                return True
            trumps += 1
    return trumps >= 2


def unseen_cards(state: MotzState, seat: int) -> list[str]:
    """The cards ``seat`` has not seen, in canonical order."""
    seen = set(state.hands[seat])
    seen.update(c for _, c in state.trick)
    if state.turn_up is not None:
        seen.add(state.turn_up)
    return [c for c in DECK_32 if c not in seen]


def determinize(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random."""
    c = state.clone()
    c.seed = fresh_seed(rng)
    c.decks = None
    c._legal = None
    if state.is_over():
        return c
    base = unseen_cards(state, seat)
    trump = state.trump
    # Public inference: a seat that stood (and has not played yet) holds a standing hand.
    standers = [
        s for s in range(state.n)
        if s != seat and state.decl[s] == "stand" and len(state.hands[s]) == 3 and trump is not None
    ]
    for _ in range(MAX_TRIES if standers else 1):
        pool = base[:]
        rng.shuffle(pool)
        if all(_good_stand(pool[i * 3:i * 3 + 3], trump) for i in range(len(standers))):
            break
    # the constrained seats take the first cards of the pool, the rest follow in seat order
    order = standers + [s for s in range(state.n) if s != seat and s not in standers]
    for s in order:
        k = len(state.hands[s])
        c.hands[s] = sorted(pool[:k], key=HAND_ORDER.__getitem__)
        del pool[:k]
    if state.muet is not None:
        k = len(state.muet)
        c.muet = pool[:k]
    return c

"""Marias determinization: reshuffle the other hands, the blind five and the talon (spec 7).

Hidden from a seat: the other two hands; before trumps are chosen, forehand's blind five (from
forehand too) and its first seven (from the others); the talon, except from the seat that laid
it. Public facts kept: the trump card stays in forehand's hand until played, and so do the
7 of trumps (sedma) and K Q of trumps (kilo) in the soloist's hand; a suit-contract talon
holds no ace or ten, none of those cards, and exactly ``talon_trumps`` trumps once announced.
Out of ``TRUMP`` the engine never reads the dealt ``deck`` again, so the clone gets the
canonical deck there instead of the real deal.
"""

from __future__ import annotations

import random

from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.cards import DECK_32
from bot.rules.marias.state import TRUMP, MariasState, _left
from bot.rules.marias.tables import CANON, NEEDS_PAIR, NEEDS_SEVEN, SHARP, SUIT, SUIT_CONTRACTS


def _pinned(state: MariasState) -> dict[str, int]:
    """Cards whose holder is public: card -> seat."""
    out: dict[str, int] = {}
    f = _left(state.dealer)
    if state.trump_card is not None:
        out[state.trump_card] = f
    t, s, game = state.trump, state.soloist, state.contract
    if t is not None and s is not None:
        if game in NEEDS_SEVEN:
            out["7" + t] = s
        if game in NEEDS_PAIR:
            out["K" + t] = s
            out["Q" + t] = s
    return {c: seat for c, seat in out.items() if c in state.hands[seat]}


def determinize(state: MariasState, seat: int, rng: random.Random) -> MariasState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random."""
    c = state.clone()
    c.seed = fresh_seed(rng)
    c.opts = {**state.opts, "decks": None}
    c._legal = None
    if state.is_over():
        return c
    f = _left(state.dealer)
    in_trump = state.phase == TRUMP
    first_seven = list(state.deck[0:7])
    pinned = _pinned(state)
    kept: dict[int, list[str]] = {}  # per other seat: cards it keeps (public or seen by ``seat``)
    pool: list[str] = []
    for s in range(3):
        if s == seat and not (in_trump and s == f):
            continue
        keep = [x for x in state.hands[s] if pinned.get(x) == s or (s == seat and x in first_seven)]
        kept[s] = keep
        pool += [x for x in state.hands[s] if x not in keep]
    hide_talon = bool(state.talon) and seat != state.talon_owner
    if hide_talon:
        pool += state.talon
    pool.sort()  # canonical before shuffling: the result depends on no hidden order
    rng.shuffle(pool)
    if hide_talon:
        c.talon = _draw_talon(state, pool, rng)
    for s, keep in kept.items():
        k = len(state.hands[s]) - len(keep)
        hand = keep + pool[:k]
        del pool[:k]
        hand.sort(key=CANON.__getitem__)
        c.hands[s] = hand
    c.deck = _deck_for(c, f, first_seven if seat == f else None, rng) if in_trump else DECK_32
    return c


def _draw_talon(state: MariasState, pool: list[str], rng: random.Random) -> list[str]:
    """Take the talon's cards out of ``pool``, obeying the public talon rules."""
    size = len(state.talon)
    if state.contract not in SUIT_CONTRACTS:
        out = pool[:size]
        del pool[:size]
        return out
    t = state.trump
    ok = [x for x in pool if x not in SHARP]
    want = state.talon_trumps
    if want is None:
        out = ok[:size]
    else:
        trumps = [x for x in ok if SUIT[x] == t]
        plain = [x for x in ok if SUIT[x] != t]
        out = trumps[:want] + plain[:size - want]
    for x in out:
        pool.remove(x)
    if len(out) != size:
        raise ValueError("no talon fits the public facts")
    return out


def _deck_for(c: MariasState, f: int, first: list[str] | None, rng: random.Random) -> tuple[str, ...]:
    """A dealt deck matching the clone's hands in phase TRUMP (forehand's first seven kept if known)."""
    m, d = _left(f), _left(_left(f))
    hf = c.hands[f]
    if first is None:
        first = rng.sample(hf, 7)
    blind = [x for x in hf if x not in first]
    rng.shuffle(blind)
    hm, hd = c.hands[m], c.hands[d]
    return tuple(first + hm[:5] + hd[:5] + blind + hm[5:] + hd[5:])

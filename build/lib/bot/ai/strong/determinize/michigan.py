"""Michigan determinization: reshuffle the other hands and the dead hand (spec section 7).

Public constraint kept: a card ``x + 1`` that never came after a played ``x`` (not an ace) was
in no live hand, so it is in the dead hand. The seat that bought the spare hand at auction
knows the dead hand (its own old hand) and keeps it as it is.
"""

from __future__ import annotations

import random

from bot.ai.strong.determinize.common import fresh_seed
from bot.rules.michigan import DEAD, PLAYED, MichiganState, _Config


def known_dead(owner: list[int]) -> set[int]:
    """Unplayed cards whose predecessor was played (so a run stopped before them): dead-hand cards."""
    out = set()
    for x in range(52):
        if owner[x] == PLAYED and x % 13 != 12 and owner[x + 1] != PLAYED:
            out.add(x + 1)
    return out


def _new_config(cfg: _Config, seed: int) -> _Config:
    new = object.__new__(_Config)
    for name in _Config.__slots__:
        setattr(new, name, getattr(cfg, name))
    new.seed = seed
    new.decks = None
    return new


def determinize(state: MichiganState, seat: int, rng: random.Random) -> MichiganState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random."""
    c = state.clone()
    c.cfg = _new_config(state.cfg, fresh_seed(rng))
    c._legal = None
    if state.is_over():
        return c
    n = state.cfg.n
    owner = state.owner
    dead_known = seat == state.high_seat and state.phase == 0
    pinned = set(x for x in range(52) if owner[x] == DEAD) if dead_known else known_dead(owner)
    slots: list[int] = []  # the owner of each free hidden place
    pool: list[int] = []
    for x in range(52):
        o = owner[x]
        if o == PLAYED or o == seat or x in pinned:
            continue
        if o != DEAD and o < 0:
            continue
        slots.append(o)
        pool.append(x)
    slots.sort()  # canonical: the result depends on no hidden placement
    rng.shuffle(pool)
    new_owner = owner[:]
    for o, x in zip(slots, pool, strict=True):
        new_owner[x] = o
    c.owner = new_owner
    cnt = [0] * (4 * n)
    for x in range(52):
        o = new_owner[x]
        if o >= 0:
            cnt[o * 4 + x // 13] += 1
    c.suitcnt = cnt
    return c

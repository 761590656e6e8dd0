"""Mus determinization: the engine's redeal plus a reading of the other team (spec section 7).

``MusState.redeal`` reshuffles what ``seat`` cannot see, keeping the public facts (its own
discards in the pile, the pares/juego declarations). On top of it, two plausible readings of the
other players (never a peek), each redrawing the whole redeal up to ``_BET_TRIES`` times: a team
that bet in a lance holds a strong hand for it, and the seats that said mus or cut it hold hands
that would (``bot.ai.easy.mus``'s rules).
"""

from __future__ import annotations

import random

from bot.ai.easy.mus import PERCENTILE, describe, wants_cut
from bot.rules.mus.state import MusState
from bot.rules.mus.tables import CODES

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
    c = state.redeal(seat, rng)
    if lances or cutter is not None or said:
        for _ in range(_BET_TRIES):
            if _shows_bets(c, seat, lances) and _shows_calls(c, cutter, said):
                break
            c = state.redeal(seat, rng)
    return c

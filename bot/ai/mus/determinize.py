"""Mus determinization: the engine's redeal plus a reading of the other team (spec section 7).

``MusState.redeal`` reshuffles what ``seat`` cannot see, keeping the public facts (its own
discards in the pile, the pares/juego declarations). On top of it, two plausible readings of the
other players (never a peek), checked on the redealt hands only, which are drawn again up to
``_BET_TRIES`` times (``MusState.redeal``'s ``accept``: only the hands are redrawn, the clone
and the rest of the layout are made once): a team that bet in a lance holds a hand strong for
it by the equity tables (``bot.ai.mus.equity``), and the seats that said mus or cut it hold
hands that would (``bot.ai.mus.easy.wants_cut``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar

from bot.ai.mus.easy import wants_cut
from bot.ai.mus.equity import strength
from bot.rules.mus import senas
from bot.rules.mus.state import MusState
from bot.rules.mus.tables import read_hand

#: A team that bet in a lance is dealt, among its hands, one at least this strong in that lance
#: (``bot.ai.mus.equity.strength``: its chance against one opposing hand that plays the lance,
#: from the shipped equity tables); draws of the hands tried before keeping the last.
BET_STRENGTH = 0.6
_BET_TRIES = 20
_LANCES = ("grande", "chica", "pares", "juego", "punto")
#: Also redraw deals where the seat that cut the mus holds a hand that would not cut, or a seat
#: that said mus holds one that would (``bot.ai.mus.easy.wants_cut``: a plausible reading).
CUT_INFERENCE = True


def _bets(state: MusState, seat: int) -> list[str]:
    """Lances of this deal in which the other team bet last (an open bet, or a closed lance)."""
    if state.readings is None:
        return []
    them = 1 - (seat & 1)
    out = [r["lance"] for r in state.lances if r.get("team") == them and r["lance"] in _LANCES]
    if state.pending and state.bteam == them and state.lance in _LANCES:
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


def _reading_fits(cutter: int | None, said: list[int]) -> Callable[[int, list[int]], bool] | None:
    """Per-hand readings: the cutter would cut, the seats that said mus would not."""
    if cutter is None and not said:
        return None
    said_set = frozenset(said)

    def fits(s: int, hand: list[int]) -> bool:
        if len(hand) != 4:
            return True
        desc = read_hand(hand).grande
        if s == cutter and not wants_cut(desc):
            return False
        return not (s in said_set and wants_cut(desc))

    return fits


def _shows_bets(hands: list[list[int]], them: tuple[int, int], lances: list[str]) -> bool:
    if not lances:
        return True
    a, b = read_hand(hands[them[0]]).grande, read_hand(hands[them[1]]).grande
    for lance in lances:
        if max(strength(lance, a), strength(lance, b)) < BET_STRENGTH:
            return False
    return True


#: The señas the deciding seat saw, per signer, while a search runs (``bot.ai.mus.senas.reading``):
#: the search calls ``determinize(state, seat, rng)`` without them.
KNOWN: ContextVar[Mapping[int, Sequence[str]] | None] = ContextVar("mus_known_senas", default=None)


def _with_senas(fits: Callable[[int, list[int]], bool] | None,
                known: Mapping[int, Sequence[str]] | None) -> Callable[[int, list[int]], bool] | None:
    """``fits`` also requiring each seat's hand to hold the señas ``seat`` saw it make
    (``bot.rules.mus.senas``: señas are truthful, so they are facts, not guesses)."""
    if not known:
        return fits

    def signed(s: int, hand: list[int]) -> bool:
        if len(hand) == 4 and not all(senas.holds(x, hand) for x in known.get(s, ())):
            return False
        return fits is None or fits(s, hand)

    return signed


def determinize(state: MusState, seat: int, rng: random.Random,
                known: Mapping[int, Sequence[str]] | None = None) -> MusState:
    """A clone of ``state`` with every card hidden from ``seat`` dealt again at random.

    ``known``: per seat, the señas of its current hand ``seat`` saw (its partner's, or an
    opponent's it caught): that hand is redrawn until it holds them (like the readings below,
    up to ``REDEAL_TRIES`` draws, the last kept otherwise).

    Each hand of a seat that said mus or cut it is redrawn until it fits that call, and when
    the other team bet in a lance of this deal, the deal is redrawn until one of its hands is
    strong in that lance (public inferences, inside ``MusState.redeal``: up to
    ``REDEAL_TRIES`` draws per hand, ``_BET_TRIES`` per deal).
    """
    if known is None:
        known = KNOWN.get()
    lances = _bets(state, seat)
    cutter, said = _calls(state, seat) if CUT_INFERENCE else (None, [])
    fits = _with_senas(_reading_fits(cutter, said), known)
    if not lances:
        if fits is None:
            return state.redeal(seat, rng)
        return state.redeal(seat, rng, fits=fits)
    them = ((seat + 1) % 4, (seat + 3) % 4)

    def accept(hands: list[list[int]]) -> bool:
        return _shows_bets(hands, them, lances)

    return state.redeal(seat, rng, fits=fits, accept=accept, tries=_BET_TRIES)

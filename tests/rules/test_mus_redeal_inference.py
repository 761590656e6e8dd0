"""``MusState.redeal(seat, rng, fits=..., accept=..., tries=...)``: the AI's inference hooks.

The redrawn hands must satisfy the readings whenever the plain redeal can (checked on many
points of a real session), and the copy keeps every invariant of the plain redeal: the seat's
view and the public view, every zone's size and the same cards overall, the declarations, and
a result that depends only on the seat's view and the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bot.rules.mus.tables import read_hand
from tests.rules.harness import snapshot
from tests.rules.test_redeal import points, sizes, zones


def _kings(hand: list[int]) -> int:
    return read_hand(hand).grande.count(8) if len(hand) == 4 else 4


def test_fits_and_accept_hold_and_keep_the_invariants() -> None:
    checked = 0
    states = [s for seed in range(21, 27) for s in points("mus", 4, seed=seed, every=1)]
    for i, state in enumerate(states):
        if state.over:
            continue
        seat = i % 4
        nxt = (seat + 1) % 4

        def fits(s: int, hand: list[int], nxt: int = nxt) -> bool:
            return s != nxt or _kings(hand) >= 1  # "the next seat holds a king"

        def accept(hands: list[list[int]], seat: int = seat) -> bool:
            them = [(seat + 1) % 4, (seat + 3) % 4]
            return sum(_kings(hands[s]) for s in them) >= 2  # "the other team holds two kings"

        r = state.redeal(seat, random.Random(i), fits=fits, accept=accept, tries=50)
        assert r.view(seat) == state.view(seat) and r.view(None) == state.view(None)
        assert sizes("mus", r, 4) == sizes("mus", state, 4)
        assert Counter(zones("mus", r)) == Counter(zones("mus", state))
        assert len(set(zones("mus", r))) == len(zones("mus", r))
        if r.readings is not None:
            for s in range(4):
                assert bool(r.readings[s].pares[0]) == bool(state.readings[s].pares[0]) or \
                    state.declared[0] is None
        known = [*state.hands[seat], *state.round_disc[seat], *state.pile]
        hidden_kings = 8 - sum(1 for c in known if read_hand([c, c, c, c]).grande[0] == 8)
        if len(state.hands[nxt]) == 4 and hidden_kings >= 5 and state.declared == (None, None):
            assert _kings(r.hands[nxt]) >= 1
            assert sum(_kings(r.hands[s]) for s in ((seat + 1) % 4, (seat + 3) % 4)) >= 2
            checked += 1
    assert checked > 20


def test_with_readings_depends_only_on_the_view_and_the_seed() -> None:
    def fits(s: int, hand: list[int]) -> bool:
        return _kings(hand) >= 1

    for i, state in enumerate(points("mus", 4, seed=8, every=5)):
        seat = i % 4
        twin = state.redeal(seat, random.Random(i + 500))
        a = state.redeal(seat, random.Random(i), fits=fits, accept=lambda h: True, tries=5)
        b = twin.redeal(seat, random.Random(i), fits=fits, accept=lambda h: True, tries=5)
        assert snapshot(a, 4) == snapshot(b, 4)


def test_without_readings_the_plain_redeal_is_unchanged() -> None:
    """No hook: the same draw as before the hooks existed (the engine's rng use is unchanged)."""
    state: Any = points("mus", 4, seed=21, every=1)[3]
    a = state.redeal(0, random.Random(9))
    b = state.redeal(0, random.Random(9), fits=None, accept=None)
    assert snapshot(a, 4) == snapshot(b, 4)


def test_the_declarations_hold_even_when_no_draw_fits_the_reading() -> None:
    """A reading no hand can meet (``fits`` always False) never breaks the public pares/juego
    declarations: a redealt seat that declared no pares must not be dealt pares (an accepted
    órdago in that lance would then have no winner)."""
    states = [s for seed in range(30, 60) for s in points("mus", 4, seed=seed, every=1)]
    checked = 0
    for i, state in enumerate(states):
        if state.over or state.readings is None or state.declared == (None, None):
            continue
        seat = i % 4
        r = state.redeal(seat, random.Random(i), fits=lambda s, h: False, tries=3)
        pares, juego = state.declared
        for s in range(4):
            if pares is not None:
                assert bool(r.readings[s].pares[0]) == pares[s]
            if juego is not None:
                assert bool(r.readings[s].juego) == juego[s]
        checked += 1
    assert checked > 20

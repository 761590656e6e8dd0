"""Motz determinization: the engine's redeal plus one opponent-model constraint (spec section 7).

``MotzState.redeal`` reshuffles the other hands and the muet from the cards the seat has not
seen (never a card played this deal; a seat that showed a void is dealt none of that suit). On
top of it, a plausible reading of the other players (never a peek): a seat that stood and has
not played yet holds a hand a sensible player stands with, so redeals where it does not are
drawn again (up to ``MAX_TRIES``, then the last one is kept).

The expert (``determinize_played``, issue 17 third pass) keeps that reading through the trick
play: a stander's whole hand, the cards it played this deal and the ones it still holds, was a
standing hand.
"""

from __future__ import annotations

import random

from bot.ai.search_copy import for_search
from bot.rules.motz import MotzState
from bot.rules.motz.tables import EFF, PLAY

#: Redeals tried to meet the declarations' constraints before accepting an unconstrained deal.
MAX_TRIES = 40


def _good_stand(hand: list[str], trump: str) -> bool:
    """A hand a sensible player stands with: two trumps (second jack included) or a trump-colour jack."""
    eff = EFF[trump]
    trumps = 0
    for c in hand:
        if eff[c] == trump:
            if c[:-1] == "J":
                return True
            trumps += 1
    return trumps >= 2


def unseen_cards(state: MotzState, seat: int) -> list[str]:
    """The cards ``seat`` has not seen, in canonical order (``MotzState.unseen_cards``)."""
    return state.unseen_cards(seat)


def determinize(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """A redeal of ``state`` for ``seat`` where every seat that stood holds a standing hand."""
    return for_search(_standing(state, seat, rng))


def determinize_played(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """``determinize`` with the standers' reading kept through the trick play: a seat that stood
    (not the muet taker) holds cards that, with the ones it played this deal (public), make a
    standing hand. A stander whose played cards already make one is free; one that has shown it
    holds no trump while its played cards do not make one stood without a standing hand, so the
    reading is dropped for it (never redrawn in vain). The expert's determinizer."""
    return for_search(_standing_played(state, seat, rng))


def _standing(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    c = state.redeal(seat, rng)
    trump = state.trump
    if trump is None or state.is_over():
        return c
    standers = [
        s for s in range(state.n) if s != seat and state.decl[s] == "stand" and len(state.hands[s]) == 3
    ]
    for _ in range(MAX_TRIES - 1 if standers else 0):
        if all(_good_stand(c.hands[s], trump) for s in standers):
            break
        c = state.redeal(seat, rng)
    return c


def _standing_played(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    if state.phase != PLAY or not state.played and not state.trick:
        return _standing(state, seat, rng)
    c = state.redeal(seat, rng)
    trump = state.trump
    if trump is None:
        return c
    played = state.played_by()
    voids = state.shown_voids()
    readers = [
        (s, played.get(s, [])) for s in range(state.n)
        if s != seat and state.decl[s] == "stand" and state.hands[s]
        and not _good_stand(played.get(s, []), trump) and trump not in voids.get(s, ())
    ]
    for _ in range(MAX_TRIES - 1 if readers else 0):
        if all(_good_stand(c.hands[s] + shown, trump) for s, shown in readers):
            break
        c = state.redeal(seat, rng)
    return c

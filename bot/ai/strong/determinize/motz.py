"""Motz determinization: the engine's redeal plus the opponent model's readings (spec section 7).

``MotzState.redeal`` reshuffles the other hands and the muet from the cards the seat has not
seen. On top of it, a plausible reading of the other players (never a peek): a seat that stood
and has not played yet holds a hand a sensible player stands with, so redeals where it does not
are drawn again (up to ``MAX_TRIES``, then the last one is kept).

The expert reads more (``determinize_reading``, issue 17), from public facts only:

* a seat that passed while it could cover the fine held a hand easy's rule passes with (its
  three cards are dead, so they are drawn from the unseen cards as well, and the deal is
  redrawn when they would have stood);
* the hand a muet taker gave up was one easy's rule does not stand with;
* in the trick on the table, a seat that did not follow the led suit holds none of it, and
  one that neither followed nor trumped holds no trump (a rule, not a guess).
"""

from __future__ import annotations

import random

from bot.ai.easy.motz import effective_suit, hand_quality
from bot.rules.cards import SAME_COLOUR
from bot.rules.motz import MotzState
from bot.rules.motz.tables import HAND_ORDER, PLAY

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


def easy_stands(hand: list[str], trump: str, fine: int, stack: int) -> bool:
    """Whether easy's rule (``bot.ai.easy.motz``) stands with ``hand``: two trumps or a jack of
    trump colour, except two low trumps when the fine is over a third of the stack."""
    trumps, jack, ace = hand_quality(hand, trump)
    good = trumps >= 2 or jack
    marginal = trumps == 2 and not jack and not ace
    return good and not (marginal and fine * 3 > stack)


def unseen_cards(state: MotzState, seat: int) -> list[str]:
    """The cards ``seat`` has not seen, in canonical order (``MotzState.unseen_cards``)."""
    return state.unseen_cards(seat)


def determinize(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """A redeal of ``state`` for ``seat`` where every seat that stood holds a standing hand."""
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


def _voids(state: MotzState, seat: int, trump: str) -> dict[int, set[str]]:
    """Effective suits each other seat is known to lack from the trick on the table."""
    trick = state.trick
    if state.phase != PLAY or not trick:
        return {}
    led = effective_suit(trick[0][1], trump)
    out: dict[int, set[str]] = {}
    for s, card in trick[1:]:
        if s == seat:
            continue
        eff = effective_suit(card, trump)
        if eff != led:
            out[s] = {led} if eff == trump else {led, trump}
    return out


Layout = tuple[dict[int, list[str]], list[str], dict[int, list[str]]]


def reading_layout(state: MotzState, seat: int, rng: random.Random) -> Layout | None:
    """The hidden layout ``determinize_reading`` deals, as (live hands of the other seats, muet,
    dead hands of the readable passers and of the muet taker), drawn from the unseen cards
    (sorted, then shuffled by ``rng``) until every reading holds (up to ``MAX_TRIES``; then the
    last draw is kept). None when nothing is read (no stander, passer, muet taker or revoke)."""
    trump = state.trump
    if trump is None or state.is_over():
        return None
    n = state.n
    fine = state.F or 0
    live = [s for s in range(n) if s != seat and state.hands[s]]
    standers = [s for s in live if state.decl[s] == "stand" and len(state.hands[s]) == 3]
    dead = [s for s in range(n) if s != seat and state.decl[s] == "pass" and state.stacks[s] >= fine]
    if state.muet_by is not None and state.muet_by != seat:
        dead.append(state.muet_by)
    voids = _voids(state, seat, trump)
    if not (standers or dead or voids):
        return None
    pool = state.unseen_cards(seat)
    sizes = [(s, len(state.hands[s])) for s in live]
    muet_size = len(state.muet) if state.muet is not None else 0
    hands: dict[int, list[str]] = {}
    held: dict[int, list[str]] = {}
    muet: list[str] = []
    for _ in range(MAX_TRIES):
        rng.shuffle(pool)
        i = 0
        for s, k in sizes:
            hands[s] = pool[i:i + k]
            i += k
        muet = pool[i:i + muet_size]
        i += muet_size
        for s in dead:
            held[s] = pool[i:i + 3]
            i += 3
        if _reads(state, trump, fine, hands, held, standers, voids):
            break
    return hands, muet, held


def _reads(
    state: MotzState, trump: str, fine: int, hands: dict[int, list[str]], held: dict[int, list[str]],
    standers: list[int], voids: dict[int, set[str]],
) -> bool:
    """Whether a drawn layout agrees with every reading."""
    if not all(_good_stand(hands[s], trump) for s in standers):
        return False
    for s, cards in held.items():
        if s == state.muet_by:  # easy takes the muet only with a hand it does not stand with
            if _good_stand(cards, trump):
                return False
        elif easy_stands(cards, trump, fine, state.stacks[s]):
            return False
    return all(
        effective_suit(card, trump) not in lacking for s, lacking in voids.items() for card in hands[s]
    )


def determinize_reading(state: MotzState, seat: int, rng: random.Random) -> MotzState:
    """A redeal of ``state`` for ``seat`` that agrees with the readings of the module docstring
    (``reading_layout``): standers hold a standing hand, passers who could cover the fine and the
    muet taker's given-up hand held one easy does not stand with, the trick's revoked suits are
    void. The expert's determinizer (``GameSpec.expert_overrides``)."""
    c = state.redeal(seat, rng)
    layout = reading_layout(state, seat, rng)
    if layout is None:
        return c
    hands, muet, _ = layout
    for s, cards in hands.items():
        c.hands[s] = sorted(cards, key=HAND_ORDER.__getitem__)
    if state.muet is not None:
        c.muet = muet
    return c

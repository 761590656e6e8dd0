"""The easy Jeu du Maître's trick play read straight from a (determinized) engine state.

The search's rollouts play the easy policy (``GameSpec.rollout_easy``), which reads a view:
building that view (card codes, the last manche's copy) and the string work of the easy rules
took about 60% of a Maître search. ``easy_choice(state, seat, legal, rng)`` makes exactly the
choice ``bot.ai.maitre.easy.EasyPolicy().choose(state.view(seat), legal, rng)`` makes, from the
engine's integer cards and shared action dicts, reading only what that view shows ``seat`` (its
hand, the trick, the last player, its own Coffre when it is the Maître). Outside the trick play
(Coffre, contract) it asks the easy policy itself. ``tests/ai/test_maitre_rollout.py`` checks the
two agree on every decision of many sessions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.ai.maitre.easy import EasyPolicy
from bot.ai.policy import Action
from bot.ai.strong.keys import share_keys
from bot.rules.maitre.state import PLAYING, MaitreState
from bot.rules.maitre.tables import (
    COFFRE,
    CONTRACT,
    DISCARD,
    INFO,
    K_DISCARD,
    K_PLAY,
    K_TAKE,
    LEAD,
    PLAY,
    RANK,
    SUIT,
    TAKE,
    combination,
)

_EASY = EasyPolicy()
# the engine's action dicts are shared module-level objects: their search keys are computed once
share_keys([*PLAY.values(), *DISCARD, TAKE, *CONTRACT.values(), *COFFRE.values()])
_JOKER = 52


def _worth_table(majeure: int | None, mineure: int | None) -> tuple[float, ...]:
    """Per card: ``EasyPolicy``'s ``Values.card`` (the Maître's when his suits are given)."""
    out = []
    for c in range(54):
        if c >= _JOKER:
            out.append(0.0)
        elif majeure is None:
            out.append(0.5)
        elif SUIT[c] == majeure:
            out.append(RANK[c] + 3)
        elif SUIT[c] == mineure:
            out.append(-RANK[c] + 3)
        else:
            out.append(-2.0)
    return tuple(float(x) for x in out)


#: Card worths of a player, and of the Maître per (majeure, mineure) suits.
_PLAYER = _worth_table(None, None)
_MAITRE = {(a, b): _worth_table(a, b) for a in range(4) for b in range(4) if a != b}
#: ``EasyPolicy._card_cost`` per card (a player's; the Maître's is |worth|).
_PLAYER_LEAD = tuple(100.0 if c >= _JOKER else RANK[c] / 13 for c in range(54))
#: Whether a rank (1..13) makes a combination, per (top, prev) ranks of the trick (prev 0: none).
_COMBINES = {
    (top, prev): tuple(r > 0 and combination(r, top, prev) is not None for r in range(14))
    for top in range(1, 14) for prev in range(14)
}


def easy_choice(state: MaitreState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """``EasyPolicy().choose(state.view(seat), legal, rng)``, computed from the state."""
    if state.phase != PLAYING:
        return _EASY.choose(state.view(seat), legal, rng)
    coffre = state.coffre
    maitre = seat == state.maitre and coffre is not None
    if maitre:
        maj, mino = SUIT[coffre[1]], SUIT[coffre[0]]
        worth = _MAITRE[(maj, mino)]
    else:
        maj = mino = -2
        worth = _PLAYER
    hand = state.hands[seat]
    trick = state.trick
    info = INFO
    discard_costs: dict[int, float] = {}
    counts: list[int] = []  # the hand's non-joker cards per rank (1..13), filled on first use

    def discard_cost(card: int) -> float:
        """``Values.discard_cost``: jokers 50; else 2 per other card of a neighbouring or equal
        rank + rank/13 (+ the défausse magistrale's cost of a valued card, for the Maître)."""
        cost = discard_costs.get(card)
        if cost is None:
            if card >= _JOKER:
                cost = 50.0
            else:
                if not counts:
                    counts.extend([0] * 15)
                    for c in hand:
                        if c < _JOKER:
                            counts[RANK[c]] += 1
                r = RANK[card]
                cost = 2.0 * (counts[r - 1] + counts[r] + counts[r + 1] - 1) + r / 13
                if maitre and SUIT[card] in (maj, mino):
                    cost += 10 + r
            discard_costs[card] = cost
        return cost

    if trick:
        returning = state.last == seat
        total = 0.0
        for _, c, _ in trick:
            total += worth[c]
        w_trick = (0.0 if maitre else 1.0) + total
        top = RANK[trick[-1][2]]
        prev = RANK[trick[-2][2]] if len(trick) > 1 else 0
        combines = _COMBINES[(top, prev)]
        best: Action | None = None
        best_w = 0.0
        for a in legal:
            kind, card, ident, _mode, take = info[id(a)]
            if kind == K_TAKE:
                w = w_trick
            elif kind == K_DISCARD:
                if not returning:
                    break  # a follower's discards come after all his plays
                w = w_trick - 0.2 * discard_cost(card)
            elif kind == K_PLAY and (returning or (combines[RANK[ident]] and take is not False)):
                w = w_trick + worth[card] - (3.0 if card >= _JOKER else 0.0)
            else:
                continue
            if best is None or w > best_w:  # ties: the first in the legal order
                best, best_w = a, w
        if best is not None and (returning or best_w >= 0):
            return best
        if w_trick < 0:
            return _cheapest_discard(hand, discard_cost)
    else:  # a lead: one play per card (a joker's identities after it), jokers cost 100
        lead = 0.0
        pick_card = -1
        for c in hand:
            if c < _JOKER:
                cost = abs(worth[c]) if maitre else _PLAYER_LEAD[c]
                if pick_card < 0 or cost < lead:
                    pick_card, lead = c, cost
        return LEAD[hand[0] if pick_card < 0 else pick_card][0]
    pick: Action | None = None
    pick_cost = 0.0
    for a in legal:
        kind, card, _ident, mode, take = info[id(a)]
        if kind != K_PLAY:
            if kind == K_DISCARD:
                break  # the discards come after all the plays
            continue
        if take is not None:
            continue
        if card >= _JOKER:
            cost = 100.0
        else:
            base = abs(worth[card]) if maitre else _PLAYER_LEAD[card]
            cost = base + (0.1 if mode == "valeur" else 0.0)
        if pick is None or cost < pick_cost:
            pick, pick_cost = a, cost
    if pick is not None:
        return pick
    return _cheapest_discard(hand, discard_cost)


def _cheapest_discard(hand: list[int], cost_of: Callable[[int], float]) -> Action:
    """The discard of least ``cost_of(card)``, the first of equals in the hand's order (which is
    the order of the legal discards; a follower may always discard any card of his hand)."""
    pick = hand[0]
    pick_cost = cost_of(pick)
    for c in hand:
        cost = cost_of(c)
        if cost < pick_cost:
            pick, pick_cost = c, cost
    return DISCARD[pick]

"""Easy Michigan's lead, read from a determinization's own arrays (the paired search's rollouts).

``easy_lead(state, seat, legal)`` is the move ``bot.ai.michigan.easy.EasyPolicy`` chooses from
``state.view(seat)``, computed without building the view: the seat's hand and the played cards
are read from ``state.owner``, the dead hand's size from the hand sizes, the pools from
``state.pot``, and the score of each suit is the easy one (``_suit_score``) step for step, in
the same floating-point order, so ties resolve alike (the first of the legal leads).
``tests/ai/test_michigan_paired.py`` checks it against the easy policy at every decision of
whole sessions. Only the seat's own cards and public facts are read, as the view would give.
"""

from __future__ import annotations

from typing import Any

from bot.ai.policy import Action
from bot.rules.michigan.tables import PLAY, PLAYED, POOL_OF

_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}


def suit_score(owner: list[int], seat: int, pot: list[int], p_live: float, suit: int) -> float:
    """Easy's score of leading ``suit`` (``bot.ai.michigan.easy._suit_score``) on card ids."""
    base = 13 * suit
    mine = [v for v in range(13) if owner[base + v] == seat]
    reach = 1.0
    score = 0.0
    ends_mine = 0.0
    for v in range(mine[0], 13):
        x = base + v
        o = owner[x]
        if o == seat:
            pool = POOL_OF[x]
            score += reach * (1.0 + (pot[pool] if pool >= 0 else 0) * 0.5)
            if v == 12 or owner[x + 1] == PLAYED:
                ends_mine += reach
                break
            if owner[x + 1] != seat:
                ends_mine += reach * (1.0 - p_live)
        elif o == PLAYED:
            break
        else:
            pool = POOL_OF[x]
            score -= reach * p_live * (pot[pool] if pool >= 0 else 0) * 0.3
            reach *= p_live
            if reach < 0.02:
                break
    return score + 2.0 * ends_mine + 0.1 * len(mine)


def easy_lead(state: Any, seat: int, legal: list[Action]) -> Action | None:
    """The easy policy's choice among ``legal`` for ``seat``, read from ``state`` (None outside
    the play: the variant's spare-hand decisions are left to the policy itself)."""
    if state.phase != PLAY:
        return None
    owner = state.owner
    n_played = 0
    n_hand = 0
    for o in owner:
        if o == PLAYED:
            n_played += 1
        elif o == seat:
            n_hand += 1
    unknown = 52 - n_hand - n_played
    dead = max(0, 52 - sum(state.sizes) - n_played)
    p_live = 1.0 - (dead / unknown if unknown else 0.0)
    pot = state.pot
    best = legal[0]
    best_score = suit_score(owner, seat, pot, p_live, _SUIT_INDEX[best["suit"]])
    for a in legal[1:]:
        sc = suit_score(owner, seat, pot, p_live, _SUIT_INDEX[a["suit"]])
        if sc > best_score:
            best, best_score = a, sc
    return best

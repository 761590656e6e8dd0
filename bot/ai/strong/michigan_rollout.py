"""Easy Michigan's lead, read from a determinization's own arrays (the paired search's rollouts).

``easy_lead(state, seat, legal)`` is the move ``bot.ai.easy.michigan.EasyPolicy`` chooses from
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
    """Easy's score of leading ``suit`` (``bot.ai.easy.michigan._suit_score``) on card ids."""
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



def _easy_suit(owner: list[int], seat: int, pot: list[int], p_live: float, suits: list[int]) -> int:
    """Easy's suit among ``suits`` (the legal ones, in order; the first on ties)."""
    best = suits[0]
    best_score = suit_score(owner, seat, pot, p_live, best)
    for s in suits[1:]:
        sc = suit_score(owner, seat, pot, p_live, s)
        if sc > best_score:
            best, best_score = s, sc
    return best


def play_out(state: Any, seat: int, suit: int, depth: int = 0) -> int:
    """``seat``'s value (stack plus its own pool contributions) once it has led ``suit`` on the
    fully known ``state`` and the hand has been played to its end, easy leading for every other
    seat and for ``seat`` too (``depth`` 0) or, with ``depth`` d > 0, ``seat`` leading at each of
    its later choices the suit whose own play-out at depth d − 1 leaves it the most (easy's on
    ties). The engine's play (spec 2.4–2.5: runs, pay cards, stops, the blocked suit passed on or
    lifted, the going out and its capped payments) on copies of its arrays, without events.
    ``state`` is untouched; ``tests/ai/test_michigan_own_leads.py`` checks it against the engine."""
    owner = state.owner
    return _finish(
        state.cfg.n, state.cfg.c, seat, depth, owner[:], state.sizes[:], state.suitcnt[:],
        state.stacks[:], state.pot[:], state.contrib[:], owner.count(PLAYED), seat, suit,
    )


def _finish(
    n: int, c: int, seat: int, depth: int, owner: list[int], sizes: list[int], cnt: list[int],
    stacks: list[int], pot: list[int], contrib: list[int], n_played: int, actor: int, suit: int,
) -> int:
    """``play_out`` on its own arrays (played on, not copied) from ``actor``'s lead of ``suit``."""
    while True:
        x = owner.index(actor, suit * 13, suit * 13 + 13)
        p = actor
        while True:  # the run, as ``MichiganState._lead``
            owner[x] = PLAYED
            n_played += 1
            sizes[p] -= 1
            cnt[p * 4 + suit] -= 1
            i = POOL_OF[x]
            if i >= 0:
                stacks[p] += pot[i]
                pot[i] = 0
                contrib[i * n:(i + 1) * n] = [0] * n
            if not sizes[p]:  # out: settle (capped payments) and stop
                for s in range(n):
                    if s != p:
                        paid = min(c * sizes[s], stacks[s])
                        stacks[s] -= paid
                        stacks[p] += paid
                return stacks[seat] + sum(contrib[seat::n])
            if x % 13 == 12:
                break
            h = owner[x + 1]
            if h < 0:
                break
            p = h
            x += 1
        # the stop: ``p`` has the lead, ``suit`` is blocked (``MichiganState._find_leader``)
        skip = suit
        actor = -1
        for k in range(n):
            s = (p + k) % n
            if sizes[s] > cnt[s * 4 + suit]:
                actor = s
                break
        if actor < 0:
            actor, skip = p, -1
        base = actor * 4
        suits = [s for s in range(4) if cnt[base + s] and s != skip]
        if len(suits) == 1:
            suit = suits[0]
            continue
        unknown = 52 - sizes[actor] - n_played
        dead = max(0, 52 - sum(sizes) - n_played)
        p_live = 1.0 - (dead / unknown if unknown else 0.0)
        suit = _easy_suit(owner, actor, pot, p_live, suits)
        if actor == seat and depth > 0:
            best_v = -1 << 60
            for s in [suit] + [s for s in suits if s != suit]:
                v = _finish(
                    n, c, seat, depth - 1, owner[:], sizes[:], cnt[:], stacks[:], pot[:], contrib[:],
                    n_played, actor, s,
                )
                if v > best_v:
                    best_s, best_v = s, v
            suit = best_s


def lookahead_lead(
    state: Any, seat: int, legal: list[Action], rng: Any = None, depth: int = 0,
) -> Action | None:
    """The searching seat's own lead inside a paired rollout (issue 17, fourth pass): on the
    determinization (a complete deal, as the search treats it), every legal lead is played out to
    the end of the hand with easy's lead for every seat (``play_out``), and the lead that leaves
    ``seat`` the most (stack plus own pool contributions) is played; easy's own choice on ties.
    One step of policy improvement over easy (``depth`` d > 0: over the play-out in which
    ``seat``'s later leads are chosen so, at depth d − 1); it reads only the determinized state
    it is given."""
    if state.phase != PLAY:
        return None
    best = easy_lead(state, seat, legal)
    if best is None or len(legal) == 1:
        return best
    best_v = play_out(state, seat, _SUIT_INDEX[best["suit"]], depth)
    for a in legal:
        if a is not best:
            v = play_out(state, seat, _SUIT_INDEX[a["suit"]], depth)
            if v > best_v:
                best, best_v = a, v
    return best


def lookahead2_lead(state: Any, seat: int, legal: list[Action], rng: Any = None) -> Action | None:
    """``lookahead_lead`` at depth 1: each lead compared by a play-out in which ``seat``'s later
    leads are ``lookahead_lead``'s own (two steps of improvement over easy; about 3× its cost)."""
    return lookahead_lead(state, seat, legal, rng, depth=1)


#: Deals the honest lookahead samples from the seat's own view at each of its rollout leads.
HONEST_SAMPLES = 3


def honest_lookahead_lead(state: Any, seat: int, legal: list[Action], rng: Any) -> Action | None:
    """``lookahead_lead`` without the deal's hidden cards: at each of ``seat``'s own rollout leads
    the cards it cannot see there (not its own, not played, not a known dead card: one above a
    played card that never came) are dealt again ``HONEST_SAMPLES`` times over the same places,
    every legal lead is played out on each deal, and the lead with the best total is played
    (easy's on ties). So the rollout's own later play knows only what the seat would know then."""
    if state.phase != PLAY:
        return None
    best = easy_lead(state, seat, legal)
    if best is None or len(legal) == 1:
        return best
    owner = state.owner
    places = [
        x for x in range(52)
        if owner[x] != seat and owner[x] != PLAYED and not (x % 13 and owner[x - 1] == PLAYED)
    ]
    suits = [_SUIT_INDEX[best["suit"]]] + [_SUIT_INDEX[a["suit"]] for a in legal if a is not best]
    totals = [0] * len(suits)
    n, c = state.cfg.n, state.cfg.c
    n_played = owner.count(PLAYED)
    canonical = sorted(owner[x] for x in places)  # who holds how many: public (hand sizes)
    for _ in range(HONEST_SAMPLES):
        holders = canonical[:]
        rng.shuffle(holders)
        o = owner[:]
        for x, h in zip(places, holders, strict=True):
            o[x] = h
        cnt = [0] * (4 * n)
        for x in range(52):
            h = o[x]
            if h >= 0:
                cnt[h * 4 + x // 13] += 1
        for j, s in enumerate(suits):
            totals[j] += _finish(
                n, c, seat, 0, o[:], state.sizes[:], cnt[:], state.stacks[:], state.pot[:],
                state.contrib[:], n_played, seat, s,
            )
    j = max(range(len(suits)), key=lambda i: (totals[i], -i))
    return next(a for a in legal if _SUIT_INDEX[a["suit"]] == suits[j])

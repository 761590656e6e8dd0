"""Easy Mus: mus or cut by hand strength, keep kings/pairs/aces, bet and answer by win odds.

Each hand is read as four strengths (8 kings … 1 aces, spec 1.1). For every lance the hand's
*percentile* (share of random hands it beats, ties counted half) comes from a table built once
over the 330 strength multisets, weighted by how many card sets give each. The team's chance
to win a lance is estimated from that percentile, the number of opponents in the lance and
whether the partner plays it too; bets and answers compare that chance with the points at risk.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations_with_replacement
from math import comb

from bot.ai.policy import Action, View

STRENGTH = {"1": 1, "2": 1, "4": 2, "5": 3, "6": 4, "7": 5, "10": 6, "11": 7, "12": 8, "3": 8}
_VALUE_OF = {8: 10, 7: 10, 6: 10, 5: 7, 4: 6, 3: 5, 2: 4, 1: 1}
_CARDS_OF = {8: 8, 7: 4, 6: 4, 5: 4, 4: 4, 3: 4, 2: 4, 1: 8}  # cards per strength in 40
_JUEGO_ORDER = {31: 8, 32: 7, 40: 6, 37: 5, 36: 4, 35: 3, 34: 2, 33: 1}

Desc = tuple[int, ...]


def describe(hand: list[str]) -> Desc:
    """The hand's strengths, high → low."""
    return tuple(sorted((STRENGTH[c[:-1]] for c in hand), reverse=True))


def total(desc: Desc) -> int:
    return sum(_VALUE_OF[x] for x in desc)


def pares_key(desc: Desc) -> tuple[int, int, int]:
    """(category 3 duples / 2 medias / 1 par / 0, high rank, low rank)."""
    a, b, c, d = desc
    if a == b and c == d:
        return (3, a, c)
    if a == b == c or b == c == d:
        return (2, b, 0)
    for x, y in ((a, b), (b, c), (c, d)):
        if x == y:
            return (1, x, 0)
    return (0, 0, 0)


def lance_key(lance: str, desc: Desc) -> tuple[int, ...] | None:
    """A comparable key (higher is better) or None when the hand cannot play the lance."""
    if lance == "grande":
        return desc
    if lance == "chica":
        return tuple(-x for x in reversed(desc))
    if lance == "pares":
        key = pares_key(desc)
        return key if key[0] else None
    t = total(desc)
    if lance == "juego":
        return (_JUEGO_ORDER[t],) if t >= 31 else None
    return (t,) if t < 31 else None  # punto


def _all_hands() -> Iterator[tuple[Desc, int]]:
    for combo in combinations_with_replacement(range(8, 0, -1), 4):
        weight = 1
        for s in set(combo):
            weight *= comb(_CARDS_OF[s], combo.count(s))
        yield combo, weight


def _percentiles() -> dict[str, dict[Desc, float]]:
    hands = list(_all_hands())
    out: dict[str, dict[Desc, float]] = {}
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        keyed = [(lance_key(lance, d), d, w) for d, w in hands]
        keyed = [(k, d, w) for k, d, w in keyed if k is not None]
        keyed.sort()
        total_w = sum(w for _, _, w in keyed)
        by_key: dict[tuple[int, ...], int] = {}
        for k, _, w in keyed:
            by_key[k] = by_key.get(k, 0) + w
        below = 0
        pct_of_key = {}
        for k in sorted(by_key):
            pct_of_key[k] = (below + by_key[k] / 2) / total_w
            below += by_key[k]
        out[lance] = {d: pct_of_key[k] for k, d, _ in keyed}
    return out


PERCENTILE = _percentiles()


def team_odds(view: View, lance: str, desc: Desc, seat: int) -> float:
    """Estimated chance that ``seat``'s team wins ``lance`` (0 when the seat cannot play it)."""
    pct = PERCENTILE[lance].get(desc)
    if pct is None:
        return 0.0
    partner = (seat + 2) % 4
    held = None
    if lance in ("pares", "juego"):
        held = (view.get("declared") or {}).get(lance)
    opponents = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if held is None or held[s]]
    partner_in = held is None or bool(held[partner])
    if not opponents:
        return 1.0
    me = pct ** len(opponents)
    mano = view.get("mano")
    if mano == seat:
        me = min(1.0, me + 0.04)  # ties go to the mano
    mate = 1.0 / (len(opponents) + 1) if partner_in else 0.0
    return 1.0 - (1.0 - me) * (1.0 - mate)


def keep_score(desc_card: int, desc: Desc) -> int:
    """How much a card of strength ``desc_card`` is worth keeping in ``desc`` (higher = keep)."""
    if desc.count(desc_card) >= 2:
        return 10 + desc_card
    if desc_card == 8:
        return 9
    if desc_card == 1 and desc.count(1) >= 1 and desc.count(8) < 2:
        return 5
    if desc_card in (7, 6) and total(desc) >= 28:
        return 4
    return desc_card // 3


def wants_cut(desc: Desc) -> bool:
    """Cut the mus (no_mus) with a hand worth playing as it is."""
    pares = pares_key(desc)
    t = total(desc)
    kings = desc.count(8)
    return (
        t in (31, 32)
        or pares[0] >= 2
        or (pares[0] == 1 and pares[1] >= 7 and (kings >= 2 or t >= 31))
        or (kings >= 3)
        or (desc.count(1) >= 3)
    )


class EasyPolicy:
    """Rule-based Mus player (level "easy")."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        first = legal[0]["type"]  # the phase: mus / no_mus, discard, or a bet (spec order)
        hand = view["hand"]
        desc = describe(hand)
        if first == "mus" or first == "no_mus":
            return _find(legal, "no_mus" if wants_cut(desc) else "mus")
        if first == "discard":
            return self._discard(hand, desc, legal)
        return self._bet(view, legal, desc, rng)

    def _discard(self, hand: list[str], desc: Desc, legal: list[Action]) -> Action:
        scored = sorted(hand, key=lambda c: keep_score(STRENGTH[c[:-1]], desc))
        throw = [c for c in scored if keep_score(STRENGTH[c[:-1]], desc) < 5]
        if not throw:
            throw = scored[:1]
        wanted = set(throw)
        for a in legal:
            if set(a["cards"]) == wanted:
                return a
        return legal[0]

    def _bet(self, view: View, legal: list[Action], desc: Desc, rng: random.Random) -> Action:
        seat = view["to_act"][0]
        lance = view["phase"]
        odds = team_odds(view, lance, desc, seat)
        bet = view.get("bet")
        points = view.get("points") or [0, 0]
        target = _target(legal, bet)
        mine, theirs = points[seat % 2], points[1 - seat % 2]
        if bet is None:  # open
            if odds >= 0.95 and theirs >= target - 10 and _has(legal, "ordago"):
                return _find(legal, "ordago")
            if odds >= 0.7:
                amount = 5 if odds >= 0.88 else 2
                return _envido(legal, amount) or _find(legal, "paso")
            return _find(legal, "paso")
        total_bet, held = bet["total"], bet["held"]
        if total_bet == "ordago":
            need = 0.55 if theirs >= target - 5 and mine < theirs else 0.8
            return _find(legal, "quiero" if odds >= need else "no_quiero")
        if odds >= 0.9 and total_bet < 10 and _envido(legal, 5):
            return _envido(legal, 5)  # type: ignore[return-value]
        # accept when the expected points beat the refusal: (2p - 1) * total > -held
        need = (1.0 - held / max(total_bet, 1)) / 2.0 + 0.05
        if mine + total_bet < target and theirs + total_bet >= target:
            need += 0.1  # losing this lance would lose the game
        return _find(legal, "quiero" if odds >= need else "no_quiero")


def _target(legal: list[Action], bet: dict | None) -> int:
    """The game's target (30 or 40), read from the largest envido offered."""
    top = 0
    for a in reversed(legal):  # envidos come in increasing amounts, before ordago (spec 3.5)
        if a["type"] == "envido":
            top = a["amount"]
            break
    else:
        return 40
    top += bet["total"] if bet and isinstance(bet["total"], int) else 0
    return 30 if top <= 30 else 40


def _has(legal: list[Action], kind: str) -> bool:
    return any(a["type"] == kind for a in legal)


def _find(legal: list[Action], kind: str) -> Action:
    for a in legal:
        if a["type"] == kind:
            return a
    return legal[0]


def _envido(legal: list[Action], amount: int) -> Action | None:
    best = None
    for a in legal:
        if a["type"] == "envido" and a["amount"] <= amount:
            best = a
    return best

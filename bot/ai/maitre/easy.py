"""Easy Jeu du Maître: a Coffre that makes the strongest suit Majeure and the weakest Mineure,
a contract by the share of valued cards in hand, and one-ply trick play.

Trick play looks one move ahead only: among the moves that win the trick now (a combination
that ends it, or the return's take/combine/discard) it takes the most valuable; otherwise it
claims the trick with its cheapest legal card when the trick is worth having, else discards
its least useful card. The Maître values cards by his Coffre (Majeure +rank, Mineure −rank,
valued cards help the contract, neutral cards hurt it); players, who cannot see the Coffre,
simply want tricks, which is what denies the Maître his contract and his écart.
"""

from __future__ import annotations

import random

from bot.ai.policy import Action, View
from bot.rules.cards import FRENCH_SUITS

RANK = {"A": 1, **{str(i): i for i in range(2, 11)}, "J": 11, "Q": 12, "K": 13}
JOKERS = ("X1", "X2")
CONTRACTS = tuple(range(50, 101, 5))
SUIT_ORDER = FRENCH_SUITS  # canonical order (spec 1.1): the legal actions' order


def rank_of(code: str) -> int:
    return RANK[code[:-1]]


def suit_of(code: str) -> str:
    return code[-1]


def combination(r: int, top: int | None, prev: int | None) -> bool:
    """A pair with the card below, or a run of three distinct consecutive ranks."""
    if top is None:
        return False
    if r == top:
        return True
    if prev is None:
        return False
    ranks = sorted((r, top, prev))
    return ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]


def likely_coffre(hand: list[str]) -> tuple[str, str] | None:
    """The (mineure, majeure) Coffre this player lays from ``hand``, or None if none is legal.

    Suit strength ``Σ (3 + rank)`` over non-joker cards; the pair of suits maximising
    ``3·(strength(Majeure) − strength(Mineure)) + rank(top) − rank(bottom)``, with the Majeure's
    highest and the Mineure's lowest number card (A–10), which maximise that score for given
    suits. Ties go to the first pair in the legal actions' order (Mineure card, then Majeure card).
    The strong level's determinizer reads a hidden Coffre with the same rule.
    """
    strength: dict[str, int] = {}
    low: dict[str, str] = {}
    high: dict[str, str] = {}
    for c in hand:
        if c in JOKERS:
            continue
        s, r = suit_of(c), rank_of(c)
        strength[s] = strength.get(s, 0) + 3 + r
        if r <= 10:
            if s not in low or r < rank_of(low[s]):
                low[s] = c
            if s not in high or r > rank_of(high[s]):
                high[s] = c
    best = None
    best_score = 0
    for lo_s in SUIT_ORDER:
        if lo_s not in low:
            continue
        lo = low[lo_s]
        for hi_s in SUIT_ORDER:
            if hi_s == lo_s or hi_s not in high:
                continue
            hi = high[hi_s]
            score = 3 * (strength[hi_s] - strength[lo_s]) + rank_of(hi) - rank_of(lo)
            if best is None or score > best_score:
                best, best_score = (lo, hi), score
    return best


class Values:
    """What cards are worth to the seat to act."""

    def __init__(self, view: View):
        coffre = view.get("coffre")
        me = view["to_act"][0]
        self.maitre = coffre is not None and view.get("maitre") == me
        self.majeure = suit_of(coffre["majeure"]) if self.maitre else None
        self.mineure = suit_of(coffre["mineure"]) if self.maitre else None

    def card(self, code: str) -> float:
        """Worth of ``code`` landing in our won pile."""
        if code in JOKERS:
            return 0.0
        if not self.maitre:
            return 0.5
        s = suit_of(code)
        if s == self.majeure:
            return rank_of(code) + 3
        if s == self.mineure:
            return -rank_of(code) + 3
        return -2.0

    def trick(self, cards: list[str]) -> float:
        base = 0.0 if self.maitre else 1.0
        return base + sum(self.card(c) for c in cards)

    def discard_cost(self, code: str, hand: list[str]) -> float:
        """What throwing ``code`` away costs (lower is better to discard)."""
        if code in JOKERS:
            return 50.0
        r = rank_of(code)
        neighbours = sum(1 for c in hand if c != code and c not in JOKERS and abs(rank_of(c) - r) <= 1)
        cost = 2.0 * neighbours + r / 13
        if self.maitre and suit_of(code) in (self.majeure, self.mineure):
            cost += 10 + r  # the défausse magistrale counts −rank for every valued card
        return cost


class EasyPolicy:
    """Rule-based Jeu du Maître player (level "easy")."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        kind = legal[0]["type"]
        if kind == "coffre":
            return self._coffre(view["hand"], legal)
        if kind == "contract":
            return self._contract(view, legal)
        return self._play(view, legal)

    def _coffre(self, hand: list[str], legal: list[Action]) -> Action:
        mineure, majeure = likely_coffre(hand) or (legal[0]["mineure"], legal[0]["majeure"])
        return next(a for a in legal if a["mineure"] == mineure and a["majeure"] == majeure)

    def _contract(self, view: View, legal: list[Action]) -> Action:
        coffre = view.get("coffre") or {}
        valued_suits = {suit_of(c) for c in coffre.values()}
        cards = [c for c in view["hand"] if c not in JOKERS]
        share = sum(suit_of(c) in valued_suits for c in cards) / max(1, len(cards))
        target = 50 + 5 * int(max(0.0, share - 0.5) * 100 / 5 / 2)
        values = [a["value"] for a in legal]
        pick = max((v for v in values if v <= target), default=min(values))
        return next(a for a in legal if a["value"] == pick)

    def _play(self, view: View, legal: list[Action]) -> Action:
        values = Values(view)
        hand = view["hand"]
        trick = view.get("trick") or []
        cards = [t["card"] for t in trick]
        ids = [rank_of(t["as"]) for t in trick]
        top = ids[-1] if ids else None
        prev = ids[-2] if len(ids) > 1 else None
        me = view["to_act"][0]
        returning = bool(trick) and view.get("last_player") == me
        worth = values.trick(cards)

        wins: list[tuple[float, int, Action]] = []
        for i, a in enumerate(legal):
            t = a["type"]
            if t == "take":
                wins.append((worth, i, a))
            elif t == "discard" and returning:
                wins.append((worth - 0.2 * values.discard_cost(a["card"], hand), i, a))
            elif t == "play" and trick:
                ident = a.get("as", a["card"])
                if returning or (combination(rank_of(ident), top, prev) and a.get("take", True)):
                    joker = 3.0 if a["card"] in JOKERS else 0.0
                    wins.append((worth + values.card(a["card"]) - joker, i, a))
        if wins:
            best = max(wins, key=lambda w: (w[0], -w[1]))
            if returning or best[0] >= 0:
                return best[2]

        plays = [a for a in legal if a["type"] == "play" and "take" not in a]
        if not trick:  # a lead: give up the least valuable card
            return min(plays, key=lambda a: self._lead_cost(values, a, hand))
        if plays and worth >= 0:
            return min(plays, key=lambda a: self._lead_cost(values, a, hand))
        discards = [a for a in legal if a["type"] == "discard"]
        if discards:
            return min(discards, key=lambda a: values.discard_cost(a["card"], hand))
        return legal[0]

    @staticmethod
    def _lead_cost(values: Values, a: Action, hand: list[str]) -> float:
        """Cost of putting a card on the trick where another seat may win it."""
        card = a["card"]
        if card in JOKERS:
            return 100.0
        cost = abs(values.card(card)) if values.maitre else rank_of(card) / 13
        return cost + (0.1 if a.get("mode") == "valeur" else 0.0)

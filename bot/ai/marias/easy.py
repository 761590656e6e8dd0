"""Easy Marias: trump from its best suit, hra by default (betl/durch only with fitting hands),
rare fleks, and plain trick play: cash aces, score marriages, win tricks holding points with the
cheapest card that does it, smear points on a partner's trick, keep trumps and sharp cards.

The policy is stateless: it reads only the current trick and its own hand (the view has no
history of played cards), which is what makes it "easy".
"""

from __future__ import annotations

import random

from bot.ai.policy import Action, View
from bot.rules.cards import FRENCH_SUITS

SUIT_ORDER = ("7", "8", "9", "J", "Q", "K", "10", "A")  # low → high, suit contracts
NAT_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")  # low → high, betl and durch
SUITS = FRENCH_SUITS
SUIT_RANK = {r: i for i, r in enumerate(SUIT_ORDER)}
NAT_RANK = {r: i for i, r in enumerate(NAT_ORDER)}
SUIT_CONTRACTS = ("hra", "sedma", "kilo", "kilo_sedma")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def sharp(card: str) -> bool:
    return rank(card) in ("A", "10")


def by_suit(hand: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in hand:
        out[suit(c)].append(c)
    return out


# --------------------------------------------------------------------------- hand reading


#: What each honour adds to a suit's strength as trumps (any other rank 0.5).
HONOURS = {"A": 3, "10": 2.5, "K": 1.5, "Q": 1.2, "J": 1}


def trump_strength(cards: list[str], s: str) -> float:
    """How good suit ``s`` is as trumps for ``cards`` (length first, then honours)."""
    mine = [c for c in cards if c[-1] == s]
    honours = sum(HONOURS.get(c[:-1], 0.5) for c in mine)
    marriage = 1.5 if "K" + s in cards and "Q" + s in cards else 0
    return 2 * len(mine) + honours + marriage + (0.8 if s == "H" else 0)


def best_trump_suit(cards: list[str]) -> str:
    """The suit easy makes trumps with ``cards``: the strongest (``trump_strength``), the first of
    equals in ``SUITS`` order."""
    return max(SUITS, key=lambda s: trump_strength(cards, s))


def betl_unsafe(hand: list[str]) -> list[str]:
    """Cards that may be forced to win in betl: the k-th lowest card of a suit above rank 2k+1."""
    out = []
    for cards in by_suit(hand).values():
        for k, c in enumerate(sorted(cards, key=lambda c: NAT_RANK[rank(c)])):
            if NAT_RANK[rank(c)] > 2 * k + 1:
                out.append(c)
    return out


def durch_losers(hand: list[str]) -> list[str]:
    """Cards below the unbroken run from the ace of their suit: they may lose a trick."""
    out = []
    for cards in by_suit(hand).values():
        top = 7
        for c in sorted(cards, key=lambda c: -NAT_RANK[rank(c)]):
            if NAT_RANK[rank(c)] == top:
                top -= 1
            else:
                out.append(c)
    return out


def hra_value(hand: list[str], trump: str) -> float:
    """A rough count of the soloist's strength in a suit contract."""
    trumps = [c for c in hand if suit(c) == trump]
    aces = sum(1 for c in hand if rank(c) == "A")
    tens = sum(1 for c in hand if rank(c) == "10")
    return 2 * len(trumps) + 2 * aces + tens


# --------------------------------------------------------------------------- trick logic


def beats(card: str, best: str, led: str, trump: str | None, natural: bool) -> bool:
    """True when ``card`` played now would beat the current best card ``best``."""
    order = NAT_RANK if natural else SUIT_RANK
    if suit(card) == suit(best):
        return order[rank(card)] > order[rank(best)]
    return trump is not None and suit(card) == trump


def current_winner(trick: list, trump: str | None, natural: bool) -> tuple[int, str]:
    seat, best = trick[0]
    led = suit(best)
    for s, c in trick[1:]:
        if beats(c, best, led, trump, natural):
            seat, best = s, c
    return seat, best


def cheap_key(card: str, trump: str | None) -> tuple:
    """Sort key: the card we least mind giving away first."""
    return (sharp(card), suit(card) == trump, SUIT_RANK[rank(card)])


class EasyPolicy:
    """Rule-based Marias player (level "easy")."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        kind = legal[0]["type"]
        hand = view["hand"]
        if kind in ("trump", "trump_blind"):
            return self._trump(hand, legal)
        if kind == "declare":
            return self._declare(view, hand, legal)
        if kind == "discard":
            return self._discard(view, hand, legal)
        if kind in ("good", "bad"):
            return self._answer(view, hand, legal)
        if kind in ("flek", "re", "pass"):
            return self._flek(view, hand, legal)
        return self._play(view, hand, legal)

    # ------------------------------------------------------------------ bidding

    def _trump(self, hand: list[str], legal: list[Action]) -> Action:
        best = best_trump_suit(hand)
        shown = [a for a in legal if a["type"] == "trump" and suit(a["card"]) == best]
        if not shown:
            return legal[-1]
        return min(shown, key=lambda a: SUIT_RANK[rank(a["card"])])  # show a low card

    def _declare(self, view: View, hand: list[str], legal: list[Action]) -> Action:
        games = {a["game"]: a for a in legal}
        slack = 2 if len(hand) >= 12 else 0
        if "durch" in games and len(durch_losers(hand)) <= slack:
            return games["durch"]
        if "betl" in games and len(betl_unsafe(hand)) <= slack:
            return games["betl"]
        trump = view.get("trump")
        if "hra" in games:
            if "sedma" in games and trump and sum(suit(c) == trump for c in hand) >= 6:
                return games["sedma"]
            return games["hra"]
        return games.get("betl") or games.get("durch") or legal[0]

    def _discard(self, view: View, hand: list[str], legal: list[Action]) -> Action:
        contract = view.get("contract")
        cards = [a["card"] for a in legal]
        if contract == "betl":
            unsafe = set(betl_unsafe(hand))
            pick = max(cards, key=lambda c: (c in unsafe, NAT_RANK[rank(c)]))
        elif contract == "durch":
            losers = set(durch_losers(hand))
            pick = max(cards, key=lambda c: (c in losers, -NAT_RANK[rank(c)]))
        else:
            trump = view.get("trump")
            groups = by_suit(hand)

            def keep(c: str) -> tuple:
                married = rank(c) in ("K", "Q") and {"K" + suit(c), "Q" + suit(c)} <= set(hand)
                return (suit(c) == trump, married, len(groups[suit(c)]), SUIT_RANK[rank(c)])

            pick = min(cards, key=keep)
        return next(a for a in legal if a["card"] == pick)

    def _answer(self, view: View, hand: list[str], legal: list[Action]) -> Action:
        good = next(a for a in legal if a["type"] == "good")
        bad = next((a for a in legal if a["type"] == "bad"), None)
        if bad is None:
            return good
        if view.get("contract") == "betl":
            return bad if not durch_losers(hand) else good
        if not betl_unsafe(hand) or not durch_losers(hand):
            return bad
        return good

    def _flek(self, view: View, hand: list[str], legal: list[Action]) -> Action:
        raise_ = next((a for a in legal if a["type"] in ("flek", "re")), None)
        pass_ = next(a for a in legal if a["type"] == "pass")
        if raise_ is None or view.get("flek", 0) >= 1:
            return pass_
        contract, trump = view.get("contract"), view.get("trump")
        me = view["to_act"][0]
        if me == view.get("soloist"):
            strong = contract in SUIT_CONTRACTS and trump and hra_value(hand, trump) >= 20
            return raise_ if strong else pass_
        if contract == "durch":
            return raise_ if sum(rank(c) == "A" for c in hand) >= 2 else pass_
        if contract == "betl":
            sevens = sum(rank(c) in ("7", "8") for c in hand)
            return raise_ if sevens >= 4 else pass_
        if trump:
            trumps = [c for c in hand if suit(c) == trump]
            top = sum(rank(c) in ("A", "10") for c in trumps)
            aces = sum(rank(c) == "A" for c in hand)
            if len(trumps) >= 4 and top >= 1 and aces >= 2:
                return raise_
        return pass_

    # ------------------------------------------------------------------ play

    def _play(self, view: View, hand: list[str], legal: list[Action]) -> Action:
        cards = [a["card"] for a in legal]
        contract = view.get("contract")
        natural = contract in ("betl", "durch")
        trump = None if natural else view.get("trump")
        me = view["to_act"][0]
        soloist = view.get("soloist")
        trick = view.get("trick") or []
        if natural:
            pick = self._play_natural(cards, trick, me == soloist, contract == "betl")
        elif not trick:
            pick = self._lead(cards, hand, trump, me == soloist)
        else:
            pick = self._follow(cards, trick, trump, me, soloist)
        return next(a for a in legal if a["card"] == pick)

    def _lead(self, cards: list[str], hand: list[str], trump: str | None, solo: bool) -> str:
        side_aces = [c for c in cards if rank(c) == "A" and suit(c) != trump]
        if side_aces:
            return side_aces[0]
        for s in SUITS:
            if "K" + s in hand and "Q" + s in hand:
                return "Q" + s  # announces the marriage (20, trumps 40)
        trumps = sorted((c for c in cards if suit(c) == trump), key=lambda c: -SUIT_RANK[rank(c)])
        if solo and len(trumps) >= 4:
            return trumps[0]
        groups = by_suit(cards)
        side = [s for s in SUITS if s != trump and groups[s]]
        if side:
            longest = max(side, key=lambda s: len(groups[s]))
            return min(groups[longest], key=lambda c: cheap_key(c, trump))
        return min(cards, key=lambda c: cheap_key(c, trump))

    def _follow(self, cards: list[str], trick: list, trump: str | None, me: int, soloist: int | None) -> str:
        win_seat, best = current_winner(trick, trump, False)
        led = suit(trick[0][1])
        last = len(trick) == 2
        partner_winning = me != soloist and win_seat != soloist
        cheapest = min(cards, key=lambda c: cheap_key(c, trump))
        if partner_winning:
            if last:
                smear = [c for c in cards if sharp(c) and suit(c) != trump]
                return smear[0] if smear else cheapest
            return cheapest
        winners = [c for c in cards if beats(c, best, led, trump, False)]
        if not winners:
            return cheapest
        points_in_trick = any(sharp(c) for _, c in trick)
        if last:
            sharp_win = [c for c in winners if sharp(c)]
            if sharp_win:
                return sharp_win[0]
            return min(winners, key=lambda c: cheap_key(c, trump))
        top = [c for c in winners if rank(c) == "A"]
        if top:
            return top[0]
        if points_in_trick:
            return max(winners, key=lambda c: SUIT_RANK[rank(c)])
        return cheapest

    def _play_natural(self, cards: list[str], trick: list, solo: bool, betl: bool) -> str:
        def nat(c: str) -> int:
            return NAT_RANK[rank(c)]

        if not trick:
            if betl and solo:
                return min(cards, key=nat)
            if betl:
                return min(cards, key=nat)  # low leads force the soloist over them
            return max(cards, key=nat)
        _, best = current_winner(trick, None, True)
        losing = [c for c in cards if not beats(c, best, suit(trick[0][1]), None, True)]
        if betl and solo:
            return max(losing, key=nat) if losing else max(cards, key=nat)
        if betl:
            return min(cards, key=nat)
        return max(cards, key=nat)

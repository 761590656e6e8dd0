"""Easy Motz: stand only with two trumps or a jack of trump colour, take the muet now and then
with a bad hand when the pot is worth it, and play each trick to win it sensibly.

Standing risks the fine (the whole pot), so a marginal hand (two low trumps) also passes when
the fine is a large share of the stack; the legal actions already forbid standing without
cover. In play: lead the strongest card; follow with the cheapest card that wins when last to
play, the strongest winner otherwise, and the weakest card when nothing wins.
"""

from __future__ import annotations

import random

from bot.ai.policy import Action, View
from bot.rules.cards import SAME_COLOUR

SIDE_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")  # low → high
TRUMP_ORDER = ("7", "8", "9", "10", "Q", "K", "A")  # jacks above these


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def effective_suit(card: str, trump: str) -> str:
    """The second jack (jack of the same-colour suit) belongs to trumps."""
    if rank(card) == "J" and suit(card) == SAME_COLOUR[trump]:
        return trump
    return suit(card)


def trump_rank(card: str, trump: str) -> int:
    """Rank inside the trump suit: J of trump 9, second jack 8, A 6 … 7 0."""
    if rank(card) == "J":
        return 9 if suit(card) == trump else 8
    return TRUMP_ORDER.index(rank(card))


def power(card: str, trump: str, led: str | None) -> int:
    """How strongly ``card`` plays on a trick led in effective suit ``led`` (None: leading)."""
    eff = effective_suit(card, trump)
    if eff == trump:
        return 200 + trump_rank(card, trump)
    if led is None or eff == led:
        return 100 + SIDE_ORDER.index(rank(card))
    return SIDE_ORDER.index(rank(card))


def hand_quality(hand: list[str], trump: str) -> tuple[int, bool, bool]:
    """(trumps held, holds a jack of trump colour, holds a trump ace)."""
    trumps = [c for c in hand if effective_suit(c, trump) == trump]
    jack = any(rank(c) == "J" for c in trumps)
    ace = any(rank(c) == "A" for c in trumps)
    return len(trumps), jack, ace


class EasyPolicy:
    """Rule-based Motz player (level "easy")."""

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        kinds = {a["type"]: a for a in legal}
        if "pass" in kinds or "stand" in kinds or "take_muet" in kinds:
            return self._declare(view, kinds, rng)
        return self._play(view, legal)

    def _declare(self, view: View, kinds: dict[str, Action], rng: random.Random) -> Action:
        trump = view["trump"]
        me = view["to_act"][0]
        stack = view["stacks"][me]
        fine = view.get("fine", view["pot"])
        trumps, jack, ace = hand_quality(view["hand"], trump)
        good = trumps >= 2 or jack
        marginal = trumps == 2 and not jack and not ace
        if "stand" in kinds and good and not (marginal and fine * 3 > stack):
            return kinds["stand"]
        decl = view.get("declarations") or []
        standing = sum(1 for d in decl if d in ("stand", "take_muet"))
        worth = view["pot"] >= 2 * len(view["stacks"])
        if (
            "take_muet" in kinds
            and not good
            and worth
            and standing <= 1
            and fine * 4 <= stack
            and rng.random() < 0.35
        ):
            return kinds["take_muet"]
        return kinds.get("pass") or next(iter(kinds.values()))

    def _play(self, view: View, legal: list[Action]) -> Action:
        trump = view["trump"]
        cards = [a["card"] for a in legal]
        trick = view.get("trick") or []
        if not trick:
            pick = max(cards, key=lambda c: power(c, trump, None))
        else:
            led = effective_suit(trick[0][1], trump)
            best = max(power(c, trump, led) for _, c in trick)
            winners = [c for c in cards if power(c, trump, led) > best]
            active = view.get("active") or []
            last = len(trick) == len(active) - 1
            if winners:
                pick = (min if last else max)(winners, key=lambda c: power(c, trump, led))
            else:
                pick = min(cards, key=lambda c: power(c, trump, led))
        return next(a for a in legal if a["card"] == pick)

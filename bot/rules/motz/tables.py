"""Motz card tables: phases, suits, effective suit and strength per trump, trick winner, obligations."""

from __future__ import annotations

from collections.abc import Sequence

from bot.rules import cards

DECLARE, PLAY, END = 0, 1, 2
PHASE_NAMES = ("declare", "play", "session_end")
SUITS = cards.FRENCH_SUITS
SAME_COLOUR = cards.SAME_COLOUR
PLAIN_STRENGTH = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7}
HAND_ORDER = {c: i for i, c in enumerate(cards.DECK_32)}


def _tables() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, int]], dict[str, dict[str, tuple]]]:
    """Per trump suit: effective suit, strength inside it, and the timeout order key of every card."""
    eff: dict[str, dict[str, str]] = {}
    strength: dict[str, dict[str, int]] = {}
    low: dict[str, dict[str, tuple]] = {}
    for t in SUITS:
        second = "J" + SAME_COLOUR[t]
        e, st, lo = {}, {}, {}
        for c in cards.DECK_32:
            r, s = c[:-1], c[-1]
            if c == "J" + t:
                e[c], st[c] = t, 100
            elif c == second:
                e[c], st[c] = t, 99
            else:
                e[c], st[c] = s, PLAIN_STRENGTH[r]
            lo[c] = (e[c] == t, st[c], SUITS.index(s))
        eff[t], strength[t], low[t] = e, st, lo
    return eff, strength, low


EFF, STRENGTH, LOW_KEY = _tables()


def trick_winner(trick: list[tuple[int, str]], trump: str) -> tuple[int, str]:
    """The (seat, card) winning a complete trick under ``trump`` (section 2)."""
    eff, st = EFF[trump], STRENGTH[trump]
    led = eff[trick[0][1]]
    best = trick[0]
    best_key = (led == trump, st[best[1]])
    for seat, c in trick[1:]:
        e = eff[c]
        if e == trump:
            key = (True, st[c])
        elif e == led:
            key = (False, st[c])
        else:
            continue
        if key > best_key:
            best, best_key = (seat, c), key
    return best


def allowed_cards(hand: list[str], trick: list[tuple[int, str]], trump: str) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` (section 2 obligations)."""
    if not trick:
        return list(hand)
    eff = EFF[trump]
    led = eff[trick[0][1]]
    follow = [c for c in hand if eff[c] == led]
    if follow:
        return follow
    trumps = [c for c in hand if eff[c] == trump]
    return trumps or list(hand)


def shown_voids(tricks: Sequence[Sequence[tuple[int, str]]], trump: str) -> dict[int, set[str]]:
    """The effective suits each seat has shown it holds none of, from the tricks of a deal
    (complete or in progress): a seat that did not follow the led suit has none of it, and one
    that neither followed nor trumped has no trump either (the section 2 obligations)."""
    eff = EFF[trump]
    voids: dict[int, set[str]] = {}
    for trick in tricks:
        if not trick:
            continue
        led = eff[trick[0][1]]
        for seat, c in trick[1:]:
            e = eff[c]
            if e != led:
                out = voids.setdefault(seat, set())
                out.add(led)
                if e != trump:
                    out.add(trump)
    return voids

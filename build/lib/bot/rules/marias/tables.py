"""Precomputed card tables for Marias (32-card French pack, spec section 1.1 and 2)."""

from __future__ import annotations

from bot.rules.cards import DECK_32, FRENCH_SUITS

SUITS = FRENCH_SUITS
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

#: Canonical position (suits S H D C; A K Q J 10 9 8 7 inside a suit).
CANON = {c: i for i, c in enumerate(DECK_32)}
SUIT = {c: c[-1] for c in DECK_32}
RANK = {c: c[:-1] for c in DECK_32}

_SUIT_ORDER = ("7", "8", "9", "J", "Q", "K", "10", "A")  # low → high, suit contracts
_NAT_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")  # low → high, betl and durch

#: Strength inside a suit: suit contracts (A 10 K Q J 9 8 7) and betl/durch (A K Q J 10 9 8 7).
STR_SUIT = {c: _SUIT_ORDER.index(RANK[c]) for c in DECK_32}
STR_NAT = {c: _NAT_ORDER.index(RANK[c]) for c in DECK_32}

#: Sharp cards: aces and tens, 10 card points each in suit contracts.
SHARP = frozenset(c for c in DECK_32 if RANK[c] in ("A", "10"))

#: The other card of a marriage pair (K ↔ Q of one suit).
PARTNER = {**{"K" + s: "Q" + s for s in SUITS}, **{"Q" + s: "K" + s for s in SUITS}}

SUIT_CONTRACTS = ("hra", "sedma", "kilo", "kilo_sedma")
CONTRACTS = (*SUIT_CONTRACTS, "betl", "durch")
NEEDS_SEVEN = frozenset(("sedma", "kilo_sedma"))
NEEDS_PAIR = frozenset(("kilo", "kilo_sedma"))


def canon_sorted(cards: list[str]) -> list[str]:
    """The cards in canonical order."""
    return sorted(cards, key=CANON.__getitem__)

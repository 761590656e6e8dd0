"""Card codes, decks, display names and the per-deal seeded shuffle.

Codes (DESIGN.md section 2): French ranks ``A K Q J 10 9 8 7 6 5 4 3 2`` + suit ``S H D C``
(``"10H"``, ``"QS"``); jokers ``X1`` ``X2``; Spanish ranks ``1 2 3 4 5 6 7 10 11 12`` + suit
``O C E B`` (oros, copas, espadas, bastos). The two families never share a table, so a code
like ``"10C"`` is read in the family of the game being played.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence

FRENCH_SUITS = ("S", "H", "D", "C")
FRENCH_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SPANISH_SUITS = ("O", "C", "E", "B")
SPANISH_RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
JOKERS = ("X1", "X2")

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SPANISH_SUIT_NAMES = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}
SPANISH_RANK_NAMES = {"10": "sota", "11": "caballo", "12": "rey"}
RED_SUITS = frozenset("HD")
#: The other suit of the same colour (Motz's second jack, the AI's reading of it, the pictures).
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}

#: French numeric rank with A high (2..14) and with A low (1..13).
RANK_HIGH = {r: v for r, v in zip(FRENCH_RANKS, range(14, 1, -1), strict=True)}
RANK_LOW = {**RANK_HIGH, "A": 1}


def rank_of(code: str) -> str:
    """The rank part of a card code (``"10H"`` → ``"10"``)."""
    return code[:-1]


def suit_of(code: str) -> str:
    """The suit letter of a card code (``"10H"`` → ``"H"``); jokers have no suit (``""``)."""
    return "" if code in JOKERS else code[-1]


def is_joker(code: str) -> bool:
    return code in JOKERS


def french_deck(size: int = 52, jokers: bool = False) -> tuple[str, ...]:
    """The French deck: 32 (A K Q J 10 9 8 7) or 52 cards, suits S H D C, optionally + X1 X2."""
    if size not in (32, 52):
        raise ValueError("a French deck has 32 or 52 cards")
    ranks = FRENCH_RANKS[:8] if size == 32 else FRENCH_RANKS
    cards = tuple(r + s for s in FRENCH_SUITS for r in ranks)
    return cards + JOKERS if jokers else cards


def spanish_deck() -> tuple[str, ...]:
    """The Spanish 40-card deck in canonical order: suits O C E B, ranks 1…7 10 11 12."""
    return tuple(r + s for s in SPANISH_SUITS for r in SPANISH_RANKS)


DECK_32 = french_deck(32)
DECK_52 = french_deck(52)
DECK_54 = french_deck(52, jokers=True)
DECK_ES_40 = spanish_deck()
FRENCH_CODES = frozenset(DECK_54)
SPANISH_CODES = frozenset(DECK_ES_40)


def display(code: str, spanish: bool = False) -> str:
    """Short text for a card: ``"10♥"``, ``"Joker"``, Spanish ``"rey de copas"``."""
    if code in JOKERS:
        return "Joker" if code == "X1" else "Joker²"
    if spanish:
        r, s = rank_of(code), suit_of(code)
        return f"{SPANISH_RANK_NAMES.get(r, r)} de {SPANISH_SUIT_NAMES[s]}"
    return rank_of(code) + SUIT_SYMBOLS[suit_of(code)]


def display_many(codes: Iterable[str], spanish: bool = False) -> str:
    return " ".join(display(c, spanish) for c in codes) or "—"


def deal_rng(seed: int, deal_index: int) -> random.Random:
    """The RNG of deal ``deal_index`` of a table with ``seed``.

    Derived only from ``(seed, deal_index)`` so that replay never depends on anything else
    drawing random numbers (DESIGN.md section 2).
    """
    digest = hashlib.sha256(f"tapis:{seed}:{deal_index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def table_rng(seed: int) -> random.Random:
    """The table-level RNG (first dealer draw); independent of every deal's RNG."""
    return deal_rng(seed, -1)


def shuffled(deck: Sequence[str], seed: int, deal_index: int) -> list[str]:
    """``deck`` shuffled by the RNG of deal ``deal_index``."""
    cards = list(deck)
    deal_rng(seed, deal_index).shuffle(cards)
    return cards


def deck_for_deal(
    deck: Sequence[str], decks: Sequence[Sequence[str]] | None, seed: int, deal_index: int
) -> list[str]:
    """The card order of deal ``deal_index``: the stacked ``decks[i]`` if given, else a shuffle."""
    if decks is not None and deal_index < len(decks):
        return list(decks[deal_index])
    return shuffled(deck, seed, deal_index)


def first_dealer(option: int | None, seats: int, seed: int) -> int:
    """The first dealer: the ``dealer`` option if set, else drawn with the table RNG."""
    if option is not None:
        return option
    return table_rng(seed).randrange(seats)

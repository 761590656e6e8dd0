"""Card names per deck and language, all through the catalogue.

French-suited codes (``"QH"``) have a short form with the language's rank index and the suit
symbol (``"D♥"`` in French, ``"Q♥"`` in English) and a full name (``"dame de cœur"``,
``"svršek srdcí"``). Czech uses the Marias names spodek / svršek / král / eso for the court
cards; the Marias table names the suits as Czech players do (srdce, kule, zelené, žaludy) where
other games use the French-deck suit names (srdce, káry, piky, kříže). Spanish codes
(``"12C"``) are always named in full (``"rey de copas"``, ``"King of cups"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.lazy import NP_
from bot.rules.base import Text as Translator  # any Text: a catalogue Translator or PLAIN

#: Full rank names of the French deck (msgctxt "rank").
RANKS = {
    "A": NP_("rank", "Ace"), "K": NP_("rank", "King"), "Q": NP_("rank", "Queen"), "J": NP_("rank", "Jack"),
}
#: Rank index printed on a French-deck card (msgctxt "rank index"): V D R in French.
INDEXES = {
    "A": NP_("rank index", "A"), "K": NP_("rank index", "K"), "Q": NP_("rank index", "Q"),
    "J": NP_("rank index", "J"),
}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Suit names, French deck (msgctxt "suit") and as Marias players name them (msgctxt "suit marias").
SUITS = {
    "S": NP_("suit", "spades"), "H": NP_("suit", "hearts"), "D": NP_("suit", "diamonds"),
    "C": NP_("suit", "clubs"),
}
MARIAS_SUITS = {
    "S": NP_("suit marias", "spades"), "H": NP_("suit marias", "hearts"),
    "D": NP_("suit marias", "diamonds"), "C": NP_("suit marias", "clubs"),
}
#: "{rank} of <suit>" per suit: the whole phrase is translated, so each language builds it its way.
CARD_OF = {
    "S": NP_("card", "{rank} of spades"), "H": NP_("card", "{rank} of hearts"),
    "D": NP_("card", "{rank} of diamonds"), "C": NP_("card", "{rank} of clubs"),
}
MARIAS_CARD_OF = {
    "S": NP_("card marias", "{rank} of spades"), "H": NP_("card marias", "{rank} of hearts"),
    "D": NP_("card marias", "{rank} of diamonds"), "C": NP_("card marias", "{rank} of clubs"),
}
SPANISH_RANKS = {
    "1": NP_("spanish rank", "Ace"), "10": NP_("spanish rank", "Jack"),
    "11": NP_("spanish rank", "Knight"), "12": NP_("spanish rank", "King"),
}
SPANISH_SUITS = {
    "O": NP_("spanish suit", "coins"), "C": NP_("spanish suit", "cups"),
    "E": NP_("spanish suit", "swords"), "B": NP_("spanish suit", "clubs"),
}
SPANISH_CARD_OF = {
    "O": NP_("spanish card", "{rank} of coins"), "C": NP_("spanish card", "{rank} of cups"),
    "E": NP_("spanish card", "{rank} of swords"), "B": NP_("spanish card", "{rank} of clubs"),
}
JOKERS = {"X1": NP_("card", "Joker"), "X2": NP_("card", "Joker²")}


def rank_name(rank: str, tr: Translator, spanish: bool = False) -> str:
    """Full name of a rank: ``"Q"`` → ``"dame"`` / ``"svršek"``; Spanish ``"11"`` → ``"caballo"``."""
    table = SPANISH_RANKS if spanish else RANKS
    pair = table.get(rank)
    return tr.p_(*pair) if pair else rank


def suit_name(suit: str, tr: Translator, spanish: bool = False, marias: bool = False) -> str:
    """Name of a suit: ``"H"`` → ``"cœur"`` / ``"srdce"``; Spanish ``"O"`` → ``"oros"`` / ``"coins"``."""
    table = SPANISH_SUITS if spanish else MARIAS_SUITS if marias else SUITS
    return tr.p_(*table[suit])


def short(code: str, tr: Translator, spanish: bool = False) -> str:
    """Short text for a card: ``"D♥"`` (French), ``"10♠"``; Spanish cards in full."""
    if code in JOKERS:
        return tr.p_(*JOKERS[code])
    if spanish:
        return name(code, tr, spanish=True)
    rank, suit = code[:-1], code[-1]
    index = INDEXES.get(rank)
    return (tr.p_(*index) if index else rank) + SYMBOLS[suit]


def name(code: str, tr: Translator, spanish: bool = False, marias: bool = False) -> str:
    """Full name of a card: ``"dame de cœur"``, ``"reina de corazones"``, ``"svršek srdcí"``."""
    if code in JOKERS:
        return tr.p_(*JOKERS[code])
    rank, suit = code[:-1], code[-1]
    if spanish:
        return tr.p_(*SPANISH_CARD_OF[suit], rank=rank_name(rank, tr, spanish=True))
    pattern = MARIAS_CARD_OF if marias else CARD_OF
    return tr.p_(*pattern[suit], rank=rank_name(rank, tr))


def short_many(codes: Iterable[str], tr: Translator, spanish: bool = False) -> str:
    """Several cards, short, separated by spaces; an em dash for none."""
    return " ".join(short(c, tr, spanish) for c in codes) or "—"

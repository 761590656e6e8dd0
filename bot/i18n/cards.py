"""Card names per deck and language, all through the catalogue.

French-suited codes (``"QH"``) have a short form with the language's rank index and the suit
symbol (``"D♥"`` in French, ``"Q♥"`` in English) and a full name (``"dame de cœur"``,
``"svršek srdcí"``). Czech uses the Marias names spodek / svršek / král / eso for the court
cards; the Marias table names the suits as Czech players do (srdce, kule, zelené, žaludy) where
other games use the French-deck suit names (srdce, káry, piky, kříže). Spanish codes
(``"12C"``) are always named in full (``"rey de copas"``, ``"King of cups"``).

The reader's look (``bot.rules.looks``, carried by the translator) changes the words and symbols:

- **Czech pack** (Marias, by default): the German suits in every language, ♥️ 🔔 🍃 🌰 for
  H D S C (Unicode has no German suit signs; these emoji are the nearest and are coloured
  like the pack: red hearts, yellow bells, green leaves, brown acorns). Names: srdce / kule /
  zelené / žaludy and spodek / svršek / král / eso in Czech; the English names of the
  German-suited pack elsewhere (hearts, bells, leaves, acorns; Unter, Ober), which French and
  Spanish use too for the two figures (with their own words for king and ace, and for the
  suits: grelots, bellotas...). The short index is Sp / Sv / K / A in Czech, U / O / K / A in
  English (R for the king in French and Spanish).
- **Four-colour faces**, French pack: ♠ (the text's own colour) ♥️ (red) 🔷 (blue) ☘️ (green),
  the colours of the four-colour deck, so that diamonds and hearts, spades and clubs differ in
  colour in Discord's text too (a plain ♦ cannot be coloured there).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.lazy import NP_
from bot.rules.base import Text as Translator  # any Text: a catalogue Translator or PLAIN
from bot.rules.looks import CZECH, FOUR_COLOUR, Look, look_of

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
#: The Czech pack (German suits): ranks (msgctxt "czech rank"), indices, suits, "{rank} of <suit>".
CZECH_RANKS = {
    "A": NP_("czech rank", "Ace"), "K": NP_("czech rank", "King"), "Q": NP_("czech rank", "Ober"),
    "J": NP_("czech rank", "Unter"),
}
CZECH_INDEXES = {
    "A": NP_("czech rank index", "A"), "K": NP_("czech rank index", "K"), "Q": NP_("czech rank index", "O"),
    "J": NP_("czech rank index", "U"),
}
CZECH_SUITS = {
    "S": NP_("czech suit", "leaves"), "H": NP_("czech suit", "hearts"), "D": NP_("czech suit", "bells"),
    "C": NP_("czech suit", "acorns"),
}
CZECH_CARD_OF = {
    "S": NP_("czech card", "{rank} of leaves"), "H": NP_("czech card", "{rank} of hearts"),
    "D": NP_("czech card", "{rank} of bells"), "C": NP_("czech card", "{rank} of acorns"),
}
CZECH_SYMBOLS = {"S": "🍃", "H": "♥️", "D": "🔔", "C": "🌰"}
FOUR_COLOUR_SYMBOLS = {"S": "♠", "H": "♥️", "D": "🔷", "C": "☘️"}
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


def _look(tr: Translator, look: Look | None) -> Look | None:
    return look if look is not None else look_of(tr)


def _czech(tr: Translator, look: Look | None) -> bool:
    chosen = _look(tr, look)
    return chosen is not None and chosen.pack == CZECH


def rank_name(rank: str, tr: Translator, spanish: bool = False, look: Look | None = None) -> str:
    """Full name of a rank: ``"Q"`` → ``"dame"`` / ``"svršek"`` (``"Ober"`` in the Czech pack in
    English); Spanish ``"11"`` → ``"caballo"``."""
    table = SPANISH_RANKS if spanish else CZECH_RANKS if _czech(tr, look) else RANKS
    pair = table.get(rank)
    return tr.p_(*pair) if pair else rank


def suit_name(suit: str, tr: Translator, spanish: bool = False, marias: bool = False,
              look: Look | None = None) -> str:
    """Name of a suit: ``"H"`` → ``"cœur"`` / ``"srdce"``; ``"D"`` in the Czech pack → ``"bells"`` /
    ``"kule"``; Spanish ``"O"`` → ``"oros"`` / ``"coins"``."""
    if spanish:
        return tr.p_(*SPANISH_SUITS[suit])
    if _czech(tr, look):
        return tr.p_(*CZECH_SUITS[suit])
    return tr.p_(*(MARIAS_SUITS if marias else SUITS)[suit])


def symbol(suit: str, tr: Translator | None = None, look: Look | None = None) -> str:
    """The sign of a French-coded suit in text for the reader's look: ``"♦"``, ``"🔷"`` (four
    colours), ``"🔔"`` (the Czech pack's bells)."""
    chosen = look if look is not None else look_of(tr)
    if chosen is not None and chosen.pack == CZECH:
        return CZECH_SYMBOLS[suit]
    if chosen is not None and chosen.faces == FOUR_COLOUR:
        return FOUR_COLOUR_SYMBOLS[suit]
    return SYMBOLS[suit]


def short(code: str, tr: Translator, spanish: bool = False, look: Look | None = None) -> str:
    """Short text for a card: ``"D♥"`` (French), ``"10♠"``, ``"Sv♥️"`` (Czech pack in Czech);
    Spanish cards in full."""
    if code in JOKERS:
        return tr.p_(*JOKERS[code])
    if spanish:
        return name(code, tr, spanish=True)
    rank, suit = code[:-1], code[-1]
    index = (CZECH_INDEXES if _czech(tr, look) else INDEXES).get(rank)
    return (tr.p_(*index) if index else rank) + symbol(suit, tr, look)


def name(code: str, tr: Translator, spanish: bool = False, marias: bool = False,
         look: Look | None = None) -> str:
    """Full name of a card: ``"dame de cœur"``, ``"reina de corazones"``, ``"svršek srdcí"``,
    ``"Ober of hearts"`` (the Czech pack in English)."""
    if code in JOKERS:
        return tr.p_(*JOKERS[code])
    rank, suit = code[:-1], code[-1]
    if spanish:
        return tr.p_(*SPANISH_CARD_OF[suit], rank=rank_name(rank, tr, spanish=True))
    if _czech(tr, look):
        return tr.p_(*CZECH_CARD_OF[suit], rank=rank_name(rank, tr, look=look))
    pattern = MARIAS_CARD_OF if marias else CARD_OF
    return tr.p_(*pattern[suit], rank=rank_name(rank, tr, look=look))


def short_many(codes: Iterable[str], tr: Translator, spanish: bool = False) -> str:
    """Several cards, short, separated by spaces; an em dash for none."""
    return " ".join(short(c, tr, spanish) for c in codes) or "—"

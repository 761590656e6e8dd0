"""``Translator``: one language's view of the catalogue, with plural forms and numbers.

Usage::

    tr = translator("fr")
    tr._("Join")                                  # "Rejoindre"
    tr._("{who} plays {card}.", who=name, card=c)
    tr.n_("{n} card", "{n} cards", 3)             # plural form of the language; n formatted
    tr.p_("rank", "Q")                           # with a context (msgctxt)
    tr.number(12345)                              # "12 345" in French (Babel)

Messages use ``str.format`` placeholders (``{who}``); ``n_`` always provides ``{n}`` formatted
for the language. The method names ``_``, ``n_``, ``p_``, ``np_`` are the extraction keywords
(``bot.i18n.tools.KEYWORDS``). Translators are cached per language, so a lookup is a dict hit.
"""

from __future__ import annotations

import copy
import functools
import gettext
from collections.abc import Sequence
from typing import Any

from babel import Locale
from babel.numbers import format_decimal, format_percent

from bot.i18n.catalog import translations
from bot.i18n.languages import LANGUAGES, PSEUDO, SOURCE
from bot.rules.base import signed
from bot.rules.looks import Look

#: Markers of the pseudo-locale: every text that went through the catalogue is wrapped in them.
OPEN, CLOSE = "⟦", "⟧"


class Translator:
    """Translated text for one language; English (the message id) for anything missing."""

    __slots__ = ("lang", "_gt", "_locale", "_numbers", "look", "_dressed")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._gt: gettext.NullTranslations = translations(lang)
        self._locale = Locale.parse(lang if lang in LANGUAGES else SOURCE)
        self._numbers: dict[int, str] = {}
        #: The pack and card faces this reader sees at a table (``bot.rules.looks``), None when not
        #: known (the images then show the game's own pack): card text and images follow it.
        self.look: Look | None = None
        self._dressed: dict[Look, Translator] = {}

    def __repr__(self) -> str:
        look = "" if self.look is None else f", {self.look}"
        return f"Translator({self.lang!r}{look})"

    def dressed(self, look: Look | None) -> Translator:
        """This language with ``look`` (cached); None gives the translator without a look back."""
        base = translator(self.lang) if self.look is not None else self
        if look is None:
            return base
        found = base._dressed.get(look)
        if found is None:
            found = copy.copy(base)
            found.look = look
            found._dressed = {}
            base._dressed[look] = found
        return found

    # ---------------------------------------------------------------- lookups

    def _wrap(self, text: str) -> str:
        return text

    def _(self, msgid: str, /, **params: Any) -> str:
        """The translation of ``msgid``, formatted with ``params``."""
        text = self._wrap(self._gt.gettext(msgid))
        return text.format(**params) if params else text

    def n_(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The plural form for ``n`` (Czech has three); ``{n}`` is ``n`` formatted for the language."""
        text = self._wrap(self._gt.ngettext(singular, plural, n))
        return text.format(n=self.number(n), **params)

    def p_(self, context: str, msgid: str, /, **params: Any) -> str:
        """The translation of ``msgid`` in ``context`` (msgctxt), for words that differ by use."""
        text = self._wrap(self._gt.pgettext(context, msgid))
        return text.format(**params) if params else text

    def np_(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """``n_`` with a context."""
        text = self._wrap(self._gt.npgettext(context, singular, plural, n))
        return text.format(n=self.number(n), **params)

    # ---------------------------------------------------------------- numbers

    def number(self, value: int | float) -> str:
        """``value`` with the language's digit grouping and decimal sign (``12 345``, ``12.345``).

        English, the source language, keeps the digits ungrouped (``12345``) as Tapis always wrote
        them, so English messages are unchanged by the catalogues. A negative value takes a true
        minus sign (``−8``), as the signed figures do (``bot.rules.base.signed``).
        """
        if isinstance(value, int):
            cached = self._numbers.get(value)
            if cached is None:
                cached = self._format(value)
                if len(self._numbers) < 4096:
                    self._numbers[value] = cached
            return cached
        return self._format(value)

    def _format(self, value: int | float) -> str:
        text = format_decimal(value, locale=self._locale, group_separator=self.lang != SOURCE)
        return "−" + text[1:] if text.startswith("-") else text

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with exactly ``digits`` decimals in the language (``12.3``, ``12,3``): ratings."""
        pattern = "#,##0." + "0" * digits if digits > 0 else "#,##0"
        return format_decimal(value, format=pattern, locale=self._locale, group_separator=self.lang != SOURCE)

    def signed_decimal(self, value: float, digits: int = 1) -> str:
        """``+1.5`` / ``−0.3`` (``+1,5`` in French; a true minus sign): a rating's trend."""
        text = self.decimal(abs(value), digits)
        return ("−" if round(value, digits) < 0 else "+") + text

    def percent(self, value: float) -> str:
        """A ratio as a whole percentage in the language (``50%``, ``50 %``)."""
        return format_percent(value, locale=self._locale)

    def card(self, code: str, spanish: bool = False) -> str:
        """A card, short: ``"D♥"`` in French; Spanish-deck cards in full (``"rey de copas"``)."""
        from bot.i18n.cards import short

        return short(code, self, spanish, self.look)

    def cards(self, codes: Sequence[str], spanish: bool = False) -> str:
        """Several cards (comma-separated for the Spanish deck's full names); an em dash for none."""
        sep = ", " if spanish else " "
        return sep.join(self.card(c, spanish) for c in codes) or "—"

    def suit(self, suit: str, marias: bool = False) -> str:
        """A French-deck suit's name ("cœur"; at a Marias table Czech says "kule" for ♦)."""
        from bot.i18n.cards import suit_name

        return suit_name(suit, self, marias=marias, look=self.look)

    def symbol(self, suit: str) -> str:
        """A French-coded suit's sign in text for this reader's look (``♦``, ``🔷``, ``🔔``)."""
        from bot.i18n.cards import symbol

        return symbol(suit, self, self.look)

    def jetons(self, n: int) -> str:
        """``n`` jetons in the language, plural form included ("1 žeton", "3 žetony", "5 žetonů")."""
        return self.n_("{n} jeton", "{n} jetons", n)

    def signed(self, value: int) -> str:
        """``+12``, ``−3`` (a true minus sign), ``0``: a jeton change (``bot.rules.base.signed``)."""
        return signed(value, self)


class PseudoTranslator(Translator):
    """The test pseudo-locale: English text, each message of the catalogue wrapped in ⟦…⟧.

    Only ids of the extracted template (``tapis.pot``) are wrapped: a text shown to a user with
    English words outside the markers either bypassed the translator or is missing from the
    catalogue, which is what the pseudo-locale tests look for.
    """

    __slots__ = ("_known",)

    def __init__(self) -> None:
        super().__init__(SOURCE)
        self.lang = PSEUDO
        from bot.i18n.catalog import read_template

        self._known = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                       for m in read_template() if m.id}

    def _mark(self, context: str | None, msgid: str, text: str) -> str:
        return OPEN + text + CLOSE if (context, msgid) in self._known else text

    def _(self, msgid: str, /, **params: Any) -> str:
        text = self._mark(None, msgid, msgid)
        return text.format(**params) if params else text

    def n_(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        text = self._mark(None, singular, singular if n == 1 else plural)
        return text.format(n=self.number(n), **params)

    def p_(self, context: str, msgid: str, /, **params: Any) -> str:
        text = self._mark(context, msgid, msgid)
        return text.format(**params) if params else text

    def np_(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        text = self._mark(context, singular, singular if n == 1 else plural)
        return text.format(n=self.number(n), **params)


@functools.cache
def translator(lang: str | None) -> Translator:
    """The cached ``Translator`` of ``lang`` (our code: ``"fr"``; unknown or None → English)."""
    if lang == PSEUDO:
        return PseudoTranslator()
    return Translator(lang if lang in LANGUAGES else SOURCE)


def english() -> Translator:
    """The English translator (the source text), for code paths without a reader yet."""
    return translator(SOURCE)

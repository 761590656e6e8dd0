"""Tapis in several languages: gettext catalogues managed with Babel.

- ``translator(lang)`` -> a cached ``Translator`` (``_``, ``n_``, ``p_``, ``np_``, ``number``);
- ``N_`` / ``NP_`` mark text for extraction where it is defined, ``Msg`` carries a message and
  its parameters until the reader's language is known;
- ``user_language`` / ``table_language`` / ``language_of`` map Discord locales onto our
  languages (see ``bot.i18n.languages``);
- ``bot.i18n.cards`` names cards per deck and language; ``bot.i18n.slash`` is the
  ``app_commands.Translator`` for slash commands (the only module here importing discord);
- ``python -m bot.i18n extract|update|check`` maintains the catalogues (``bot.i18n.tools``).

Everything except ``slash`` is plain Python + Babel, usable from any layer.
"""

from __future__ import annotations

from bot.i18n.catalog import reload as _reload_catalogues
from bot.i18n.languages import (
    DISCORD_LOCALES,
    LANGUAGES,
    NATIVE_NAMES,
    PSEUDO,
    SOURCE,
    language_of,
    table_language,
    user_language,
)
from bot.i18n.lazy import N_, NP_, Amount, Msg, msg, nmsg
from bot.i18n.translator import CLOSE, OPEN, PseudoTranslator, Translator, english, translator

__all__ = [
    "CLOSE", "DISCORD_LOCALES", "LANGUAGES", "NATIVE_NAMES", "NP_", "N_", "OPEN", "PSEUDO", "SOURCE",
    "Amount", "Msg", "PseudoTranslator", "Translator", "english", "language_of", "msg", "nmsg", "reload",
    "table_language", "translator", "user_language",
]


def reload() -> None:
    """Forget every cached catalogue and translator (after editing a ``.po`` in a running process)."""
    _reload_catalogues()
    translator.cache_clear()

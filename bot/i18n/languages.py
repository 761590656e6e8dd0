"""The languages Tapis speaks and how Discord's locale codes map onto them.

Pure functions on strings: a ``discord.Locale`` is passed as ``str(locale)`` (its value,
``"es-ES"``), so this module needs no Discord import and the rules core may use it too.
"""

from __future__ import annotations

#: The source language of the catalogues; everything falls back to it.
SOURCE = "en"
#: Languages with a catalogue under ``bot/locales/<lang>/LC_MESSAGES/tapis.po``, source first.
LANGUAGES: tuple[str, ...] = ("en", "fr", "es", "eu", "cs")
#: Test-only pseudo-locale: every catalogue text wrapped in ⟦…⟧ (see ``bot.i18n.translator``).
PSEUDO = "pseudo"
#: Each language's name in itself, for the ``/language`` choices.
NATIVE_NAMES = {"en": "English", "fr": "Français", "es": "Español", "eu": "Euskara", "cs": "Čeština"}
#: Discord client locales served by each language (Discord sends one of these codes). Discord has
#: no Basque client: Basque is read by those who choose it (``/language``, ``/preferences``, a
#: table's ``language``, a server's ``/settings language``), and slash commands show no Basque.
DISCORD_LOCALES: dict[str, tuple[str, ...]] = {
    "en": ("en-US", "en-GB"),
    "fr": ("fr",),
    "es": ("es-ES", "es-419"),
    "eu": (),
    "cs": ("cs",),
}
_BY_DISCORD = {code.lower(): lang for lang, codes in DISCORD_LOCALES.items() for code in codes}


def language_of(locale: object) -> str | None:
    """Our language for a Discord locale code (``"es-419"`` → ``"es"``); None if we lack it.

    Also accepts our own codes (``"cs"``, ``"pseudo"``) and bare prefixes (``"fr-CA"`` → ``"fr"``).
    """
    if locale is None:
        return None
    code = str(locale).strip()
    if not code:
        return None
    low = code.lower()
    if low == PSEUDO:
        return PSEUDO
    if low in _BY_DISCORD:
        return _BY_DISCORD[low]
    if low in LANGUAGES:
        return low
    prefix = low.split("-", 1)[0].split("_", 1)[0]
    return prefix if prefix in LANGUAGES else None


def choosable(value: object) -> str | None:
    """``value`` if it names a language a person may choose (exactly one of ``LANGUAGES``), else None.

    Stricter than ``language_of``: no Discord locale codes, no prefixes, never the test-only
    pseudo-locale (a ``/language`` value arrives as typed, and a forged one is any string).
    """
    return value if isinstance(value, str) and value in LANGUAGES else None


def user_language(chosen: str | None, interaction_locale: object) -> str:
    """The language of an ephemeral answer or a DM to one person.

    Their ``/language`` choice if any, else their Discord client's language, else English.
    """
    return language_of(chosen) or language_of(interaction_locale) or SOURCE


def table_language(option: str | None, guild_locale: object) -> str:
    """The language of a table's public message and images.

    The ``language`` option of ``/table new`` if given, else the server's language, else English.
    """
    return language_of(option) or language_of(guild_locale) or SOURCE

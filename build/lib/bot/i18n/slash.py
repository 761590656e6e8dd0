"""Slash commands in each client's language: discord.py's ``app_commands.Translator``.

discord.py calls ``translate`` for every command, group and parameter name, description and
choice name when it syncs the tree; what it returns becomes the ``name_localizations`` /
``description_localizations`` Discord shows in a French, Spanish or Czech client. Names are
looked up under msgctxt ``"slash name"`` (a name and a word of the text may translate
differently) and kept only if Discord would accept them (lower case, no spaces, ≤ 32 chars).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n.catalog import SLASH_NAME, SLASH_NAME_RE
from bot.i18n.languages import SOURCE, language_of
from bot.i18n.translator import translator

NAME_LOCATIONS = frozenset({
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
})


class CatalogueTranslator(app_commands.Translator):
    """Command text from the gettext catalogues; None (Discord shows the English) when untranslated."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return translate_command_text(string.message, str(locale),
                                      context.location in NAME_LOCATIONS)


def translate_command_text(text: str, locale: str, is_name: bool) -> str | None:
    """The localisation of one command text for a Discord locale, or None to keep the English."""
    lang = language_of(locale)
    if lang is None or lang == SOURCE:
        return None
    tr = translator(lang)
    if is_name:
        out = tr.p_(SLASH_NAME, text)
        if out == text or not SLASH_NAME_RE.match(out) or out != out.lower():
            return None
        return out
    out = tr._(text)
    return None if out == text else out

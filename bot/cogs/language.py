"""``/language``: which language Tapis writes to you in (ephemeral answers and DMs).

The choice is stored per person (``user_languages``), across servers; "auto" forgets it, so
Tapis follows the Discord client's language again. Every interaction also notes the client's
locale, so a DM sent outside any interaction (a new deal) is in the reader's language too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.errors import UserError
from bot.i18n import LANGUAGES, NATIVE_NAMES, Msg, msg, translator
from bot.i18n.languages import choosable
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

AUTO = "auto"
LANGUAGE_CHOICES = [app_commands.Choice(name=NATIVE_NAMES[lang], value=lang) for lang in LANGUAGES] + [
    app_commands.Choice(name="Follow my Discord language", value=AUTO)
]


def unknown_language() -> Msg:
    """The refusal of a language value outside the choices (Discord offers only the choices, but a
    forged interaction may send any string; the test-only pseudo-locale is never one of them)."""
    return msg("Unknown language. Choose one of: {languages}.",
               languages=", ".join(NATIVE_NAMES[lang] for lang in LANGUAGES))


class Language(commands.Cog):
    """The ``/language`` command and the note of each user's client locale."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[TapisBot]) -> None:
        await self.bot.languages.note_client(interaction.user.id, interaction.locale)

    @app_commands.command(name="language", description="The language Tapis writes to you in")
    @app_commands.describe(language="Your language, or follow your Discord language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[TapisBot], language: str) -> None:
        store = self.bot.languages
        if language != AUTO and choosable(language) is None:
            raise UserError(unknown_language())
        if language == AUTO:
            await store.choose(interaction.user.id, None)
            tr = await reader(self.bot, interaction)
            text = tr._("Tapis now follows your Discord language ({language}).",
                        language=NATIVE_NAMES[tr.lang])
        else:
            await store.choose(interaction.user.id, language)
            tr = translator(language)
            text = tr._("From now on Tapis writes to you in {language}.", language=NATIVE_NAMES[language])
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Language(bot))

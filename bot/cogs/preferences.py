"""``/preferences``: a player's own choices, across servers (issue 29).

- ``language``: as ``/language`` (which keeps working): the same store, the same choices.
- ``hands``: ``dm`` (each deal's hand by DM, the default) or ``channel`` (no hand DM: the
  ephemeral **My hand** button of the table message; a bot cannot post an ephemeral message
  unasked, so "in the channel" means on the player's click).
- ``reminders``: whether Tapis may DM them reminders (correspondence tables, issue 28).
- ``faces`` and ``pack``: how the cards look to them (issue 30), the same store and choices as
  ``/cards`` (which keeps working): ``bot.store.card_faces``.

Without options it shows the current choices; with some, it changes those and shows the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.cards import FACE_CHOICES, PACK_CHOICES, describe
from bot.cogs.errors import UserError
from bot.cogs.language import AUTO, LANGUAGE_CHOICES, unknown_language
from bot.i18n import NATIVE_NAMES, Translator, msg
from bot.i18n.languages import choosable
from bot.rules.looks import FACES, PACK_PREFERENCES
from bot.store.preferences import HANDS, Preferences
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

HAND_CHOICES = [app_commands.Choice(name="By DM", value="dm"),
                app_commands.Choice(name="In the channel (My hand button)", value="channel")]


def summary(prefs: Preferences, chosen: str | None, tr: Translator) -> str:
    """The reader's preferences, one per line."""
    language = NATIVE_NAMES[chosen] if chosen else tr._("your Discord language ({language})",
                                                         language=NATIVE_NAMES[tr.lang])
    hands = tr._("by DM") if prefs.hands == "dm" else tr._("in the channel (My hand button)")
    return "\n".join([
        tr._("Language: {value}", value=language),
        tr._("Hands: {value}", value=hands),
        tr._("Reminders by DM: {value}", value=tr._("on") if prefs.reminders else tr._("off")),
    ])


class PreferencesCog(commands.Cog, name="Preferences"):
    """The ``/preferences`` command."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="preferences",
                          description="Your own choices: language, cards, hands, reminders")
    @app_commands.describe(language="The language Tapis writes to you in",
                           faces="Classic, four colours (one per suit) or large indices",
                           pack="Each game's own pack (the Czech pack at Marias) or the French suits",
                           hands="How your hand reaches you at each deal",
                           reminders="Whether Tapis may DM you reminders")
    @app_commands.choices(language=LANGUAGE_CHOICES, faces=FACE_CHOICES, pack=PACK_CHOICES,
                          hands=HAND_CHOICES)
    async def preferences(self, interaction: discord.Interaction[TapisBot], language: str | None = None,
                          faces: str | None = None, pack: str | None = None, hands: str | None = None,
                          reminders: bool | None = None) -> None:
        uid = interaction.user.id
        if language is not None and language != AUTO and choosable(language) is None:
            raise UserError(unknown_language())
        if hands is not None and hands not in HANDS:
            raise UserError(msg("Hands come by DM or in the channel: choose dm or channel."))
        if faces is not None and faces not in FACES:
            raise UserError(msg("Unknown card faces: choose classic, four colours or large indices."))
        if pack is not None and pack not in PACK_PREFERENCES:
            raise UserError(msg("Unknown pack: choose each game's own pack or the French suits."))
        if faces is not None or pack is not None:
            await self.bot.card_faces.choose(uid, faces, pack)
        if language is not None:
            await self.bot.languages.choose(uid, None if language == AUTO else language)
        if hands is not None:
            await self.bot.preferences.set_hands(uid, hands)
        if reminders is not None:
            await self.bot.preferences.set_reminders(uid, reminders)
        tr = await reader(self.bot, interaction)
        chosen, _ = await self.bot.languages.user(uid)
        changed = (language, faces, pack, hands, reminders) != (None,) * 5
        head = tr._("Your preferences are saved.") if changed else tr._("Your preferences:")
        cards = describe(*await self.bot.card_faces.get(uid), tr)
        text = "\n".join([head, summary(await self.bot.preferences.get(uid), chosen, tr), cards])
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(PreferencesCog(bot))

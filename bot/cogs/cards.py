"""``/cards``: how Tapis shows you the cards (issue 30, item 2).

Until the players' preferences of issue 29 land, this command of ``/language``'s kind stores a
person's choice, across servers (``bot.store.card_faces``): the **faces** (classic, four colours,
large indices) and the **pack** (each game's own, i.e. the Czech pack at Marias, or the French
suits wherever a game allows them). Your hands, DMs and answers follow it; a table's image
follows the table's own ``faces`` and ``pack`` options (its host's choice). Without options the
command shows what you chose. Answers are ephemeral and in your language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import N_, Translator
from bot.rules.looks import CLASSIC, FACES, FOUR_COLOUR, FRENCH, LARGE, NATIVE, PACK_PREFERENCES
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

#: The words for each choice, in the reader's language.
FACE_NAMES = {CLASSIC: N_("classic"), FOUR_COLOUR: N_("four colours (one per suit)"),
              LARGE: N_("large indices")}
PACK_NAMES = {NATIVE: N_("each game's own pack (the Czech pack at Marias)"),
              FRENCH: N_("the French suits wherever a game has them")}
FACE_CHOICES = [app_commands.Choice(name="Classic", value=CLASSIC),
                app_commands.Choice(name="Four colours (one per suit)", value=FOUR_COLOUR),
                app_commands.Choice(name="Large indices", value=LARGE)]
PACK_CHOICES = [app_commands.Choice(name="Each game's own pack (Czech pack at Marias)", value=NATIVE),
                app_commands.Choice(name="French suits", value=FRENCH)]


def describe(faces: str | None, pack: str | None, tr: Translator) -> str:
    """What a person chose, in a sentence (the table's choice for what they did not)."""
    faces_text = tr._(FACE_NAMES[faces]) if faces in FACE_NAMES else tr._("as the table shows them")
    pack_text = tr._(PACK_NAMES[pack]) if pack in PACK_NAMES else tr._("as the table shows them")
    return tr._("Your cards: faces {faces}; pack: {pack}. Your hands and DMs follow this choice; "
                "a table's image follows the table's.", faces=faces_text, pack=pack_text)


class Cards(commands.Cog):
    """The ``/cards`` command."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="cards", description="How Tapis shows you the cards: faces and pack")
    @app_commands.describe(faces="Classic, four colours (one per suit) or large indices",
                           pack="Each game's own pack (the Czech pack at Marias) or the French suits")
    @app_commands.choices(faces=FACE_CHOICES, pack=PACK_CHOICES)
    async def cards(self, interaction: discord.Interaction[TapisBot], faces: str | None = None,
                    pack: str | None = None) -> None:
        tr = await reader(self.bot, interaction)
        if faces is not None and faces not in FACES:
            await interaction.response.send_message(
                tr._("Unknown card faces: choose classic, four colours or large indices."), ephemeral=True)
            return
        if pack is not None and pack not in PACK_PREFERENCES:
            await interaction.response.send_message(
                tr._("Unknown pack: choose each game's own pack or the French suits."), ephemeral=True)
            return
        store = self.bot.card_faces
        if faces is None and pack is None:
            chosen = await store.get(interaction.user.id)
        else:
            chosen = await store.choose(interaction.user.id, faces, pack)
        await interaction.response.send_message(describe(*chosen, tr), ephemeral=True)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Cards(bot))

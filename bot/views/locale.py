"""Which language a Discord text is written in (issue 14).

- an ephemeral answer: the clicker's ``/language`` choice, else their client's locale;
- the table message and its image: the table's language (fixed by ``/table new``);
- a DM: the player's choice, else the client locale of their last interaction, else the table's.

Translators are cached per language (``bot.i18n.translator``); the table's language is read
from the ``LanguageStore`` cache, so the presenter's synchronous listener can use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import Translator, translator

if TYPE_CHECKING:
    from bot.app import TapisBot


async def reader(bot: TapisBot, interaction: discord.Interaction[TapisBot]) -> Translator:
    """The translator for an ephemeral answer to ``interaction``'s user."""
    return translator(await bot.languages.reader(interaction.user.id, interaction.locale))


def table_tr(bot: TapisBot, table_id: int) -> Translator:
    """The table's language, from the cache (English until it was loaded or for an old table)."""
    return translator(bot.languages.cached_table(table_id))


async def load_table_tr(bot: TapisBot, table_id: int) -> Translator:
    """The table's language, reading the database once if it is not cached yet."""
    return translator(await bot.languages.table(table_id))


async def dm_tr(bot: TapisBot, user_id: int, table_id: int) -> Translator:
    """The translator for a DM to ``user_id`` about table ``table_id``."""
    store = bot.languages
    return translator(await store.reader(user_id, None, await store.table(table_id)))

"""Which language a Discord text is written in (issue 14).

- an ephemeral answer: the clicker's ``/language`` choice, else their client's locale;
- the table message and its image: the table's language (fixed by ``/table new``);
- a DM: the player's choice, else the client locale of their last interaction, else the table's.

The translator of a text about a table also carries the look of its cards (issue 30,
``bot.rules.looks``), so the images and the card text agree: the table message and image in the
table's look (its ``pack`` and ``faces`` options), a player's DMs and answers in their ``/cards``
choice (what they did not choose follows the table).

Translators are cached per language (``bot.i18n.translator``); the table's language is read
from the ``LanguageStore`` cache, so the presenter's synchronous listener can use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Translator, translator
from bot.rules.looks import FRENCH, Look, resolve, table_look

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.rules.base import Game
    from bot.tables import Table


async def reader(bot: TapisBot, interaction: discord.Interaction[TapisBot]) -> Translator:
    """The translator for an ephemeral answer to ``interaction``'s user."""
    return translator(await bot.languages.reader(interaction.user.id, interaction.locale))


def look_of_table(table: Table) -> Look:
    """The look of a table's public message and image: its ``pack`` and ``faces`` options."""
    return table_look(table.rules.pack_choices, table.options)


async def player_look(bot: TapisBot, user_id: int, table: Table) -> Look:
    """The look ``user_id`` sees ``table``'s cards in: their ``/cards`` choice, the table's for
    what they did not choose; a pack the game does not have falls back to the game's own."""
    return await look_for(bot, user_id, table.rules, table.options)


async def look_for(bot: TapisBot, user_id: int, rules: Game, options: Mapping[str, Any]) -> Look:
    """``player_look`` of a table known by its game and options (a finished table's row)."""
    faces, pack = await bot.card_faces.get(user_id)
    packs = rules.pack_choices
    shown = table_look(packs, options)
    wish = shown.pack if pack is None else FRENCH if pack == FRENCH else packs[0]
    return resolve(packs, wish, faces or shown.faces)


async def at_table(bot: TapisBot, tr: Translator, user_id: int, table: Table) -> Translator:
    """``tr`` dressed in the look ``user_id`` sees ``table``'s cards in (ephemeral answers)."""
    return tr.dressed(await player_look(bot, user_id, table))


def _table_dressed(bot: TapisBot, tr: Translator, table_id: int) -> Translator:
    table = bot.tables.peek(table_id)
    return tr if table is None else tr.dressed(look_of_table(table))


def table_tr(bot: TapisBot, table_id: int) -> Translator:
    """The table's language and look, from the cache (English until it was loaded or for an old table)."""
    return _table_dressed(bot, translator(bot.languages.cached_table(table_id)), table_id)


async def load_table_tr(bot: TapisBot, table_id: int) -> Translator:
    """The table's language and look, reading the database once if it is not cached yet."""
    return _table_dressed(bot, translator(await bot.languages.table(table_id)), table_id)


async def dm_tr(bot: TapisBot, user_id: int, table_id: int) -> Translator:
    """The translator for a DM to ``user_id`` about table ``table_id`` (their language and look)."""
    store = bot.languages
    tr = translator(await store.reader(user_id, None, await store.table(table_id)))
    table = bot.tables.peek(table_id)
    return tr if table is None else await at_table(bot, tr, user_id, table)

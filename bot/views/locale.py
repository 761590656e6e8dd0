"""Which language a Discord text is written in (issue 14).

- an ephemeral answer: the clicker's ``/language`` choice, else their client's locale;
- the table message and its image: the table's language (fixed by ``/table new``);
- a DM: the player's choice, else the client locale of their last interaction, else the table's.

Translators are cached per language (``bot.i18n.translator``); the table's language is read
from the ``LanguageStore`` cache, so the presenter's synchronous listener can use it.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator, translator


def _store(bot: Any) -> Any:
    return getattr(bot, "languages", None)


async def reader(bot: Any, interaction: Any) -> Translator:
    """The translator for an ephemeral answer to ``interaction``'s user."""
    store = _store(bot)
    if store is None:
        return translator(None)
    return translator(await store.reader(interaction.user.id, interaction.locale))


def table_tr(bot: Any, table_id: int) -> Translator:
    """The table's language, from the cache (English until it was loaded or for an old table)."""
    store = _store(bot)
    return translator(store.cached_table(table_id) if store is not None else None)


async def load_table_tr(bot: Any, table_id: int) -> Translator:
    """The table's language, reading the database once if it is not cached yet."""
    store = _store(bot)
    return translator(await store.table(table_id) if store is not None else None)


async def dm_tr(bot: Any, user_id: int, table_id: int) -> Translator:
    """The translator for a DM to ``user_id`` about table ``table_id``."""
    store = _store(bot)
    if store is None:
        return translator(None)
    return translator(await store.reader(user_id, None, await store.table(table_id)))

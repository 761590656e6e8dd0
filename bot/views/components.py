"""Persistent components: every button and select is a ``DynamicItem`` whose id says it all.

``TableItem`` matches any ``tapis:`` id, so a stale, forged or unknown id is
still answered (with a refusal) instead of being dropped. ``ForeignItem`` matches every other
id (an old message, another bot version) and answers "no longer in use". discord.py runs every
dynamic item whose template matches, so the two templates are disjoint: a click is answered by
exactly one of them. Views built here are stopped before they are sent: discord.py then never
binds them to a message, and every click goes through the dynamic items exactly once. A
``discord.ui.View`` registered by other code (``add_view``, or bound to its message) still
answers its own components: ``ForeignItem`` stays silent for those.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.i18n import Translator, english
from bot.views import ids
from bot.views.moves import layout
from bot.views.vocab import move_kind

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table

TEMPLATE = r"(?s)tapis:.*"
FOREIGN_TEMPLATE = r"(?s)(?!tapis:).*"


class TableItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Any Tapis button or select (lobby, My hand, a move). One class, so one dispatch per click."""

    def __init__(self, item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TableItem:
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        from bot.views.handlers import handle_component

        values = self.item.values if isinstance(self.item, discord.ui.Select) else None
        await handle_component(ours(interaction), self.custom_id, values)


class ForeignItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=FOREIGN_TEMPLATE):
    """Any component whose id is not Tapis's: an ephemeral "no longer in use", never silence."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ForeignItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        from bot.views.handlers import no_longer_in_use

        if not view_handles(interaction, self.custom_id):
            await no_longer_in_use(ours(interaction))


def ours(interaction: discord.Interaction[discord.Client]) -> discord.Interaction[TapisBot]:
    """The interaction typed with its real client: the dynamic items are registered by ``TapisBot``
    only (``setup_hook``), so the client of every interaction they receive is the ``TapisBot``."""
    return cast("discord.Interaction[TapisBot]", interaction)


def view_handles(interaction: discord.Interaction[discord.Client], custom_id: str) -> bool:
    """Whether a ``discord.ui.View`` registered with the client (``add_view``, or sent bound to
    its message) answers this component itself, so that ``ForeignItem`` must stay silent.

    discord.py offers no public lookup for this; it reads the view store of discord.py 2.7.1
    (pinned), and without it ``ForeignItem`` answers as if no view were there.
    """
    store = getattr(getattr(interaction.client, "_connection", None), "_view_store", None)
    views = getattr(store, "_views", None)
    if not isinstance(views, dict):
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    kind = data.get("component_type")
    message_id = interaction.message.id if interaction.message is not None else None
    return any((kind, custom_id) in views.get(key, {}) for key in (message_id, None))


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # never stored: dispatch goes through the dynamic items only
    return view


def button(table_id: int, version: int, verb: str, label: str, style: discord.ButtonStyle,
           row: int | None = None, arg: str | None = None, emoji: str | None = None) -> TableItem:
    cid = str(ids.ComponentId(table_id, version, verb, arg))
    return TableItem(discord.ui.Button(label=label, style=style, custom_id=cid, row=row, emoji=emoji))


def lobby_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """Join / Leave / Add AI / Add strong AI / Add expert AI / Start (in the table's language)."""
    t, v, tr = table.id, table.version, tr or english()
    return _view([
        button(t, v, "join", tr._("Join"), discord.ButtonStyle.success),
        button(t, v, "leave", tr._("Leave"), discord.ButtonStyle.secondary),
        button(t, v, "ai", tr._("Add AI"), discord.ButtonStyle.secondary),
        button(t, v, "ai", tr._("Add strong AI"), discord.ButtonStyle.secondary, arg="strong"),
        button(t, v, "ai", tr._("Add expert AI"), discord.ButtonStyle.secondary, arg="expert"),
        button(t, v, "start", tr._("Start"), discord.ButtonStyle.primary),
    ])


def playing_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """The table message during play: My hand (ephemeral) and Leave."""
    t, v, tr = table.id, table.version, tr or english()
    return _view([
        button(t, v, "hand", tr._("My hand"), discord.ButtonStyle.primary, emoji="🂠"),
        button(t, v, "leave", tr._("Leave"), discord.ButtonStyle.secondary),
    ])


def table_view(table: Table, tr: Translator | None = None) -> discord.ui.View | None:
    if table.status == "lobby":
        return lobby_view(table, tr)
    if table.status == "playing":
        return playing_view(table, tr)
    return None


def moves_view(table: Table, seat: int, tr: Translator | None = None) -> discord.ui.View | None:
    """The seat's legal moves now, as buttons and selects carrying the table's version."""
    if table.state is None or table.status != "playing" or seat not in table.state.to_act():
        return None
    legal = table.state.legal_actions(seat)
    if not legal:
        return None
    tr = tr or english()
    controls = layout(legal, lambda action: table.rules.label(action, tr),
                      kind_name=lambda kind: move_kind(kind, tr))
    items: list[discord.ui.Item[Any]] = []
    for n, (label, index) in enumerate(controls.buttons):
        items.append(TableItem(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, row=n // 5,
            custom_id=ids.move_id(table.id, table.version, seat, index))))
    first_row = -(-len(controls.buttons) // 5)
    for g, (placeholder, options) in enumerate(controls.selects):
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=ids.select_id(table.id, table.version, seat, g), placeholder=placeholder,
            row=first_row + g, options=[discord.SelectOption(label=lab, value=str(i)) for lab, i in options])
        items.append(TableItem(select))
    return _view(items)

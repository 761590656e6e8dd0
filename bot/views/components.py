"""The components Tapis sends: plain buttons and selects whose custom id says it all.

Ids are built by ``bot.views.ids``; the clicks come back through the dynamic items of
``bot.views.handlers`` (``TableItem``, ``ForeignItem``), which parse them. Views built here are
stopped before they are sent: discord.py then never binds them to a message, and every click goes
through the dynamic items exactly once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.ai.levels import LOBBY
from bot.i18n import Translator, english
from bot.views import ids
from bot.views.moves import layout
from bot.views.vocab import move_kind

if TYPE_CHECKING:
    from bot.tables import Table

def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # never stored: dispatch goes through the dynamic items only
    return view


def button(table_id: int, version: int, verb: str, label: str, style: discord.ButtonStyle,
           row: int | None = None, arg: str | None = None,
           emoji: str | None = None) -> discord.ui.Button[discord.ui.View]:
    """A table button whose id carries the table, its version, the verb and its argument."""
    cid = str(ids.ComponentId(table_id, version, verb, arg))
    return discord.ui.Button(label=label, style=style, custom_id=cid, row=row, emoji=emoji)


def lobby_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """Join / Leave / an Add AI button per lobby level (``bot.ai.levels.LOBBY``) / Start (in the
    table's language)."""
    t, v, tr = table.id, table.version, tr or english()
    return _view([
        button(t, v, "join", tr._("Join"), discord.ButtonStyle.success),
        button(t, v, "leave", tr._("Leave"), discord.ButtonStyle.secondary),
        *(button(t, v, "ai", tr._(ai.label), discord.ButtonStyle.secondary, arg=arg) for _, ai, arg in LOBBY),
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
                      kind_name=lambda kind: move_kind(kind, table.game, tr))
    items: list[discord.ui.Item[Any]] = []
    for n, (label, index) in enumerate(controls.buttons):
        items.append(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary, row=n // 5,
            custom_id=ids.move_id(table.id, table.version, seat, index)))
    first_row = -(-len(controls.buttons) // 5)
    for g, (placeholder, options) in enumerate(controls.selects):
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=ids.select_id(table.id, table.version, seat, g), placeholder=placeholder,
            row=first_row + g, options=[discord.SelectOption(label=lab, value=str(i)) for lab, i in options])
        items.append(select)
    return _view(items)

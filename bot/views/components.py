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
from bot.rules.mus.senas import gesture as sena_gesture
from bot.rules.mus.senas import name as sena_name
from bot.tables.reactions import EMOTES
from bot.tables.seats import free_places
from bot.views import ids
from bot.views.display import player_name, seat_pair
from bot.views.labels import move_label
from bot.views.moves import group_layout, layout
from bot.views.vocab import move_kind

if TYPE_CHECKING:
    from bot.tables import Table
    from bot.tables.model import SeatInfo

#: Discord's most options in a select.
MAX_OPTIONS = 25


def clip(text: str, size: int) -> str:
    """``text`` cut to ``size`` characters (a select option's label is at most 100)."""
    return text if len(text) <= size else text[: size - 1] + "…"


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
    """Join / Leave / an Add AI button per lobby level the server lets sit (``bot.ai.levels.LOBBY``,
    ``LobbyPlan.ai_levels``), Start, then the seat select (free seats, for anyone) and the host's
    select (remove, hand over, pick a player to move: ``host_choices``, then ``move_view``), in the
    table's language. Five buttons a row, each select on a row of its own (Discord's layout)."""
    t, v, tr = table.id, table.version, tr or english()
    first = [("join", tr._("Join"), discord.ButtonStyle.success, None),
             ("leave", tr._("Leave"), discord.ButtonStyle.secondary, None),
             *(("ai", tr._(ai.label), discord.ButtonStyle.secondary, arg) for level, ai, arg in LOBBY
               if table.plan.ai_levels is None or level in table.plan.ai_levels)]
    items: list[discord.ui.Item[Any]] = [button(t, v, verb, label, style, row=i // 5, arg=arg)
                                         for i, (verb, label, style, arg) in enumerate(first)]
    row = -(-len(first) // 5)
    items.append(button(t, v, "start", tr._("Start"), discord.ButtonStyle.primary, row=row))
    free = [discord.SelectOption(label=tr._("Seat {n}", n=p + 1), value=str(p),
                                 description=seat_pair(table.game, p, tr)) for p in seat_choices(table)]
    if free:
        row += 1
        items.append(discord.ui.Select(custom_id=str(ids.ComponentId(t, v, "seat")), row=row,
                                       placeholder=tr._("Choose a free seat"), options=free[:MAX_OPTIONS]))
    host = [discord.SelectOption(label=clip(label, 100), value=value)
            for label, value in host_choices(table, tr)]
    if host and row < 4:
        items.append(discord.ui.Select(custom_id=str(ids.ComponentId(t, v, "host")), row=row + 1,
                                       placeholder=tr._("Host: move, remove or make host"),
                                       options=host[:MAX_OPTIONS]))
    return _view(items)


def seat_choices(table: Table) -> list[int]:
    """The free seats of a lobby (not sat in, not kept for an invitee)."""
    return free_places(table.plan, table.capacity)


def host_choices(table: Table, tr: Translator) -> list[tuple[str, str]]:
    """The host's choices in the lobby's select, as (label, value): remove a player, make one host,
    or pick one to move (``move_choices`` then offers the seats). Values name the seat and who sat
    there: ``r.<seat>.<user or ai>``, ``h.<seat>.<user>``, ``p.<seat>.<user or ai>``.

    At most ``3 × seats - 2`` choices (22 for Michigan's 8 seats), so every one fits in one select
    (``MAX_OPTIONS``); the ``n × (n - 1)`` moves themselves would not (56 for 8 seats)."""
    out: list[tuple[str, str]] = []
    seated = list(zip(table.plan.places, table.seats, strict=False))
    for place, info in seated:
        if info.user_id != table.host_id:
            out.append((tr._("Remove {name}", name=_name(info, tr)), f"r.{place}.{_who(info)}"))
    for place, info in seated:
        if not info.ai and info.user_id is not None and info.user_id != table.host_id:
            out.append((tr._("Make {name} the host", name=_name(info, tr)), f"h.{place}.{info.user_id}"))
    for place, info in seated:
        if move_choices(table, tr, place):
            out.append((tr._("Move {name}…", name=_name(info, tr)), f"p.{place}.{_who(info)}"))
    return out


def move_choices(table: Table, tr: Translator, place: int) -> list[tuple[str, str]]:
    """Where the host may move whoever sits at seat ``place``, as (label, value): every other seat
    free or taken (a swap), never one kept for an invitee. Values ``m.<seat>.<user or ai>.<to>``."""
    if place not in table.plan.places:
        return []
    info = table.seats[table.plan.places.index(place)]
    free = set(seat_choices(table))
    return [(tr._("Move {name} to seat {n}", name=_name(info, tr), n=to + 1), f"m.{place}.{_who(info)}.{to}")
            for to in range(table.capacity) if to != place and (to in free or to in table.plan.places)]


def move_view(table: Table, place: int, tr: Translator | None = None) -> discord.ui.View:
    """The host's second step of a move (sent to the host alone): a select of the seats the player at
    ``place`` may move to. Same verb (``host``) and values as every host choice, so the click is
    checked as the lobby's select is: by the table service, under the table's lock."""
    tr = tr or english()
    options = [discord.SelectOption(label=clip(label, 100), value=value)
               for label, value in move_choices(table, tr, place)]
    return _view([discord.ui.Select(custom_id=str(ids.ComponentId(table.id, table.version, "host")),
                                    placeholder=tr._("Choose a seat"), options=options[:MAX_OPTIONS])])


def _name(info: SeatInfo, tr: Translator) -> str:
    """Who sits at a seat, in the reader's words (an AI seat's "AI 2" in their language)."""
    return player_name(info.name, info.ai, tr)


def _who(info: SeatInfo) -> str:
    """How a host choice's value names who sits at a seat: their user id, or ``ai``."""
    return "ai" if info.ai or info.user_id is None else str(info.user_id)


def final_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """The final message of a finished session: Play again."""
    tr = tr or english()
    return _view([button(table.id, table.version, "again", tr._("Play again"), discord.ButtonStyle.success)])


def playing_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """The table message during play: My hand (ephemeral), Leave, and the quick reactions select
    (``bot.tables.reactions``)."""
    t, v, tr = table.id, table.version, tr or english()
    react: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=str(ids.ComponentId(t, v, "react")), row=1, placeholder=tr._("React…"),
        options=[discord.SelectOption(label=emote, value=str(n)) for n, emote in enumerate(EMOTES)])
    return _view([
        button(t, v, "hand", tr._("My hand"), discord.ButtonStyle.primary, emoji="🂠", row=0),
        button(t, v, "leave", tr._("Leave"), discord.ButtonStyle.secondary, row=0),
        react,
    ])


def back_view(table: Table, tr: Translator | None = None) -> discord.ui.View:
    """The hand of a seat the AI plays (its player away): one button to take it back, from a DM too
    (where ``/table join`` cannot be used)."""
    tr = tr or english()
    return _view([button(table.id, table.version, "back", tr._("Take my seat back"),
                         discord.ButtonStyle.success, row=0)])


def table_view(table: Table, tr: Translator | None = None) -> discord.ui.View | None:
    if table.status == "lobby":
        return lobby_view(table, tr)
    if table.status == "playing":
        return playing_view(table, tr)
    if table.status == "finished":
        return final_view(table, tr)
    return None


def moves_view(table: Table, seat: int, tr: Translator | None = None,
               senas: list[str] | None = None, group: int | None = None) -> discord.ui.View | None:
    """The seat's legal moves now, as buttons and selects carrying the table's version, and the
    señas it may make (Mus with the ``senas`` option: ``bot.tables.senas``) on a row of their own.

    Moves too many for Discord's rows are chosen in two steps (``bot.views.moves``): without
    ``group``, the groups of moves; with it, that group's moves and a button back to the groups
    (None if there is no such group)."""
    if table.state is None or table.status != "playing" or seat not in table.state.to_act():
        return None
    legal = table.state.legal_actions(seat)
    if not legal:
        return None
    tr = tr or english()
    words = tr
    label = move_label(table, seat, words)

    def kind(name: str) -> str:
        return move_kind(name, table.game, words)

    if group is None:
        controls = layout(legal, label, kind_name=kind)
    else:
        found = group_layout(legal, label, group, kind_name=kind)
        if found is None:
            return None
        controls = found
    t, v = table.id, table.version
    grouped = bool(controls.groups)
    items: list[discord.ui.Item[Any]] = []
    for n, (text, index) in enumerate(controls.buttons):
        items.append(discord.ui.Button(
            label=text, style=discord.ButtonStyle.primary, row=n // 5,
            custom_id=ids.group_id(t, v, seat, index) if grouped else ids.move_id(t, v, seat, index)))
    row = -(-len(controls.buttons) // 5)
    for g, (placeholder, options) in enumerate(controls.selects):
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=ids.group_select_id(t, v, seat, g) if grouped else ids.select_id(t, v, seat, g),
            placeholder=placeholder, row=row,
            options=[discord.SelectOption(label=lab, value=str(i)) for lab, i in options])
        items.append(select)
        row += 1
    if controls.back:
        items.append(discord.ui.Button(label=tr._("Back to all moves"), style=discord.ButtonStyle.secondary,
                                       row=row, custom_id=ids.groups_id(t, v, seat)))
        row += 1
    if senas and row < 5:
        items.append(discord.ui.Select(
            custom_id=str(ids.ComponentId(t, v, "sena", str(seat))), row=row,
            placeholder=tr._("Make a seña to your partner…"),
            options=[discord.SelectOption(label=clip(tr._(sena_name(x)), 100), value=x,
                                          description=clip(tr._(sena_gesture(x)), 100)) for x in senas]))
    return _view(items)

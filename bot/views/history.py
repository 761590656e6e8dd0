"""/history's messages and their components: a page of sessions, a session's deals, one deal.

Component ids follow the project's scheme ``tapis:<table>:<version>:<verb>:<arg>``:

- ``tapis:0:<page>:hist:<user>.<game>.<upto>`` — a page button (no table: ``0``);
- ``tapis:0:<page>:hopen:<user>.<game>.<upto>`` — the select opening a session of that page
  (its values are table ids);
- ``tapis:<table>:<version>:hdeal:<user>.<game>.<upto>`` — the select opening one deal of a
  finished table (values are deal numbers); ``version`` is the table's final version, so an id
  naming another version is refused as out of date.

``user`` is whose history it is, ``game`` a game name or ``any``, ``upto`` the newest session
id the first page saw (later pages do not shift when a session ends meanwhile). Every value is
re-checked: a forged id can only show what ``/history`` itself would show in this server.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.rules import GAMES
from bot.views import ids
from bot.views.display import safe_name
from bot.views.respond import refuse

if TYPE_CHECKING:
    from bot.app import TapisBot

_NUMBER = re.compile(r"[0-9]{1,19}")  # a table id or deal number as Tapis sent it

log = logging.getLogger(__name__)
PAGE = 5
ANY = "any"
SELECT = 25  # options in one select menu (Discord's limit)
TEXT = {
    "title": "History — {who}",
    "title_game": "History — {who} · {game}",
    "none": "No finished session yet.",
    "line": "**#{table}** {game} · <t:{at}:d> · **{result:+d}** jetons · {place} of {seats}",
    "footer": "Page {page} of {pages} · {total} session(s)",
    "prev": "◀ Newer",
    "next": "Older ▶",
    "open": "Open a session…",
    "deals": "Open a deal ({first}–{last})…",
    "back": "Back to the list",
    "session_title": "Table #{table} · {game}",
    "deal_line": "Deal {n}{contract}: {deltas}",
    "unfinished": "not finished",
    "deal_title": "Table #{table} · {game} · deal {n}",
    "result": "Result",
    "bad": "This control is not valid.",
    "gone_page": "That page does not exist any more: run /history again.",
    "no_session": "Table #{table} has no finished session in this server.",
    "stale": "This list is out of date: run /history again.",
    "no_deal": "That deal does not exist.",
    "log_missing": "The log of table #{table} does not replay; it cannot be shown.",
}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def _ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def _title(game: str) -> str:
    return GAMES[game].title if game in GAMES else game


def context_arg(user_id: int, game: str | None, upto: int) -> str:
    """The ``<user>.<game>.<upto>`` argument shared by every history id."""
    return f"{user_id}.{game or ANY}.{upto}"


def parse_context(arg: str | None) -> tuple[int, str | None, int] | None:
    """``(user, game or None, upto)`` from an id argument, or None if malformed."""
    if arg is None:
        return None
    parts = arg.split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
        return None
    game = None if parts[1] == ANY else parts[1]
    if game is not None and game not in GAMES:
        return None
    return int(parts[0]), game, int(parts[2])


def deltas_text(names: list[str], deltas: list[int] | None) -> str:
    if deltas is None:
        return TEXT["unfinished"]
    return " · ".join(f"{n} {d:+d}" for n, d in zip(names, deltas, strict=False))


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View | None:
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # never stored: dispatch goes through the dynamic items (bot.views.handlers) only
    return view


# ---------------------------------------------------------------------------- a page of sessions


async def page_message(bot: TapisBot, guild_id: int, user_id: int, who: str, game: str | None, page: int,
                       upto: int | None) -> dict[str, Any]:
    """Embed and view of one page of a user's finished sessions (``page`` from 0)."""
    from bot.store.history import user_sessions

    if upto is None:
        row = await bot.db.fetchone("SELECT MAX(id) FROM sessions WHERE guild_id = ?", (guild_id,))
        upto = int(row[0] or 0) if row is not None else 0
    lines, total = await user_sessions(bot.db, guild_id, user_id, game, limit=PAGE, offset=page * PAGE,
                                       up_to=upto)
    pages = max(1, -(-total // PAGE))
    who = safe_name(who)
    title = TEXT["title_game"].format(who=who, game=_title(game)) if game else TEXT["title"].format(who=who)
    text = [TEXT["line"].format(table=s.table_id, game=_title(s.game), at=int(s.ended_at), result=s.result,
                                place=_ordinal(s.place), seats=s.seats) for s in lines]
    embed = discord.Embed(title=title, description="\n".join(text) or TEXT["none"], colour=0x0EA5E9)
    embed.set_footer(text=TEXT["footer"].format(page=page + 1, pages=pages, total=total))
    arg = context_arg(user_id, game, upto)
    items: list[discord.ui.Item[Any]] = []
    if lines:
        items.append(discord.ui.Select(
            custom_id=str(ids.ComponentId(0, page, "hopen", arg)), placeholder=TEXT["open"], row=0,
            options=[discord.SelectOption(label=f"#{s.table_id} {_title(s.game)} ({s.result:+d})"[:100],
                                          value=str(s.table_id)) for s in lines]))
    if page > 0:
        items.append(discord.ui.Button(label=TEXT["prev"], style=discord.ButtonStyle.secondary, row=1,
                                       custom_id=str(ids.ComponentId(0, page - 1, "hist", arg))))
    if page + 1 < pages:
        items.append(discord.ui.Button(label=TEXT["next"], style=discord.ButtonStyle.secondary, row=1,
                                       custom_id=str(ids.ComponentId(0, page + 1, "hist", arg))))
    return {"embed": embed, "view": _view(items)}


# ---------------------------------------------------------------------------- a session and a deal


async def load_session(bot: TapisBot, guild_id: int, table_id: int) -> tuple[Any, list[str],
                       list[Any]] | None:
    """``(table row, seat names, deals)`` of a finished session of this guild, or None."""
    from bot.store import tables as store
    from bot.tables.deals import deals_of

    row = await bot.db.run(store.load_table, table_id)
    if (row is None or row.guild_id != guild_id or row.status != "finished" or row.game not in GAMES
            or row.seed is None):
        return None
    actions = await bot.db.run(store.load_actions, table_id)
    names = [safe_name(s.get("name") or f"seat {i}") for i, s in enumerate(row.seats)]  # shown as text
    rules = GAMES[row.game]
    deals = await asyncio.to_thread(  # a whole session's replay: off the event loop
        deals_of, rules, len(row.seats), rules.validate_options(row.options), row.seed, actions,
        lambda s: names[s] if 0 <= s < len(names) else f"seat {s}")
    return row, names, deals


def session_message(row: Any, names: list[str], deals: list[Any], arg: str, back_page: int,
                    chosen: Any | None = None) -> dict[str, Any]:
    """A session's deals (one line each) or, with ``chosen``, that deal's story; deal selects below."""
    game = _title(row.game)
    if chosen is None:
        lines = [TEXT["deal_line"].format(n=d.number, contract=f" ({d.contract})" if d.contract else "",
                                          deltas=deltas_text(names, d.deltas)) for d in deals]
        embed = discord.Embed(title=TEXT["session_title"].format(table=row.id, game=game), colour=0x0EA5E9)
        embed.description = _fit(lines, 4000)
    else:
        title = TEXT["deal_title"].format(table=row.id, game=game, n=chosen.number)
        if chosen.contract:
            title += f" ({chosen.contract})"
        embed = discord.Embed(title=title[:256], description=_fit(chosen.lines, 3800), colour=0x0EA5E9)
        embed.add_field(name=TEXT["result"], value=deltas_text(names, chosen.deltas)[:1024], inline=False)
    items: list[discord.ui.Item[Any]] = []
    if deals:
        # One select of at most 25 deals: the first ones, or a window around the chosen deal.
        at = 0 if chosen is None else max(0, min(chosen.number - 1 - SELECT // 2, len(deals) - SELECT))
        chunk = deals[at:at + SELECT]
        items.append(discord.ui.Select(
            custom_id=str(ids.ComponentId(row.id, row.version, "hdeal", arg)),
            placeholder=TEXT["deals"].format(first=chunk[0].number, last=chunk[-1].number), row=0,
            options=[discord.SelectOption(label=_deal_label(d), value=str(d.number), default=chosen is d)
                     for d in chunk]))
    items.append(discord.ui.Button(label=TEXT["back"], style=discord.ButtonStyle.secondary, row=1,
                                   custom_id=str(ids.ComponentId(0, back_page, "hist", arg))))
    return {"embed": embed, "view": _view(items)}


def _deal_label(deal: Any) -> str:
    return (f"Deal {deal.number}" + (f" ({deal.contract})" if deal.contract else ""))[:100]


def _fit(lines: list[str], size: int) -> str:
    """Lines joined, keeping the last ones if they do not all fit (the end of a deal matters most)."""
    out: list[str] = []
    used = 0
    for line in reversed(lines):
        line = line[:300]
        if used + len(line) + 1 > size - 2:
            out.append("…")
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(reversed(out)) or "—"


# ---------------------------------------------------------------------------- clicks


async def handle(interaction: discord.Interaction[TapisBot], cid: ids.ComponentId,
                 values: list[str] | None) -> None:
    """A history button or select: re-check everything, then edit the history message."""
    bot: TapisBot = interaction.client
    guild_id = interaction.guild_id
    context = parse_context(cid.arg)
    if guild_id is None or context is None:
        return await refuse(interaction, TEXT["bad"])
    user_id, game, upto = context
    if cid.verb == "hist":
        if cid.table_id != 0 or values is not None:
            return await refuse(interaction, TEXT["bad"])
        from bot.store.history import user_sessions

        _, total = await user_sessions(bot.db, guild_id, user_id, game, limit=1, up_to=upto)
        if cid.version * PAGE >= max(total, 1):
            return await refuse(interaction, TEXT["gone_page"])
        who = _who(interaction, user_id)
        await interaction.response.edit_message(
            **await page_message(bot, guild_id, user_id, who, game, cid.version, upto))
        return
    if not values or len(values) != 1 or not _NUMBER.fullmatch(values[0]):  # never "²" or 5,000 digits
        return await refuse(interaction, TEXT["bad"])
    if cid.verb == "hopen":
        table_id = int(values[0])
        back = cid.version
    else:
        table_id, back = cid.table_id, 0
    owned = await bot.db.fetchone(
        "SELECT s.id FROM sessions s JOIN session_seats ss ON ss.session_id = s.id WHERE s.table_id = ? "
        "AND s.guild_id = ? AND ss.user_id = ? AND s.id <= ?", (table_id, guild_id, user_id, upto))
    if owned is None:
        return await refuse(interaction, TEXT["no_session"].format(table=table_id))
    try:
        loaded = await load_session(bot, guild_id, table_id)
    except Exception:
        log.warning("history: table %s does not replay", table_id, exc_info=True)
        return await refuse(interaction, TEXT["log_missing"].format(table=table_id))
    if loaded is None:
        return await refuse(interaction, TEXT["no_session"].format(table=table_id))
    row, names, deals = loaded
    arg = context_arg(user_id, game, upto)
    if cid.verb == "hopen":
        await interaction.response.edit_message(**session_message(row, names, deals, arg, back))
        return
    if cid.version != row.version:
        return await refuse(interaction, TEXT["stale"])
    number = int(values[0])
    chosen = next((d for d in deals if d.number == number), None)
    if chosen is None:
        return await refuse(interaction, TEXT["no_deal"])
    await interaction.response.edit_message(**session_message(row, names, deals, arg, back, chosen))


def _who(interaction: discord.Interaction[TapisBot], user_id: int) -> str:
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    user = interaction.client.get_user(user_id)
    return user.display_name if user is not None else f"player …{str(user_id)[-4:]}"

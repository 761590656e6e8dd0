"""/history's messages and their components: a page of sessions, a session's deals, one deal.

Component ids follow the project's scheme ``tapis:<table>:<version>:<verb>:<arg>``:

- ``tapis:0:<page>:hist:<user>.<game>.<upto>`` — a page button (no table: ``0``);
- ``tapis:0:<page>:hopen:<user>.<game>.<upto>`` — the select opening a session of that page
  (its values are table ids);
- ``tapis:<table>:<version>:hdeal:<user>.<game>.<upto>`` — the select opening one deal of a
  finished table (values are deal numbers); ``version`` is the table's final version, so an id
  naming another version is refused as out of date;
- ``tapis:<table>:<version>:hpart:<user>.<game>.<upto>`` — a session of more deals than a select
  holds: the select of its parts (deals 1–25, 26–50…; values are a part's first deal), checked
  like ``hdeal``. A part shows its deals' lines and puts them in the deal select.

``user`` is whose history it is, ``game`` a game name or ``any``, ``upto`` the newest session
id the first page saw (later pages do not shift when a session ends meanwhile). Every value is
re-checked: a forged id can only show what ``/history`` itself would show in this server.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.bounded import keep_latest, per_owner
from bot.gate import Busy, MemberGate
from bot.i18n import N_, Translator, msg
from bot.i18n.commands import command
from bot.outbox.respond import refuse
from bot.rules import GAMES
from bot.rules.looks import table_look
from bot.views import ids
from bot.views.display import clip, latest, player_name, safe_name, signed, timestamp
from bot.views.scope import channel_visible, visible_channels
from bot.views.texts import no_session_yet
from bot.views.vocab import seat_word

if TYPE_CHECKING:
    from bot.app import TapisBot

_NUMBER = re.compile(r"[0-9]{1,19}")  # a table id or deal number as Tapis sent it
#: The largest id the store holds (a signed 64-bit integer): a larger number in an id or a value
#: is forged and refused like any malformed id, before it reaches the database.
MAX_ID = 2**63 - 1


def _number(text: str) -> int | None:
    """A table id, user id, session id or deal number from an id or a select value, or None."""
    if not _NUMBER.fullmatch(text):  # never "²" or 5,000 digits
        return None
    value = int(text)
    return value if value <= MAX_ID else None

log = logging.getLogger(__name__)
PAGE = 5
#: Finished sessions replayed for /history kept (the latest used), by server, table, language and look: every
#: click on a session or on one of its deals replayed the whole session again (its log read too), at
#: a cost that grows with the session's length, as fast as a member could click.
SESSIONS_KEEP = 32
#: Per bot (each its own database): ``per_owner``.
_sessions: weakref.WeakKeyDictionary[
    object, OrderedDict[tuple[int, int, str, Any], tuple[Any, list[str], list[Any]]]] = (
    weakref.WeakKeyDictionary())
#: Sessions replayed at once for /history (not kept yet): one per member, ``READS_AT_ONCE`` bot-wide. A
#: member's clicks on the sessions of a player with many (a forged select value opens any of them)
#: each replayed a whole session in a thread, as many at once as they sent.
READS_AT_ONCE = 4
_reads: weakref.WeakKeyDictionary[object, MemberGate] = weakref.WeakKeyDictionary()  # per bot
BUSY_READING = N_("Your previous session is still being read back: wait for it before opening another.")
BUSY_READS = N_("History is busy right now: try again in a few seconds.")
ANY = "any"
SELECT = 25  # options in one select menu (Discord's limit)

#: Refusals of a history click (message ids, translated in the clicker's language).
BAD = N_("This control is not valid.")
GONE_PAGE = msg("That page does not exist any more: run {history} again.", history=command("history"))
NO_SESSION = N_("Table #{table} has no finished session in this server.")
STALE = msg("This list is out of date: run {history} again.", history=command("history"))
NO_DEAL = N_("That deal does not exist.")
LOG_MISSING = N_("The log of table #{table} does not replay; it cannot be shown.")


def ordinal(n: int, tr: Translator) -> str:
    """A finishing place: "1st", "2e" (French), "3.º" (Spanish), "4." (Czech)."""
    if n == 1:
        return tr.p_("ordinal", "1st")
    if n == 2:
        return tr.p_("ordinal", "2nd")
    if n == 3:
        return tr.p_("ordinal", "3rd")
    return tr.p_("ordinal", "{n}th", n=tr.number(n))


def game_title(game: str, tr: Translator) -> str:
    return tr._(GAMES[game].title) if game in GAMES else game


def contract_name(game: str, contract: str | None, tr: Translator) -> str | None:
    """A deal's contract (``Deal.contract``, the rules' code) in the reader's language."""
    if not contract:
        return None
    rules = GAMES.get(game)
    return rules.contract_name(contract, tr) if rules is not None else contract


def context_arg(user_id: int, game: str | None, upto: int) -> str:
    """The ``<user>.<game>.<upto>`` argument shared by every history id."""
    return f"{user_id}.{game or ANY}.{upto}"


def parse_context(arg: str | None) -> tuple[int, str | None, int] | None:
    """``(user, game or None, upto)`` from an id argument, or None if malformed."""
    if arg is None:
        return None
    parts = arg.split(".")
    if len(parts) != 3:
        return None
    user, upto = _number(parts[0]), _number(parts[2])
    game = None if parts[1] == ANY else parts[1]
    if user is None or upto is None or (game is not None and game not in GAMES):
        return None
    return user, game, upto


def deltas_text(names: list[str], deltas: list[int] | None, tr: Translator) -> str:
    """``"Ann +20 · Bob -10"``, every seat's result of a deal ("not finished" if it did not end)."""
    if deltas is None:
        return tr._("not finished")
    return " · ".join(f"{n} {signed(d, tr)}" for n, d in zip(names, deltas, strict=False))


def session_line(s: Any, tr: Translator, accuracy: float | None = None) -> str:
    """One finished session of a history page (with the player's accuracy once reviewed: /review)."""
    result = tr.n_("**{signed}** jeton", "**{signed}** jetons", abs(s.result), signed=signed(s.result, tr))
    place = tr._("{place} of {seats}", place=ordinal(s.place, tr), seats=tr.number(s.seats))
    line = f"**#{s.table_id}** {game_title(s.game, tr)} · {timestamp(s.ended_at, 'd')} · {result} · {place}"
    if accuracy is not None:
        line += " · " + tr._("accuracy {accuracy}", accuracy=tr.percent(accuracy / 100.0))
    return line


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
                       upto: int | None, tr: Translator, viewer: int | None = None,
                       channels: frozenset[int] | None = None) -> dict[str, Any]:
    """Embed and view of one page of a user's finished sessions (``page`` from 0), in ``tr``'s language.

    With ``channels`` (``bot.views.scope.visible_channels`` of the asker ``viewer``), only the
    sessions of tables in those channels, or at which ``viewer`` sat, are listed and counted.
    """
    from bot.store.history import user_sessions

    if upto is None:
        row = await bot.db.fetchone("SELECT MAX(id) FROM sessions WHERE guild_id = ?", (guild_id,))
        upto = int(row[0] or 0) if row is not None else 0
    lines, total = await user_sessions(bot.db, guild_id, user_id, game, limit=PAGE, offset=page * PAGE,
                                       up_to=upto, channels=channels, viewer=viewer)
    pages = max(1, -(-total // PAGE))
    who = safe_name(who)
    if game:
        title = tr._("History — {who} · {game}", who=who, game=game_title(game, tr))
    else:
        title = tr._("History — {who}", who=who)
    from bot.store.reviews import session_accuracy

    reviewed = await session_accuracy(bot.db, user_id, [s.table_id for s in lines])
    text = [session_line(s, tr, reviewed.get(s.table_id)) for s in lines]
    embed = discord.Embed(title=title, description="\n".join(text) or no_session_yet(tr, viewer == user_id),
                          colour=0x0EA5E9)
    footer = tr._("Page {page} of {pages}", page=tr.number(page + 1), pages=tr.number(pages))
    embed.set_footer(text=f"{footer} · {tr.n_('{n} session', '{n} sessions', total)}")
    arg = context_arg(user_id, game, upto)
    items: list[discord.ui.Item[Any]] = []
    if lines:
        items.append(discord.ui.Select(
            custom_id=str(ids.ComponentId(0, page, "hopen", arg)), placeholder=tr._("Open a session…"), row=0,
            options=[discord.SelectOption(
                label=f"#{s.table_id} {game_title(s.game, tr)} ({signed(s.result, tr)})"[:100],
                value=str(s.table_id)) for s in lines]))
    if page > 0:
        items.append(discord.ui.Button(label=tr._("◀ Newer"), style=discord.ButtonStyle.secondary, row=1,
                                       custom_id=str(ids.ComponentId(0, page - 1, "hist", arg))))
    if page + 1 < pages:
        items.append(discord.ui.Button(label=tr._("Older ▶"), style=discord.ButtonStyle.secondary, row=1,
                                       custom_id=str(ids.ComponentId(0, page + 1, "hist", arg))))
    return {"embed": embed, "view": _view(items)}


# ---------------------------------------------------------------------------- a session and a deal


def reads(bot: TapisBot) -> MemberGate:
    """``bot``'s admission of the sessions replayed for /history (``READS_AT_ONCE``)."""
    gate = _reads.get(bot)
    if gate is None:
        gate = _reads[bot] = MemberGate(0.0, READS_AT_ONCE)
    return gate


async def load_session(bot: TapisBot, guild_id: int, table_id: int, tr: Translator,
                       member: int | None = None) -> tuple[Any, list[str], list[Any]] | None:
    """``(table row, seat names, deals)`` of a finished session here (narration in ``tr``), or None.
    A finished session never changes: its replay is kept (``SESSIONS_KEEP``). One not kept is
    replayed for ``member`` once admitted (``reads``: ``Busy`` otherwise)."""
    key = (guild_id, table_id, tr.lang, tr.look)
    sessions = per_owner(_sessions, bot)
    kept = sessions.get(key)
    if kept is not None:
        sessions.move_to_end(key)
        return kept
    gate = reads(bot)
    if member is not None:
        gate.admit(member)
    try:
        return await _replayed(bot, sessions, key, guild_id, table_id, tr)
    finally:
        if member is not None:
            gate.release(member)


async def _replayed(bot: TapisBot, sessions: OrderedDict[tuple[int, int, str, Any], tuple[Any, list[str],
                    list[Any]]], key: tuple[int, int, str, Any], guild_id: int, table_id: int,
                    tr: Translator) -> tuple[Any, list[str], list[Any]] | None:
    """``load_session``'s work once admitted: read the log, replay it off the event loop, keep it."""
    from bot.store import tables as store
    from bot.tables.deals import deals_of
    from bot.tables.replay import SessionLog

    row = await bot.db.run(store.load_table, table_id)
    if (row is None or row.guild_id != guild_id or row.status != "finished" or row.game not in GAMES
            or row.seed is None):
        return None
    actions = await bot.db.run(store.load_actions, table_id)
    names = [safe_name(player_name(s.get("name") or seat_word(i, None, tr), bool(s.get("ai")), tr))
             for i, s in enumerate(row.seats)]  # as text
    rules = GAMES[row.game]
    tr = tr.dressed(table_look(rules.pack_choices, row.options))  # its cards as the table named them
    deals = await asyncio.to_thread(  # a whole session's replay: off the event loop
        deals_of, SessionLog.of(rules, row, actions),
        lambda s: seat_word(s, names, tr), tr)
    keep_latest(sessions, key, (row, names, deals), SESSIONS_KEEP)
    return row, names, deals


def deal_label(game: str, deal: Any, tr: Translator) -> str:
    """"Deal 3", "Deal 3 (Betl)" or "Deal 3 (cancelled)" (a deal-end event that says so: Motz's deal
    nobody played, whose antes stay in the pot): a deal in a line, a title or a select option."""
    contract = contract_name(game, deal.contract, tr)
    if isinstance(deal.end, dict) and deal.end.get("cancelled") is True:
        return tr._("Deal {n} (cancelled)", n=tr.number(deal.number))
    if contract:
        return tr._("Deal {n} ({contract})", n=tr.number(deal.number), contract=contract)
    return tr._("Deal {n}", n=tr.number(deal.number))


def session_message(row: Any, names: list[str], deals: list[Any], arg: str, back_page: int,
                    tr: Translator, chosen: Any | None = None, part: int | None = None) -> dict[str, Any]:
    """A session's deals (one line each; with ``part``, the index of a part's first deal, that part's)
    or, with ``chosen``, that deal's story; the deal select below, and the parts' select for a
    session of more than ``SELECT`` deals."""
    game = game_title(row.game, tr)
    # One select of at most 25 deals: the first ones, a part's, or a window around the chosen deal.
    if chosen is not None:
        at = max(0, min(chosen.number - 1 - SELECT // 2, len(deals) - SELECT))
    else:
        at = max(0, min(part or 0, len(deals) - SELECT))
    if chosen is None:
        shown = deals if part is None else deals[part:part + SELECT]
        lines = [f"{deal_label(row.game, d, tr)}: {deltas_text(names, d.deltas, tr)}" for d in shown]
        embed = discord.Embed(title=tr._("Table #{table} · {game}", table=row.id, game=game), colour=0x0EA5E9)
        embed.description = _fit(lines, 4000)
    else:
        title = tr._("Table #{table} · {game} · {deal}", table=row.id, game=game,
                     deal=deal_label(row.game, chosen, tr))
        embed = discord.Embed(title=title[:256], description=_fit(chosen.lines, 3800), colour=0x0EA5E9)
        embed.add_field(name=tr._("Result"), value=deltas_text(names, chosen.deltas, tr)[:1024], inline=False)
    items: list[discord.ui.Item[Any]] = []
    if deals:
        chunk = deals[at:at + SELECT]
        items.append(discord.ui.Select(
            custom_id=str(ids.ComponentId(row.id, row.version, "hdeal", arg)),
            placeholder=tr._("Open a deal ({first}–{last})…", first=tr.number(chunk[0].number),
                             last=tr.number(chunk[-1].number)), row=0,
            options=[discord.SelectOption(label=deal_label(row.game, d, tr)[:100], value=str(d.number),
                                          default=chosen is d) for d in chunk]))
    if len(deals) > SELECT:
        anchor = part if part is not None else chosen.number - 1 if chosen is not None else 0
        items.append(_parts_select(row, len(deals), anchor, arg, tr))
    items.append(discord.ui.Button(label=tr._("Back to the list"), style=discord.ButtonStyle.secondary, row=2,
                                   custom_id=str(ids.ComponentId(0, back_page, "hist", arg))))
    return {"embed": embed, "view": _view(items)}


def _parts_select(row: Any, total: int, at: int, arg: str, tr: Translator) -> discord.ui.Select[Any]:
    """The select of a long session's parts of ``SELECT`` deals (at most ``SELECT`` of them, around
    the part holding deal index ``at``, which is the default)."""
    starts = list(range(0, total, SELECT))
    current = min(at // SELECT, len(starts) - 1)
    first = max(0, min(current - SELECT // 2, len(starts) - SELECT))
    options = [discord.SelectOption(
        label=tr._("Deals {first}–{last}", first=tr.number(k + 1), last=tr.number(min(k + SELECT, total))),
        value=str(k + 1), default=i == current) for i, k in enumerate(starts) if first <= i < first + SELECT]
    return discord.ui.Select(custom_id=str(ids.ComponentId(row.id, row.version, "hpart", arg)),
                             placeholder=tr._("Other deals…"), row=1, options=options)


def _fit(lines: list[str], size: int) -> str:
    """Lines joined, keeping the last ones if they do not all fit (the end of a deal matters most);
    a line over 300 characters is cut with a ``…``."""
    return latest([clip(line, 300) for line in lines], size) if lines else "—"


# ---------------------------------------------------------------------------- clicks


async def handle(interaction: discord.Interaction[TapisBot], cid: ids.ComponentId,
                 values: list[str] | None) -> None:
    """A history button or select: re-check everything, then edit the history message (in the
    clicker's language: the message is ephemeral, only they see it)."""
    from bot.views.locale import reader

    bot: TapisBot = interaction.client
    tr = await reader(bot, interaction)
    guild_id = interaction.guild_id
    context = parse_context(cid.arg)
    if guild_id is None or context is None:
        return await refuse(interaction, tr._(BAD))
    user_id, game, upto = context
    if cid.verb == "hist":
        if cid.table_id != 0 or values is not None:
            return await refuse(interaction, tr._(BAD))
        from bot.store.history import user_sessions

        viewer, channels = interaction.user.id, visible_channels(interaction)
        _, total = await user_sessions(bot.db, guild_id, user_id, game, limit=1, up_to=upto,
                                       channels=channels, viewer=viewer)
        if cid.version * PAGE >= max(total, 1):
            return await refuse(interaction, GONE_PAGE.render(tr))
        who = who_name(interaction, user_id, tr)
        await interaction.response.edit_message(
            **await page_message(bot, guild_id, user_id, who, game, cid.version, upto, tr, viewer, channels))
        return
    value = _number(values[0]) if values and len(values) == 1 else None
    if value is None or cid.table_id > MAX_ID:
        return await refuse(interaction, tr._(BAD))
    if cid.verb == "hopen":
        table_id = value
        back = cid.version
    else:
        table_id, back = cid.table_id, 0
    owned = await bot.db.fetchone(
        "SELECT s.id FROM sessions s JOIN session_seats ss ON ss.session_id = s.id WHERE s.table_id = ? "
        "AND s.guild_id = ? AND ss.user_id = ? AND s.id <= ?", (table_id, guild_id, user_id, upto))
    if owned is None:
        return await refuse(interaction, tr._(NO_SESSION, table=table_id))
    try:
        loaded = await load_session(bot, guild_id, table_id, tr, interaction.user.id)
    except Busy as busy:
        why = BUSY_READING if busy.reason == "running" else BUSY_READS
        return await refuse(interaction, tr._(why))
    except Exception:
        log.warning("history: table %s does not replay", table_id, exc_info=True)
        return await refuse(interaction, tr._(LOG_MISSING, table=table_id))
    if loaded is None:
        return await refuse(interaction, tr._(NO_SESSION, table=table_id))
    row, names, deals = loaded
    seated = any(s.get("user_id") == interaction.user.id and not s.get("ai") for s in row.seats)
    if not seated and not channel_visible(interaction, row.channel_id):  # bot.views.scope
        return await refuse(interaction, tr._(NO_SESSION, table=table_id))
    arg = context_arg(user_id, game, upto)
    if cid.verb == "hopen":
        await interaction.response.edit_message(**session_message(row, names, deals, arg, back, tr))
        return
    if cid.version != row.version:
        return await refuse(interaction, STALE.render(tr))
    number = value
    chosen = next((d for d in deals if d.number == number), None)
    if chosen is None:
        return await refuse(interaction, tr._(NO_DEAL))
    if cid.verb == "hpart":  # a part of a long session, from this deal
        shown = session_message(row, names, deals, arg, back, tr, part=number - 1)
        await interaction.response.edit_message(**shown)
        return
    await interaction.response.edit_message(**session_message(row, names, deals, arg, back, tr, chosen))


def who_name(interaction: discord.Interaction[TapisBot], user_id: int, tr: Translator) -> str:
    """A member's display name from the cache, else the user's name, else a neutral label."""
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    user = interaction.client.get_user(user_id)
    return user.display_name if user is not None else tr._("player …{digits}", digits=str(user_id)[-4:])

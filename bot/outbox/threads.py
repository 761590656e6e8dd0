"""A thread per table (issue 28 item 5): the lobby message starts it, the game is played in it.

- ``/table new`` answers with the lobby in the channel; :meth:`Threads.open` starts a public thread
  from that message (``POST /channels/{c}/messages/{m}/threads``), posts the table message (the
  lobby, with its buttons) in the thread, and turns the channel's message into the table's one
  line ("lobby open in #thread", through the ``/table new`` token: no global request). Ids are
  recorded with the table (``extra_messages``: ``thread``, ``line``).
- Joins, Start, the narration and every later edit happen in the thread; Start's click token edits
  the table message there as it did in the channel (outside the global limit).
- The line follows the table ("being played in #thread", then its result); when the session ends
  the thread is archived (:meth:`Threads.close`).

REST cost: three requests under the global limit per table (create the thread, post its table
message, archive it), plus one per line change once the ``/table new`` token is older than 14
minutes (``docs/benchmarks.md``). A table whose message no command answered (a tournament round's,
a Play again clicked in a thread) gets the same thread through :meth:`Threads.open_unasked`, with
the bot's permissions read from its roles in the cached channel and every line change a request.

Where a thread cannot be made (threads off, no Create Public Threads / Send Messages in Threads
permission, a channel that is already a thread or a forum post, a voice or stage channel, Discord
refusing) the table runs in the channel as before, with one WARNING in the log and, when something
refused, an ephemeral note to the host. If the thread becomes unusable mid-session (deleted,
Discord refusing the table message there) the table comes back to the channel: its line becomes the
table message again, with a notice, and the game goes on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.i18n import Translator
from bot.outbox.budget import REFRESH
from bot.outbox.respond import NO_MENTIONS
from bot.outbox.tokens import TOKEN_LIFE
from bot.permissions import cached
from bot.settings.model import threads_enabled as server_threads
from bot.views.display import game_title, seat_name
from bot.views.locale import load_table_tr

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.config import Config
    from bot.outbox.presenter import Presenter
    from bot.outbox.source import TableSource
    from bot.tables.model import Table

log = logging.getLogger(__name__)

#: ``Table.extra_messages`` keys: the table's thread (0: none any more), and the channel line (the
#: former lobby message) once the table message moved into the thread.
THREAD = "thread"
LINE = "line"
#: Channel types a thread can be started in from a message.
THREADABLE = (discord.ChannelType.text, discord.ChannelType.news)
#: Minutes of inactivity before Discord archives a thread by itself (a day; a week for correspondence).
ARCHIVE_AFTER: Literal[1440] = 1440
ARCHIVE_AFTER_LONG: Literal[10080] = 10080
THREAD_ARCHIVED = 50083


def threads_enabled(config: Config, guild_id: int | None = None) -> bool:
    """Whether tables get a thread (the operator's ``table_threads``; server settings hook in here)."""
    return config.table_threads


def thread_of(table: Table) -> int | None:
    """The table's thread, if it has one."""
    return table.extra_messages.get(THREAD) or None


def where(table: Table) -> int:
    """The channel of the table message: its thread once the message moved there, else its channel."""
    thread = thread_of(table)
    return thread if thread is not None and LINE in table.extra_messages else table.channel_id


def refusal(interaction: discord.Interaction[TapisBot]) -> str | None:
    """Why no thread can be started where ``interaction`` happened (a log reason), or None."""
    channel = interaction.channel
    kind = getattr(channel, "type", None)
    if kind is not None and kind not in THREADABLE:
        return f"the channel is a {kind.name} channel (already a thread, a forum post, voice or stage)"
    perms = interaction.app_permissions
    if not (perms.create_public_threads and perms.send_messages_in_threads):
        return "missing the Create Public Threads or Send Messages in Threads permission"
    return None


def cached_refusal(bot: TapisBot, channel_id: int) -> str | None:
    """Why no thread can be started in ``channel_id``, from the client's cache (no interaction to
    say the bot's permissions there); None when it may, or when the cache does not know (Discord
    then answers, and a refusal leaves the table in the channel)."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        return None
    kind = getattr(channel, "type", None)
    if kind is not None and kind not in THREADABLE:
        return f"the channel is a {kind.name} channel (already a thread, a forum post, voice or stage)"
    perms = cached(channel)
    if perms is not None and not (perms.create_public_threads and perms.send_messages_in_threads):
        return "missing the Create Public Threads or Send Messages in Threads permission"
    return None


class Threads:
    """The presenter's thread routing (one per presenter)."""

    def __init__(self, presenter: Presenter, source: TableSource) -> None:
        self.p = presenter
        #: The table service, as far as the outbox may use it (the presenter's ``TableSource``).
        self.tables = source
        #: Table id -> the ``/table new`` interaction (and when it came): its token edits the line.
        self.line_tokens: dict[int, tuple[discord.Interaction[TapisBot], float]] = {}

    @property
    def bot(self) -> TapisBot:
        return self.p.bot

    async def open(self, interaction: discord.Interaction[TapisBot], table: Table) -> str | None:
        """Start the table's thread from its lobby message and move the table message into it.

        Returns a note for the host when no thread could be made (None when it worked, or when the
        channel simply cannot have one: a thread, a forum post).
        """
        if not await self._enabled(table):
            return None
        tr = await load_table_tr(self.bot, table.id)
        why = refusal(interaction)
        if why is not None:
            log.warning("table %s: no thread (%s); the table runs in the channel", table.id, why)
            kind = getattr(interaction.channel, "type", None)
            if kind is not None and kind not in THREADABLE:
                return None  # a thread, a forum post: the table simply runs here
            return tr._("Tapis may not start a thread here: table #{id} is played in this channel.",
                        id=table.id)
        name = tr._("{game} · table #{id}", game=game_title(table.game, tr), id=table.id)
        if not await self._start(table, name, tr, interaction):
            return tr._("Discord refused a thread for table #{id}: it is played in this channel.",
                        id=table.id)
        return None

    async def open_unasked(self, table: Table, name: str | None = None) -> bool:
        """Start a thread for a table whose message no command's answer posted (a tournament
        round's; a Play again clicked in a thread, whose lobby the channel got), from that message:
        the same thread and channel line as ``open``, without a token, so the line is edited
        through the channel. Where no thread can be made the table stays in the channel (one
        warning). True if the table moved into its thread."""
        if not await self._enabled(table):
            return False
        why = cached_refusal(self.bot, table.channel_id)
        if why is not None:
            log.warning("table %s: no thread (%s); the table runs in the channel", table.id, why)
            return False
        tr = await load_table_tr(self.bot, table.id)
        if name is None:
            name = tr._("{game} · table #{id}", game=game_title(table.game, tr), id=table.id)
        return await self._start(table, name, tr, None)

    async def _enabled(self, table: Table) -> bool:
        """Threads are on for the table's server (``/settings threads``) and it has a message."""
        server = await self.bot.settings.for_guild(table.guild_id)  # /settings threads (issue 29)
        return server_threads(server, threads_enabled(self.bot.config, table.guild_id)) \
            and table.message_id is not None

    async def _start(self, table: Table, name: str, tr: Translator,
                     interaction: discord.Interaction[TapisBot] | None) -> bool:
        """The thread from the table's message, the table message posted in it, the former message
        turned into the channel line (through ``interaction``'s token while it lasts). False, with
        one warning, where Discord refused."""
        lobby = table.message_id
        assert lobby is not None
        long = table.options.get("pace") == "correspondence"
        try:
            await self.p.budget.take(REFRESH, table.guild_id)
            data = await self.bot.http.start_thread_with_message(
                table.channel_id, lobby, name=name[:100],
                auto_archive_duration=ARCHIVE_AFTER_LONG if long else ARCHIVE_AFTER)
            thread = int(data["id"])
            await self.tables.set_message(table.id, thread, key=THREAD)
            payload = self.p.table_payload(table, tr)
            await self.p.budget.take(REFRESH, table.guild_id)
            channel = self.bot.get_partial_messageable(thread, guild_id=table.guild_id)
            sent = await channel.send(embed=payload["embed"], view=payload["view"],
                                      allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.warning("table %s: Discord refused its thread (%s %s); the table runs in the channel",
                        table.id, exc.status, exc.code)
            return False
        await self.tables.set_message(table.id, lobby, key=LINE)
        await self.tables.set_message(table.id, sent.id)
        self.p.table_tokens.drop(table.id)  # it edits the channel's message, now the line
        if interaction is not None:
            self.line_tokens[table.id] = (interaction, asyncio.get_running_loop().time())
        rec = self.p.record(table.id)
        rec.shown = self.p.shown_key(table)  # the message just posted shows the table as it is
        await self.sync_line(table)
        return True

    async def lost(self, table: Table, why: str) -> None:
        """The thread is unusable: the table comes back to the channel (its line is the table message)."""
        thread = thread_of(table)
        if thread is None:
            return
        log.warning("table %s: its thread %s is unusable (%s); the table runs in the channel again",
                    table.id, thread, why)
        line = table.extra_messages.get(LINE)
        self.line_tokens.pop(table.id, None)
        await self.tables.set_message(table.id, 0, key=THREAD)
        if line is not None:
            await self.tables.set_message(table.id, line)
        self.p.record(table.id).thread_lost = True
        self.p.mark_dirty(table.id)

    def line_text(self, table: Table, tr: Translator) -> str:
        """The channel's one line about the table: being played in its thread, or its result."""
        head = tr._("**{game} #{id}**", game=game_title(table.game, tr), id=table.id)
        thread = f"<#{thread_of(table)}>"
        if table.status == "lobby":
            return tr._("🃏 {table}: the lobby is open in {thread}, join there.", table=head, thread=thread)
        if table.status == "playing":
            names = ", ".join(seat_name(table, i, tr) for i in range(len(table.seats)))
            return tr._("🃏 {table} is being played in {thread}: {players}.", table=head, thread=thread,
                        players=names)
        if table.status == "finished" and table.results is not None:
            parts = [f"{seat_name(table, i, tr)} {'+' if r > 0 else ''}{tr.number(r)}"
                     for i, r in enumerate(table.results[:len(table.seats)])]
            return tr._("🏁 {table} is over ({thread}): {results}.", table=head, thread=thread,
                        results=" · ".join(parts))
        return tr._("🏁 {table} ended ({thread}).", table=head, thread=thread)

    async def sync_line(self, table: Table) -> None:
        """Show the table's state on its channel line if it changed (a failure is only logged).

        Through the ``/table new`` token while it is fresh (outside the global limit), else through
        the channel.
        """
        line = table.extra_messages.get(LINE)
        rec = self.p.records.get(table.id)
        if line is None or thread_of(table) is None or (rec is not None and rec.line_status == table.status):
            return
        if rec is not None:
            rec.line_status = table.status
        tr = await load_table_tr(self.bot, table.id)
        edit: dict[str, Any] = {"content": self.line_text(table, tr), "embeds": [], "view": None,
                                "attachments": [], "allowed_mentions": NO_MENTIONS}
        held = self.line_tokens.get(table.id)
        loop = asyncio.get_running_loop()
        try:
            if held is not None and loop.time() - held[1] < TOKEN_LIFE:
                try:
                    await held[0].edit_original_response(**edit)
                    return
                except discord.HTTPException as exc:
                    log.info("table %s: its line was not edited through the token (%s)", table.id, exc)
            self.line_tokens.pop(table.id, None)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            await self.p.budget.take(REFRESH, table.guild_id)
            await channel.get_partial_message(line).edit(**edit)
        except discord.HTTPException as exc:
            log.warning("table %s: its channel line was not edited (%s)", table.id, exc)

    def forget(self, table_id: int) -> None:
        """The table's record is gone (``Presenter.release``): its line's interaction goes too, even
        if the thread's closing could not read the table back."""
        self.line_tokens.pop(table_id, None)

    async def close(self, table: Table) -> None:
        """The session ended: the channel line shows the result and the thread is archived."""
        rec = self.p.records.get(table.id)
        thread = thread_of(table)
        if thread is None or (rec is not None and rec.thread_closed):
            return
        if rec is not None:
            rec.thread_closed = True
        await self.sync_line(table)
        self.line_tokens.pop(table.id, None)
        try:
            await self.p.budget.take(REFRESH, table.guild_id)
            await self.bot.http.edit_channel(thread, archived=True)
        except discord.HTTPException as exc:
            log.warning("table %s: its thread %s was not archived (%s)", table.id, thread, exc)

    async def unarchive(self, table: Table) -> bool:
        """Discord archived the thread (inactivity): open it again so the table message can be edited."""
        thread = thread_of(table)
        if thread is None:
            return False
        try:
            await self.p.budget.take(REFRESH, table.guild_id)
            await self.bot.http.edit_channel(thread, archived=False)
        except discord.HTTPException as exc:
            await self.lost(table, f"archived, and not reopened: {exc.status} {exc.code}")
            return False
        return True

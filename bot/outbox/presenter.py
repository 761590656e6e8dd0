"""Shows tables on Discord: the channel message (debounced edits) and the players' DMs.

``Presenter.on_change`` is a ``TableService`` listener: it only records what changed and
schedules work, so the service is never slowed down by Discord. Per table, one editor task
edits the channel message at most once per ``edit_interval`` seconds, and one DM task sends
the private hands in order (``bot.outbox.dms``). A closed DM (403 / 50007) is noted on the table
message; the game never waits on Discord.

Nothing expensive happens in the listener (it runs before the clicker gets an answer): DMs are
only planned there (who must hear about the change) and built by the DM task from the table as
it is when sent, so several changes for one seat cost one DM. Background tasks start one loop
step later, so the interaction's response goes out first.

REST budget (Discord allows 50 requests/s besides interaction callbacks and the interaction
webhook): the acting player sees their move in the interaction's own response, so they get no
DM for it; a player's next prompt edits the DM they last clicked through that click's interaction
webhook (exempt from the global limit) while it is still their latest DM and the token is fresh,
else it is a new DM (after a restart, the first new DM a player gets for a table also edits the one
the process before sent them last, remembered with the table, to say it is out of date, its
buttons removed); every other request waits
its turn in :class:`RestBudget`, turn prompts before table refreshes; tables sharing a channel edit
one per ``edit_interval`` in that channel.

Memory stays flat: everything kept about one table is one ``TableRecord`` (its log, what its
message shows, its editor and DM tasks, its clicks...); once a closed table's final message is
sent and its DM task is done, the record is dropped (``release``) and all of it with it.
A table whose channel was deleted or became unreachable (404/10003, 403/50001), or whose message
Discord refuses for a permission taken away (403/50013: Send Messages, Embed Links, Attach Files), is
no longer edited (one WARNING, no request there any more: not its line, not its thread); its players
get a DM saying the game goes on by DM and ends after this deal, and the service is asked to close it
then. The same happens to every table of a server the bot is removed from (GUILD_DELETE), without a
refused request first. A table in a thread falls back to its channel first (``bot.outbox.threads``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.mus.senas import ai_sena
from bot.i18n import Translator
from bot.outbox.budget import REFRESH, RestBudget
from bot.outbox.clock import table_clock
from bot.outbox.dms import Dms
from bot.outbox.files import as_file, json_default, render_fn
from bot.outbox.hand import hand_message
from bot.outbox.record import Click, DmJob, TableRecord
from bot.outbox.respond import NO_MENTIONS, refuse, send, update
from bot.outbox.source import TableSource
from bot.outbox.threads import THREAD_ARCHIVED, Threads, thread_of, where
from bot.outbox.tokens import TableTokens
from bot.rules.mus.senas import gesture as sena_gesture
from bot.rules.mus.senas import name as sena_name
from bot.rules.mus.senas import open_now
from bot.rules.mus.state import MusState
from bot.tables.length import LOST_CHANNEL
from bot.tables.model import FINAL_SHOWN, dm_version_key
from bot.tables.reactions import ReactionGate
from bot.tables.senas import Made, SenaRefused
from bot.views import texts
from bot.views.alt import table_alt
from bot.views.components import table_view
from bot.views.display import player_name, safe_name, seat_name, table_embed
from bot.views.locale import load_table_tr, table_tr

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table

log = logging.getLogger(__name__)
#: Seconds a clean stop lets the queued edits and DMs go out before cancelling them.
DRAIN = 5.0
#: Discord's codes for a channel the bot can no longer reach: deleted, or access taken away.
CHANNEL_GONE = {10003, 50001}
#: Discord's code for a permission the table message needs taken away mid-session (Send Messages,
#: Embed Links, Attach Files…): treated as the channel out of reach (``OUT_OF_REACH``).
MISSING_PERMISSIONS = 50013
#: What makes the table's channel (or thread) unusable for its message.
OUT_OF_REACH = CHANNEL_GONE | {MISSING_PERMISSIONS}


class Presenter:
    """Renders table changes to Discord without ever blocking the table service."""

    def __init__(self, bot: TapisBot, tables: TableSource, edit_interval: float = 1.0,
                 images: bool = True) -> None:
        self.bot = bot
        #: The table service, as far as the outbox may use it.
        self.tables = tables
        self.edit_interval = edit_interval
        self.images = images
        #: One record per table shown (by table id): everything kept about it.
        self.records: dict[int, TableRecord] = {}
        self.budget = RestBudget()
        self.reaction_gate = ReactionGate()  # quick reactions: one per member per cooldown
        self.table_tokens = TableTokens()  # table id -> an interaction that can edit its message
        self.channel_next: dict[int, float] = {}  # channel id -> earliest time of its next table edit
        self.threads = Threads(self, tables)  # a thread per table (bot.outbox.threads)
        self.dms = Dms(self, tables)  # the players' private hands (bot.outbox.dms)
        self.closed = False
        #: Small store writes under way (a prompt's version, a table's end shown): ``write``.
        self.writes: set[asyncio.Task[None]] = set()

    def record(self, table_id: int) -> TableRecord:
        """The table's record, created on first use."""
        rec = self.records.get(table_id)
        if rec is None:
            rec = self.records[table_id] = TableRecord()
        return rec

    def out_of_reach(self, table: Table, rec: TableRecord) -> bool:
        """Whether the table's channel is out of reach: found so by this process, or the table's
        close was logged for that reason before a restart (then no request is refused again)."""
        if table.closed_by == LOST_CHANNEL:
            rec.unreachable = True
        return rec.unreachable

    async def table(self, table_id: int) -> Table | None:
        """The table from the service, or, once the service has let an ended table go, as the
        outbox last saw it (while its record lives: its end is still to be shown)."""
        table = await self.tables.get(table_id)
        if table is None:
            rec = self.records.get(table_id)
            table = rec.table if rec is not None else None
        return table

    def log_of(self, table_id: int, table: Table | None = None,
               tr: Translator | None = None) -> tuple[str, ...]:
        """The narration lines the table message shows now (none for a table without a record); told
        again in ``tr``'s language when it is not the one they were told in (``/table status`` by a
        reader of another language: no English line under a French heading)."""
        rec = self.records.get(table_id)
        if rec is None:
            return ()
        if table is None or tr is None or rec.log_lang in (None, tr.lang):
            return tuple(rec.log)
        return tuple(line for event in rec.said if (line := self._narrate(table, event, tr)))

    def click(self, table_id: int, user_id: int) -> Click | None:
        """The user's latest move click at that table still kept for their next prompt."""
        rec = self.records.get(table_id)
        return rec.clicks.get(user_id) if rec is not None else None

    # ------------------------------------------------------------------ listener

    async def on_change(self, table: Table, events: list[dict[str, Any]]) -> None:
        """Service listener: note the events, mark the table dirty, queue DMs (never awaits I/O)."""
        if self.closed:
            return
        reminder = [e for e in events or () if e.get("type") == "reminder"]
        if reminder:
            self.dms.plan_reminders(table, reminder)
            events = [e for e in events if e.get("type") != "reminder"]
            if not events:
                return
        rec = self.record(table.id)
        rec.table = table
        # The log is public: the table's language (read once per table and process, so that the first
        # change after a restart is not narrated in English before anything else loaded it).
        tr = await load_table_tr(self.bot, table.id)
        for event in events or ():
            line = self._narrate(table, event, tr)
            if line:
                rec.log.append(line)
                rec.said.append(event)
                rec.log_lang = tr.lang
                rec.log_serial += 1
        self.mark_dirty(table.id)
        if table.state is not None and table.status == "playing":
            await self.ai_senas(table)
            self.dms.plan(table)
            self.dms.plan_away(table, events)
        elif any(e.get("type") == "table_end" for e in events or ()):
            if table.state is not None and table.status == "finished":
                self.dms.plan_final(table)  # they end with the table's clicks
            else:
                self.dms.forget_clicks(table.id)

    def _narrate(self, table: Table, event: dict[str, Any], tr: Translator) -> str | None:
        try:
            return table.rules.narrate(event, lambda seat: seat_name(table, seat, tr), tr)
        except Exception:
            log.warning("narrate failed for %s event %r", table.game, event.get("type"), exc_info=True)
            return None

    def mark_dirty(self, table_id: int) -> None:
        """The table message must show a change: start its editor task if none runs."""
        rec = self.record(table_id)
        rec.dirty = True
        if rec.editor is None and not self.closed:
            rec.editor = asyncio.get_running_loop().create_task(self._editor(table_id, rec))

    def shown_key(self, table: Table) -> tuple[Any, ...]:
        """Everything the table message depends on, cheaply: equal keys mean an identical message.

        Lobby changes (joins, leaves, AI seats, a new host) do not bump the version: the seats and
        the host are part of the key.
        """
        seats = tuple((s.user_id, s.name, s.ai, s.away, s.dm_closed, s.timeouts_in_row) for s in table.seats)
        rec = self.records.get(table.id)
        return (table.version, table.status, table.message_id, rec.log_serial if rec is not None else 0,
                rec.reactions.line() if rec is not None else None,
                tuple(self.notices(table)), seats, table.host_id, table.deadline, tuple(table.plan.places),
                tuple(sorted(table.plan.invited.items())))

    def posted(self, table: Table, shown: tuple[Any, ...]) -> None:
        """The Discord layer posted the table message itself (``/table new``), showing the table as
        ``shown`` (a ``shown_key`` taken before building it) says; edit it if the table moved on
        since (a join, or even the end, before the message id was recorded)."""
        self.record(table.id).shown = (*shown[:2], table.message_id, *shown[3:])
        self.mark_dirty(table.id)

    def prime(self, table: Table) -> None:
        """Remember a resumed table's turn state, so a restart does not DM everybody again.

        Seats already known (a table live in this process) keep what was last planned for them. A
        seat to act whose latest DM (or move's answer) shows an older version than the table's
        (``dm_version_key``: its prompt was lost to a crash or a stop, its buttons are stale) is
        prompted again; a seat whose DM shows this version is not.
        """
        if table.state is None or not table.is_open:
            return
        to_act = set(table.state.to_act()) if table.status == "playing" else set()
        seen = self.record(table.id).seen
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.ai and not info.away and seat not in seen:
                seen[seat] = (table.state.view(seat).get("deal"), seat in to_act)
                if seat in to_act and not info.away and not info.dm_closed \
                        and table.extra_messages.get(dm_version_key(info.user_id)) != table.version:
                    self.dms.queue(table.id, DmJob(seat, info.user_id))

    def pending(self) -> set[asyncio.Task[Any]]:
        """Every editor and DM task running now, and the store writes under way (``write``): a
        task that has finished is not pending, even before its done callbacks have run."""
        tasks = {task for rec in self.records.values() for task in rec.tasks()} | set(self.writes)
        return {task for task in tasks if not task.done()}

    def write(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run a small store write in the background (``pending`` holds it until done)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.writes.add(task)
        task.add_done_callback(self.writes.discard)

    async def refresh_open_tables(self) -> None:
        """After (re)connecting: refresh every open table's message from the service's state.

        Every open table, not only those resumed at start: an edit that failed while the
        connection was down is redone (a message already showing the state is not edited again).
        """
        for table in await self.tables.open_tables():
            await load_table_tr(self.bot, table.id)  # cached for the listener's narration
            self.prime(table)
            self.mark_dirty(table.id)
        for table in await self.tables.unshown_finished():
            self.show_end(table)

    def show_end(self, table: Table) -> None:
        """Show a finished table's end that was not shown (the process stopped first): the final
        table message (its result, Play again), the final DMs of those whose latest DM shows an
        older version, the thread's line and archiving. Marked shown once done (``release``)."""
        if table.state is None or self.closed:
            return
        self.mark_dirty(table.id)
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.dm_closed \
                    and table.extra_messages.get(dm_version_key(info.user_id)) != table.version:
                self.dms.queue(table.id, DmJob(seat, info.user_id))

    async def close(self, drain: float = DRAIN) -> None:
        """Stop: no new work; what is queued (edits, DMs) gets ``drain`` seconds to go out, the rest
        is cancelled (and shown again after the restart: ``prime``, ``show_end``)."""
        self.closed = True
        loop = asyncio.get_running_loop()
        until = loop.time() + drain
        while (running := self.pending()) and loop.time() < until:
            await asyncio.wait(running, timeout=until - loop.time())
        self.budget.close()
        tasks = list(self.pending())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ channel message

    async def _editor(self, table_id: int, rec: TableRecord) -> None:
        try:
            await asyncio.sleep(0)  # let the interaction being answered go first
            while rec.dirty:
                rec.dirty = False
                try:
                    await self.render_table(table_id)
                except Exception:
                    log.exception("could not update the message of table %s", table_id)
                if rec.final and not rec.dirty:
                    await self._close_thread(table_id)
                    break  # the last message of a closed table: nothing will follow
                await asyncio.sleep(self.edit_interval)
        except asyncio.CancelledError:
            rec.cut = True  # what it was to show is not shown: the end is not marked shown
            raise
        finally:
            rec.editor = None
            self.release(table_id, rec)

    async def _close_thread(self, table_id: int) -> None:
        """An ended table's channel line shows its result and its thread is archived (if it has one)."""
        table = await self.table(table_id)
        rec = self.records.get(table_id)
        if table is None or thread_of(table) is None or (rec is not None and self.out_of_reach(table, rec)):
            return  # no thread, or its channel is out of reach: nothing to archive there
        try:
            await self.threads.close(table)
        except Exception:
            log.exception("table %s: closing its thread failed", table_id)

    def release(self, table_id: int, rec: TableRecord) -> None:
        """Drop a closed table's record once its last message is done and no DM for it is pending.

        The record goes whole: its log, images, clicks (and their interactions) with it, and the
        interactions that edit the table's message and its channel line.
        """
        if rec.final and not rec.busy and self.records.get(table_id) is rec:
            del self.records[table_id]
            self.table_tokens.drop(table_id)
            self.threads.forget(table_id)
            if not rec.cut:
                self.write(self._mark_end_shown(table_id))

    async def _mark_end_shown(self, table_id: int) -> None:
        """A finished table's end is shown (final message, DMs, thread): a restart shows it no more.

        Written with the message ids noted since the table's last change (its players' latest DMs)."""
        table = await self.tables.get(table_id)
        if table is None or table.status != "finished" or table.extra_messages.get(FINAL_SHOWN) != 0:
            return
        try:
            await self.tables.set_message(table_id, table.version, key=FINAL_SHOWN)
        except Exception:
            log.warning("table %s: its end was shown but not marked so", table_id, exc_info=True)

    async def channel_turn(self, channel_id: int) -> None:
        """Wait for this channel's next edit slot: one table edit per ``edit_interval`` per channel.

        Discord allows about 5 edits per 5 s per channel; tables sharing a channel take turns here
        instead of queueing stale edits in discord.py's bucket (each renders when its slot comes).
        """
        now = asyncio.get_running_loop().time()
        at = max(now, self.channel_next.get(channel_id, 0.0))
        self.channel_next[channel_id] = at + self.edit_interval
        if len(self.channel_next) > 4096:  # forget channels whose slot is long past
            self.channel_next = {c: t for c, t in self.channel_next.items() if t > now}
        if at > now:
            await asyncio.sleep(at - now)

    def notices(self, table: Table, tr: Translator | None = None) -> list[str]:
        tr = tr or table_tr(self.bot, table.id)
        out = []
        rec = self.records.get(table.id)
        closed = rec.dm_closed if rec is not None else set()
        if rec is not None and rec.thread_lost:
            out.append(tr._("🧵 The table's thread could not be used: the game goes on here."))
        for info in table.seats:
            if info.user_id is not None and (info.dm_closed or info.user_id in closed):
                out.append(tr._("📪 {who} has closed DMs and plays with **My hand** on this message.",
                                who=safe_name(info.name)))
        return out

    def table_payload(self, table: Table, tr: Translator) -> dict[str, Any]:
        """Embed and components of the table message as it should look now, in ``tr`` (the table's
        language)."""
        clock = table_clock(table, self.bot.config, tr)
        rec = self.records.get(table.id)
        embed = table_embed(table, self.log_of(table.id, table, tr), self.notices(table, tr), tr, clock=clock,
                            reactions=rec.reactions.line() if rec is not None else None)
        return {"embed": embed, "view": table_view(table, tr)}

    async def render_table(self, table_id: int) -> None:
        """Edit the table's channel message to show the table as it is now (if it changed)."""
        rec = self.record(table_id)
        table = await self.table(table_id)
        if table is None or not table.is_open:
            rec.final = True  # after this attempt, the table is released
        if table is None or table.message_id is None or self.out_of_reach(table, rec):
            return
        if rec.shown == self.shown_key(table):
            return
        token = self.table_tokens.fresh(table_id, table.message_id)  # exempt from the global limit
        if token is None:
            await self.channel_turn(where(table))
            await self.budget.take(REFRESH, table.guild_id)  # the table may move on: render after it
        tr = await load_table_tr(self.bot, table.id)
        if rec.unreachable:
            return
        shown = self.shown_key(table)
        if rec.shown == shown:
            return
        payload = self.table_payload(table, tr)
        view = payload["view"]
        key = json.dumps([payload["embed"].to_dict(), view.to_components() if view else []], sort_keys=True)
        if rec.rendered == key:
            rec.shown = shown
            return
        files = await self._table_files(table)
        if files:
            payload["embed"].set_image(url=f"attachment://{files[0].filename}")
        channel = self.bot.get_partial_messageable(where(table), guild_id=table.guild_id)
        message = channel.get_partial_message(table.message_id)
        try:
            try:
                edit: dict[str, Any] = {"embed": payload["embed"], "view": view,
                                        "allowed_mentions": NO_MENTIONS}
                if files:
                    edit["attachments"] = files
                if token is None or not await self.table_tokens.edit(table_id, token, **edit):
                    if token is not None:  # the token was refused: through the channel after all
                        await self.channel_turn(where(table))
                        await self.budget.take(REFRESH, table.guild_id)
                        if files:
                            edit["attachments"] = await self._table_files(table)  # those were consumed
                    await message.edit(**edit)
            except discord.NotFound as exc:
                if exc.code in CHANNEL_GONE:
                    raise
                log.warning("table %s: its message is gone; posting a new one", table_id)
                files = await self._table_files(table)  # the failed edit consumed the files
                with_files: dict[str, Any] = {"files": files} if files else {}
                new = await channel.send(embed=payload["embed"], view=view, **with_files)
                await self.tables.set_message(table_id, new.id)
        except discord.HTTPException as exc:
            if exc.code in OUT_OF_REACH and where(table) != table.channel_id:
                await self.threads.lost(table, f"{exc.status} {exc.code}")  # back to the channel
            elif exc.code == THREAD_ARCHIVED and where(table) != table.channel_id:
                if await self.threads.unarchive(table):
                    self.mark_dirty(table_id)
            elif exc.code in OUT_OF_REACH:
                await self._channel_gone(table, f"{exc.status} {exc.code}")
            else:
                log.warning("table %s: message edit failed: %s", table_id, exc)
            return
        rec.rendered, rec.shown = key, shown
        await self.threads.sync_line(table)  # its line in the channel, when it runs in a thread

    async def channel_deleted(self, channel_id: int) -> None:
        """The gateway says a channel or thread was deleted: its open tables stop editing and close (a
        table's own thread deleted: the table comes back to its channel)."""
        for table in await self.tables.tables_in_channel(channel_id):
            if thread_of(table) == channel_id and table.channel_id != channel_id:
                await self.threads.lost(table, "deleted")
            else:
                await self._channel_gone(table, "deleted")

    async def _channel_gone(self, table: Table, why: str) -> None:
        """The table's channel was deleted or is out of reach: stop editing, close at the end of the deal.

        A lobby is cancelled (buy-ins refunded); a session ends at the end of the current deal.
        """
        rec = self.record(table.id)
        if self.out_of_reach(table, rec):
            return  # already known (the gateway's delete and a failed edit may both tell; a restart)
        rec.unreachable = True
        log.warning("table %s: channel %s is unreachable (%s); no more edits there, play goes on by DM "
                    "and the table closes at the end of the deal", table.id, table.channel_id, why)
        self._tell_players(table, rec)
        if not table.is_open or table.closing:
            return
        from bot.tables.errors import TableError

        lobby: list[int] = []
        if table.status == "lobby":
            lobby = [info.user_id for info in table.seats if info.user_id is not None and not info.ai]
        with contextlib.suppress(TableError):
            await self.tables.channel_lost(table.id)
        if lobby and table.status == "cancelled":  # refunded: nothing else would tell them why
            await self.dms.lobby_lost(table, lobby)

    def _tell_players(self, table: Table, rec: TableRecord) -> None:
        """Every seated player of a session whose channel is out of reach gets a DM at once: their hand,
        saying that the game goes on there and ends after this deal (``bot.outbox.hand.CHANNEL_LOST``;
        the hand's next DMs and **My hand** say it too)."""
        if table.status != "playing" or table.state is None:
            return
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.ai and not info.away and not info.dm_closed:
                rec.dm_shown.pop(seat, None)  # the same state, but a new note: not skipped
                self.dms.queue(table.id, DmJob(seat, info.user_id))

    async def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from a server (GUILD_DELETE): its open tables there are out of reach at
        once, without a request refused first (play goes on by DM, each closes at the end of its deal;
        a lobby is cancelled and refunded)."""
        for table in await self.tables.open_tables():
            if table.guild_id == guild_id:
                await self._channel_gone(table, "the bot was removed from the server")

    async def _table_files(self, table: Table) -> list[discord.File]:
        fn = render_fn("table_image") if self.images else None
        if fn is None or table.state is None:
            return []
        tr = await load_table_tr(self.bot, table.id)
        names = [player_name(s.name, s.ai, tr) for s in table.seats]
        view = table.state.view(None)
        data = await self.image(table.id, None, fn, table.game, view, names, tr)
        alt = table_alt(table.game, table.id, view, names, tr, table.status)  # what it shows, in words
        return [as_file(data, f"table-{table.id}.png", alt)] if data is not None else []

    async def image(self, table_id: int, seat: int | None, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a thread, unless this table's seat (None: the table) last rendered the same."""
        key = json.dumps(args, sort_keys=True, default=json_default)
        rec = self.records.get(table_id)
        done = rec.images.get(seat) if rec is not None else None
        if done is not None and done[0] == key:
            return done[1]
        data = await asyncio.to_thread(fn, *args)
        if isinstance(data, (bytes, bytearray)) and rec is not None and not rec.final:
            rec.images[seat] = (key, data)
        return data

    # ------------------------------------------------------------------ answers to clicks

    async def show_hand(self, interaction: discord.Interaction[TapisBot], table: Table,
                        tr: Translator) -> None:
        """Ephemeral: the clicker's hand at this table and the moves they may make now (``tr``)."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return await refuse(interaction, texts.not_seated(table.id, tr))
        if table.state is None:
            return await refuse(interaction, tr._("Table #{id} has not started yet.", id=table.id))
        embed, view = hand_message(self.bot, table, seat, tr)
        extra: dict[str, Any] = {"view": view} if view else {}
        await send(interaction, embed=embed, **extra)

    async def answer_move(self, interaction: discord.Interaction[TapisBot], table: Table, seat: int,
                          note: str, tr: Translator) -> None:
        """After the service applied a player's move: their clicked message shows the new state
        (``note`` above the turn; a DM its new hand image, not the one before the move), or, if that
        answer was lost, a DM does."""
        embed, view = hand_message(self.bot, table, seat, tr, note=note)
        files: list[discord.File] = []
        if interaction.guild_id is None:  # a DM: its image too (a failed render leaves the text answer)
            try:
                files = await self.dms.hand_files(table, seat, tr, embed)
            except Exception:
                log.warning("table %s: the hand image of seat %s was not drawn", table.id, seat,
                            exc_info=True)
        try:
            await update(interaction, embed=embed, view=view, **({"attachments": files} if files else {}))
        except discord.HTTPException as exc:  # the move is applied: their hand comes by DM instead
            log.warning("table %s: the answer to a move was lost (%s); sending a DM", table.id, exc)
            self.dms.answered_in_place(table, seat, interaction, shown=False)
            return
        self.dms.answered_in_place(table, seat, interaction, shown=True)

    async def answer_on_table(self, interaction: discord.Interaction[TapisBot], table: Table,
                              text: str) -> None:
        """Answer a click on the table message with an ephemeral ``text``, acknowledging the click as
        a message update first (type 6), so that its token can edit the table message for 14 minutes
        outside the global limit (``bot.outbox.tokens``). An already deferred click is answered as
        usual."""
        if interaction.response.is_done() or interaction.message is None \
                or interaction.message.id != table.message_id:
            return await send(interaction, text)
        tokens = self.table_tokens
        token = tokens.note(table.id, interaction, table.message_id, ready=False)  # before any await
        try:
            await interaction.response.defer()
        except discord.HTTPException:
            tokens.drop(table.id, token)
            raise
        if token is not None:
            token.ready.set()
        await send(interaction, text)

    async def react(self, interaction: discord.Interaction[TapisBot], table: Table, who: str,
                    emote: str) -> None:
        """Show ``who``'s reaction on the table message: the click is acknowledged as a message
        update (no request of the global budget) and its token can make the coalesced edit that
        shows it; no message of its own."""
        tokens = self.table_tokens
        token = None
        if interaction.message is not None and interaction.message.id == table.message_id:
            token = tokens.note(table.id, interaction, table.message_id, ready=False)  # before any await
        try:
            await interaction.response.defer()
        except discord.HTTPException:
            if token is not None:
                tokens.drop(table.id, token)
            raise
        if token is not None:
            token.ready.set()
        self.record(table.id).reactions.add(safe_name(who), emote)
        self.mark_dirty(table.id)

    async def make_sena(self, interaction: discord.Interaction[TapisBot], table: Table, seat: int,
                        sena: str, tr: Translator) -> None:
        """``seat`` makes ``sena`` (checked: ``SenaRefused`` is answered, ephemeral): its partner's
        DM shows it, and so do the DMs of the opponents who caught it (AI seats read them from the
        table's book). Made and stored by the service (``TableService.make_sena``): no record here."""
        try:
            made = await self.tables.make_sena(table.id, seat, sena)
        except SenaRefused as refused:
            return await refuse(interaction, tr._(refused.msgid))
        self._show_sena(table, made)
        await send(interaction, tr._("You signal **{sena}** to your partner ({gesture}).",
                                     sena=tr._(sena_name(sena)), gesture=tr._(sena_gesture(sena))))

    def _show_sena(self, table: Table, made: Made) -> None:
        """Queue the DMs that show ``made`` (seated humans who saw it)."""
        for seat in sorted(made.seen_by):
            info = table.seats[seat]
            if info.user_id is not None and not info.ai:
                self.dms.queue(table.id, DmJob(seat, info.user_id))

    async def ai_senas(self, table: Table) -> None:
        """The AI seats make their seña of a new hand (``bot.ai.mus.senas``: only what they hold)."""
        state = table.state  # the option exists only for Mus
        if not isinstance(state, MusState) or not table.options.get("senas") \
                or table.status != "playing" or not open_now(state.phase):
            return
        for seat, info in enumerate(table.seats):
            if not info.ai:
                continue
            done = [m.sena for m in table.senas.current(state) if m.seat == seat]
            sena = ai_sena(state.hands[seat], done)
            if sena is not None:
                try:  # at its hand's start, its turn or not (docs/rules/mus.md §10, the AI)
                    self._show_sena(table, await self.tables.make_sena(table.id, seat, sena, on_turn=False))
                except SenaRefused:
                    pass
                except Exception:  # a store fault: no seña this time (the next change tries again)
                    log.warning("table %s: the AI's seña could not be stored", table.id, exc_info=True)

"""Shows tables on Discord: the channel message (debounced edits) and the players' DMs.

``Presenter.on_change`` is a ``TableService`` listener: it only records what changed and
schedules work, so the service is never slowed down by Discord. Per table, one editor task
edits the channel message at most once per ``edit_interval`` seconds, and one DM task sends
the private hands in order. A closed DM (403 / 50007) is noted on the table message; the game
never waits on Discord.

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
sent and its DM task is done, the record is dropped (``_release``) and all of it with it.
A table whose channel was deleted or became unreachable (404/10003, 403/50001) is no longer
edited (one WARNING); its play goes on by DM and the service is asked to close it at the end of
the deal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.mus.senas import ai_sena
from bot.i18n import N_, Translator
from bot.outbox.budget import PROMPT, REFRESH, RestBudget
from bot.outbox.clock import table_clock
from bot.outbox.files import as_file, json_default, playable, render_fn
from bot.outbox.hand import hand_message
from bot.outbox.record import Click, DmJob, TableRecord
from bot.outbox.remind import post_reminder
from bot.outbox.respond import refuse, send, update
from bot.outbox.source import TableSource
from bot.outbox.threads import THREAD_ARCHIVED, Threads, thread_of, where
from bot.outbox.tokens import TableTokens
from bot.rules.mus.senas import gesture as sena_gesture
from bot.rules.mus.senas import name as sena_name
from bot.rules.mus.senas import open_now
from bot.rules.mus.state import MusState
from bot.tables.reactions import ReactionGate
from bot.tables.senas import BOOKS as SENA_BOOKS
from bot.tables.senas import Made, SenaRefused
from bot.views import texts
from bot.views.alt import hand_alt, table_alt
from bot.views.components import table_view
from bot.views.display import game_title, safe_name, table_embed
from bot.views.locale import dm_tr, load_table_tr, table_tr

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table

log = logging.getLogger(__name__)
DM_CLOSED = 50007
#: Discord's codes for a channel the bot can no longer reach: deleted, or access taken away.
CHANNEL_GONE = {10003, 50001}
#: Edits do not inherit the bot's default (discord.py applies it to new messages only).
NO_MENTIONS = discord.AllowedMentions.none()
#: Users whose DM channel and latest DM are remembered (per user, not per table): least recent dropped.
USERS_KEEP = 4096
TOKEN_LIFE = 14 * 60.0  # seconds an interaction token is used for (Discord keeps it 15 minutes)
#: The note above the turn in a reminder DM (the deadline itself is the clock line below it).
REMINDER = N_("⏰ **Reminder:** it is still your turn at this table, and your deadline is near.")
#: What a player's previous DM for a table says once a newer one replaced it.
MOVED_ON = N_("This hand is out of date: the table has moved on. Your hand is in a newer message.")


def dm_key(user_id: int) -> str:
    """The key under which a table remembers the latest DM sent to ``user_id`` (``extra_messages``)."""
    return f"dm:{user_id}"


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
        self.dm_channels: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id
        self.budget = RestBudget()
        self.reaction_gate = ReactionGate()  # quick reactions: one per member per cooldown
        self.table_tokens = TableTokens()  # table id -> an interaction that can edit its message
        self.channel_next: dict[int, float] = {}  # channel id -> earliest time of its next table edit
        self.last_dm: OrderedDict[int, int] = OrderedDict()  # user id -> the latest DM posted to them
        self.threads = Threads(self, tables)  # a thread per table (bot.outbox.threads)
        self.closed = False

    def record(self, table_id: int) -> TableRecord:
        """The table's record, created on first use."""
        rec = self.records.get(table_id)
        if rec is None:
            rec = self.records[table_id] = TableRecord()
            SENA_BOOKS[table_id] = rec.senas  # the AI's search reads it (``bot.tables.senas.known_to``)
        return rec

    def log_of(self, table_id: int) -> tuple[str, ...]:
        """The narration lines the table message shows now (none for a table without a record)."""
        rec = self.records.get(table_id)
        return tuple(rec.log) if rec is not None else ()

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
            self._plan_reminders(table, reminder)
            events = [e for e in events if e.get("type") != "reminder"]
            if not events:
                return
        rec = self.record(table.id)
        # The log is public: the table's language (read once per table and process, so that the first
        # change after a restart is not narrated in English before anything else loaded it).
        tr = await load_table_tr(self.bot, table.id)
        for event in events or ():
            line = self._narrate(table, event, tr)
            if line:
                rec.log.append(line)
                rec.log_serial += 1
        self.mark_dirty(table.id)
        if table.state is not None and table.status == "playing":
            self.ai_senas(table)
            self._plan_dms(table)
        elif any(e.get("type") == "table_end" for e in events or ()):
            if table.state is not None and table.status == "finished":
                self._plan_final_dms(table)  # they end with the table's clicks
            else:
                self.forget_clicks(table.id)

    def _narrate(self, table: Table, event: dict[str, Any], tr: Translator) -> str | None:
        try:
            return table.rules.narrate(event, lambda seat: safe_name(table.name_of(seat)), tr)
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

        Seats already known (a table live in this process) keep what was last planned for them.
        """
        if table.state is None or not table.is_open:
            return
        to_act = set(table.state.to_act())
        seen = self.record(table.id).seen
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.ai and seat not in seen:
                seen[seat] = (table.state.view(seat).get("deal"), seat in to_act)

    def pending(self) -> set[asyncio.Task[Any]]:
        """Every editor and DM task running now."""
        return {task for rec in self.records.values() for task in rec.tasks()}

    async def refresh_open_tables(self) -> None:
        """After (re)connecting: refresh every open table's message from the service's state.

        Every open table, not only those resumed at start: an edit that failed while the
        connection was down is redone (a message already showing the state is not edited again).
        """
        for table in await self.tables.open_tables():
            await load_table_tr(self.bot, table.id)  # cached for the listener's narration
            self.prime(table)
            self.mark_dirty(table.id)

    async def close(self) -> None:
        self.closed = True
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
        finally:
            rec.editor = None
            self._release(table_id, rec)

    async def _close_thread(self, table_id: int) -> None:
        """An ended table's channel line shows its result and its thread is archived (if it has one)."""
        table = await self.tables.get(table_id)
        if table is None or thread_of(table) is None:
            return
        try:
            await self.threads.close(table)
        except Exception:
            log.exception("table %s: closing its thread failed", table_id)

    def _release(self, table_id: int, rec: TableRecord) -> None:
        """Drop a closed table's record once its last message is done and no DM for it is pending.

        The record goes whole: its log, images, clicks (and their interactions) with it.
        """
        if rec.final and not rec.busy and self.records.get(table_id) is rec:
            del self.records[table_id]
            self.table_tokens.drop(table_id)

    async def _channel_turn(self, channel_id: int) -> None:
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
                out.append(tr._("📪 {who} has closed DMs: use **My hand** on this message.",
                                who=safe_name(info.name)))
        return out

    def table_payload(self, table: Table, tr: Translator) -> dict[str, Any]:
        """Embed and components of the table message as it should look now, in ``tr`` (the table's
        language)."""
        clock = table_clock(table, self.bot.config, tr)
        rec = self.records.get(table.id)
        embed = table_embed(table, self.log_of(table.id), self.notices(table, tr), tr, clock=clock,
                            reactions=rec.reactions.line() if rec is not None else None)
        return {"embed": embed, "view": table_view(table, tr)}

    async def render_table(self, table_id: int) -> None:
        """Edit the table's channel message to show the table as it is now (if it changed)."""
        rec = self.record(table_id)
        table = await self.tables.get(table_id)
        if table is None or not table.is_open:
            rec.final = True  # after this attempt, the table is released
        if table is None or table.message_id is None or rec.unreachable:
            return
        if rec.shown == self.shown_key(table):
            return
        token = self.table_tokens.fresh(table_id, table.message_id)  # exempt from the global limit
        if token is None:
            await self._channel_turn(where(table))
            await self.budget.take(REFRESH)  # while it waits, the table may move on: render after it
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
                        await self._channel_turn(where(table))
                        await self.budget.take(REFRESH)
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
            if exc.code in CHANNEL_GONE and where(table) != table.channel_id:
                await self.threads.lost(table, f"{exc.status} {exc.code}")  # back to the channel
            elif exc.code == THREAD_ARCHIVED and where(table) != table.channel_id:
                if await self.threads.unarchive(table):
                    self.mark_dirty(table_id)
            elif exc.code in CHANNEL_GONE:
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
        if rec.unreachable:
            return  # already known (the gateway's delete and a failed edit may both tell)
        rec.unreachable = True
        log.warning("table %s: channel %s is unreachable (%s); no more edits there, play goes on by DM "
                    "and the table closes at the end of the deal", table.id, table.channel_id, why)
        if not table.is_open or table.closing:
            return
        from bot.tables.errors import TableError

        with contextlib.suppress(TableError):
            await self.tables.end(table.id, 0, True, now=False)  # as a server admin who is not seated

    async def _table_files(self, table: Table) -> list[discord.File]:
        fn = render_fn("table_image") if self.images else None
        if fn is None or table.state is None:
            return []
        names = [s.name for s in table.seats]
        tr = await load_table_tr(self.bot, table.id)
        view = table.state.view(None)
        data = await self._image(table.id, None, fn, table.game, view, names, tr)
        alt = table_alt(table.game, table.id, view, names, tr, table.status)  # what it shows, in words
        return [as_file(data, f"table-{table.id}.png", alt)] if data is not None else []

    async def _image(self, table_id: int, seat: int | None, fn: Any, *args: Any) -> Any:
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
        (``note`` above the turn), or, if that answer was lost, a DM does."""
        embed, view = hand_message(self.bot, table, seat, tr, note=note)
        try:
            await update(interaction, embed=embed, view=view)
        except discord.HTTPException as exc:  # the move is applied: their hand comes by DM instead
            log.warning("table %s: the answer to a move was lost (%s); sending a DM", table.id, exc)
            self.answered_in_place(table, seat, interaction, shown=False)
            return
        self.answered_in_place(table, seat, interaction, shown=True)

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
        book)."""
        book = self.record(table.id).senas
        try:
            made = book.make(table, seat, sena)
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
                self._queue_dm(table.id, DmJob(seat, info.user_id))

    def ai_senas(self, table: Table) -> None:
        """The AI seats make their seña of a new hand (``bot.ai.mus.senas``: only what they hold)."""
        state = table.state  # the option exists only for Mus
        if not isinstance(state, MusState) or not table.options.get("senas") \
                or table.status != "playing" or not open_now(state.phase):
            return
        book = self.record(table.id).senas
        for seat, info in enumerate(table.seats):
            if not info.ai:
                continue
            done = [m.sena for m in book.current(state) if m.seat == seat]
            sena = ai_sena(state.hands[seat], done)
            if sena is not None:
                with contextlib.suppress(SenaRefused):
                    self._show_sena(table, book.make(table, seat, sena))

    # ------------------------------------------------------------------ DMs

    def _plan_dms(self, table: Table) -> None:
        if table.state is None:
            return
        to_act = set(table.state.to_act())
        rec = self.record(table.id)
        seen = rec.seen
        for seat, info in enumerate(table.seats):
            if info.user_id is None or info.ai or info.away or info.dm_closed:
                continue
            view = table.state.view(seat)
            now = (view.get("deal"), seat in to_act)
            before = seen.get(seat)
            seen[seat] = now
            if before is not None and before[0] == now[0] and (before[1] or not now[1]):
                continue
            if rec.answering.get(seat):  # the interaction's response shows them this state
                continue
            self._queue_dm(table.id, DmJob(seat, info.user_id))

    def _plan_reminders(self, table: Table, events: list[dict[str, Any]]) -> None:
        """One reminder per seat named (a correspondence table's deadline is near): a DM, or a post in
        the table's channel for a player no DM reaches."""
        for event in events:
            for seat in event.get("seats", ()):
                if not (isinstance(seat, int) and 0 <= seat < len(table.seats)):
                    continue
                info = table.seats[seat]
                if info.user_id is None or info.ai or info.away:
                    continue  # closed DMs: the reminder goes to the channel (``bot.outbox.remind``)
                self._queue_dm(table.id, DmJob(seat, info.user_id, remind=True))

    def _plan_final_dms(self, table: Table) -> None:
        """The session is over: every seated human's DM shows the final hand and stacks."""
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.dm_closed:
                self._queue_dm(table.id, DmJob(seat, info.user_id))

    def forget_clicks(self, table_id: int) -> None:
        """Drop a closed table's remembered clicks (and with them their interactions)."""
        rec = self.records.get(table_id)
        if rec is not None:
            rec.clicks.clear()

    @contextlib.contextmanager
    def answering_in_place(self, table_id: int, seat: int) -> Iterator[None]:
        """While a seat's move is applied, its DM is left to the interaction's response (type 7)."""
        answering = self.record(table_id).answering
        answering[seat] = answering.get(seat, 0) + 1
        try:
            yield
        finally:
            answering[seat] -= 1
            if not answering[seat]:
                del answering[seat]

    def answered_in_place(self, table: Table, seat: int, interaction: discord.Interaction[TapisBot],
                          shown: bool) -> None:
        """After a move's response: remember the click (for the next prompt), or DM if it failed."""
        message = interaction.message
        if not shown:
            rec = self.records.get(table.id)
            if rec is not None:
                rec.clicks.pop(interaction.user.id, None)
            self._queue_dm(table.id, DmJob(seat, interaction.user.id))  # its worker releases a late record
        elif table.status == "playing" and interaction.guild_id is None and message is not None:
            now = asyncio.get_running_loop().time()
            self.record(table.id).clicks[interaction.user.id] = Click(interaction, message.id, now)
        channel_id: int | None = getattr(interaction, "channel_id", None)
        if interaction.guild_id is None and channel_id is not None:  # their DM channel: no need to open
            self.dm_channels[interaction.user.id] = channel_id  # it (after a restart)
            self.dm_channels.move_to_end(interaction.user.id)

    def _queue_dm(self, table_id: int, job: DmJob) -> None:
        """Queue a DM for a seat unless one for it is already waiting (it will show the latest state)."""
        rec = self.record(table_id)
        for i, waiting in enumerate(rec.dm_jobs):
            if waiting.seat == job.seat and waiting.user_id == job.user_id:
                if job.remind and not waiting.remind:
                    rec.dm_jobs[i] = job  # the waiting DM goes out as the reminder
                return
        rec.dm_jobs.append(job)
        if rec.dm_worker is None:
            rec.dm_worker = asyncio.get_running_loop().create_task(self._dm_worker(table_id, rec))

    async def _dm_worker(self, table_id: int, rec: TableRecord) -> None:
        try:
            await asyncio.sleep(0)  # let the interaction being answered go first
            while rec.dm_jobs:
                job = rec.dm_jobs.popleft()
                try:
                    await self._send_dm(table_id, rec, job)
                except Exception:
                    log.exception("DM to %s for table %s failed", job.user_id, table_id)
        finally:
            rec.dm_worker = None
            rec.dm_jobs.clear()
            self._release(table_id, rec)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel, opened once (discord.py keeps only 128 in its own cache)."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            await self.budget.take(PROMPT)
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            self.dm_channels[user_id] = channel_id = channel.id
            while len(self.dm_channels) > USERS_KEEP:
                self.dm_channels.popitem(last=False)
        else:
            self.dm_channels.move_to_end(user_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send_dm(self, table_id: int, rec: TableRecord, job: DmJob) -> None:
        # closed DMs, or /preferences hands: channel: no DM, but a reminder still reaches them
        by_dm = job.user_id not in rec.dm_closed and await self.bot.preferences.hands_by_dm(job.user_id)
        if not by_dm and not job.remind:
            return
        table = await self.tables.get(table_id)
        if table is None or not table.is_open:
            rec.final = True  # the record goes once this last DM is out
        if table is None or table.state is None or table.seat_of(job.user_id) != job.seat:
            return
        if job.remind and (table.status != "playing" or job.seat not in table.waiting_seats()):
            return  # they moved (or the table ended) before the reminder went out
        if job.remind and not await self.bot.preferences.may_remind(job.user_id):
            return  # /preferences reminders: off
        if job.remind and (not by_dm or table.seats[job.seat].dm_closed):
            await post_reminder(self.bot, table, job.user_id, self.budget, self._channel_turn)
            return
        if not job.remind and rec.dm_shown.get(job.seat) == self._dm_key(table, job):
            return  # their latest DM already shows this very state (it waited its turn: see below)
        shown = self._dm_key(table, job)  # what the DM shows, taken before any await
        embed, view, files = await self._dm_payload(table, job)
        over = table.status != "playing"
        if not job.remind and await self._edit_clicked(table_id, rec, job.user_id, embed, view, files):
            rec.dm_shown[job.seat] = shown
            if over:  # the final state is shown: this click will not be used again
                rec.clicks.pop(job.user_id, None)
            return
        if over:
            rec.clicks.pop(job.user_id, None)
        try:
            dm = await self._dm_channel(job.user_id)
            await self.budget.take(PROMPT)
            # While it waited for the budget, the table may have moved on (the player's turn came):
            # show the state of now, so one DM does what two would (the later job is then skipped).
            if self._dm_key(table, job) != shown:
                shown = self._dm_key(table, job)
                embed, view, files = await self._dm_payload(table, job)
            kwargs: dict[str, Any] = {"embed": embed, "files": files}
            if view is not None:
                kwargs["view"] = view
            for f in files:
                f.reset()
            sent = await dm.send(**kwargs)
            rec.dm_shown[job.seat] = shown
            self.last_dm[job.user_id] = sent.id
            self.last_dm.move_to_end(job.user_id)
            while len(self.last_dm) > USERS_KEEP:
                self.last_dm.popitem(last=False)
            await self._supersede(table, rec, job.user_id, dm, sent.id)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", job.user_id, exc)
            rec.dm_closed.add(job.user_id)
            self.mark_dirty(table_id)
            await self.tables.set_dm_closed(table_id, job.user_id, True)
            if job.remind:  # found closed by the reminder itself: it goes to the channel instead
                await post_reminder(self.bot, table, job.user_id, self.budget, self._channel_turn)
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", job.user_id, exc)

    async def _supersede(self, table: Table, rec: TableRecord, user_id: int, dm: discord.abc.Messageable,
                         new_id: int) -> None:
        """A new DM for this table went to ``user_id``: remember it with the table and, the first time
        after a restart, edit the DM the process before sent them last (its buttons and image
        removed, saying the table moved on), so nobody plays from or reads that old hand.

        The id is written with the table's next change (no commit of its own), so after a crash the
        DM edited may be the one before the last: a best effort, at one request per player and table
        per restart. Within one process nothing more is sent than before.
        """
        key = dm_key(user_id)
        old = table.extra_messages.get(key)
        self.tables.note_message(table.id, key, new_id)
        if user_id in rec.dms_posted:
            return
        rec.dms_posted.add(user_id)
        if old is None or old == new_id or not isinstance(dm, discord.PartialMessageable):
            return
        tr = await dm_tr(self.bot, user_id, table.id)
        embed = discord.Embed(title=tr._("Your hand — {game} #{id}", game=game_title(table.game, tr),
                                         id=table.id), description=tr._(MOVED_ON), colour=0x6B7280)
        try:
            await self.budget.take(REFRESH)
            await dm.get_partial_message(old).edit(embed=embed, view=None, attachments=[],
                                                   allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("table %s: the previous DM of %s was not edited (%s)", table.id, user_id, exc)

    async def _dm_payload(self, table: Table, job: DmJob) -> tuple[discord.Embed, discord.ui.View | None,
                                                                   list[discord.File]]:
        """The DM's embed, buttons and hand image for the table as it is now, in the player's language."""
        tr = await dm_tr(self.bot, job.user_id, table.id)
        note = tr._(REMINDER) if job.remind and table.deadline is not None else ""
        embed, view = hand_message(self.bot, table, job.seat, tr, note=note)
        files: list[discord.File] = []
        fn = render_fn("hand_image") if self.images else None
        if fn is not None and table.state is not None:
            seen = table.state.view(job.seat)
            lit = playable(table, job.seat)
            data = await self._image(table.id, job.seat, fn, table.game, seen, lit, tr)
            if data is not None:
                mine = table.status == "playing" and job.seat in table.state.to_act()
                files.append(as_file(data, "hand.png", hand_alt(table.game, seen, lit, tr, mine)))
                embed.set_image(url="attachment://hand.png")
        return embed, view, files

    def _dm_key(self, table: Table, job: DmJob) -> tuple[int, int, str, int]:
        """What a DM built now would show: whose it is, the table's version and status, and how
        many señas of the current hand its seat saw (``bot.tables.senas``)."""
        rec = self.records.get(table.id)
        seen = len(rec.senas.seen(table.state, job.seat)) if rec is not None and rec.senas.made \
            and isinstance(table.state, MusState) else 0
        return (job.user_id, table.version, table.status, seen)

    async def _edit_clicked(self, table_id: int, rec: TableRecord, user_id: int, embed: discord.Embed,
                            view: discord.ui.View | None, files: list[discord.File]) -> bool:
        """Show a DM's new content in the DM the player last clicked, if that is still their latest.

        Goes through the click's interaction webhook (outside the global limit). False when there
        is no such DM, the token is too old, or Discord refused: the caller then posts a new DM.
        """
        click = rec.clicks.get(user_id)
        if click is None:
            return False
        loop = asyncio.get_running_loop()
        if click.message_id != self.last_dm.get(user_id) or loop.time() - click.at > TOKEN_LIFE:
            del rec.clicks[user_id]
            return False
        try:
            attach: dict[str, Any] = {"attachments": files} if files else {}
            await click.interaction.edit_original_response(
                embed=embed, view=view, allowed_mentions=NO_MENTIONS, **attach)
        except discord.HTTPException as exc:
            log.info("DM edit for %s at table %s refused (%s): posting a new one", user_id, table_id, exc)
            rec.clicks.pop(user_id, None)
            return False
        return True

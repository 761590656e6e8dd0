"""The players' DMs: their private hands, prompts and reminders, for every table a presenter shows.

Planned in the presenter's listener (who must hear about a change: nothing is built there) and
sent in order by one task per table (``TableRecord.dm_worker``), built from the table as it is when
sent, so several changes for one seat cost one DM. A player's next prompt edits the DM they last
clicked through that click's interaction webhook (outside the global limit) while it is still
their latest DM and the token is fresh, else it is a new DM, and the table's DM before it that still
offered moves is edited to say it is out of date (one DM per table reads as their turn); after a
restart the first new DM also edits the one the process before sent them last. A DM refused as closed
(403 / 50007) marks the seat (the table message says to use **My hand**); a reminder for a player no
DM reaches goes to the channel (``bot.outbox.remind``). The presenter's REST budget orders every
request (turn prompts first).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord

from bot.bounded import keep_latest
from bot.i18n import N_
from bot.outbox.budget import PROMPT, REFRESH
from bot.outbox.files import as_file, playable, render_fn
from bot.outbox.hand import hand_message
from bot.outbox.record import Click, DmJob, TableRecord
from bot.outbox.remind import post_reminder
from bot.outbox.respond import NO_MENTIONS
from bot.outbox.tokens import TOKEN_LIFE
from bot.rules.mus.state import MusState
from bot.tables.model import dm_version_key
from bot.views.alt import hand_alt
from bot.views.display import game_title
from bot.views.locale import dm_tr

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.i18n import Translator
    from bot.outbox.presenter import Presenter
    from bot.outbox.source import TableSource
    from bot.tables.model import Table

log = logging.getLogger(__name__)
DM_CLOSED = 50007
#: Users whose DM channel and latest DM are remembered (per user, not per table): least recent dropped.
USERS_KEEP = 4096
#: The note above the turn in a reminder DM (the deadline itself is the clock line below it).
REMINDER = N_("⏰ **Reminder:** it is still your turn at this table, and your deadline is near.")
#: What a player's previous DM for a table says once a newer one replaced it.
MOVED_ON = N_("This hand is out of date: the table has moved on. Your hand is in a newer message.")
#: A lobby cancelled because Tapis lost its channel (``Presenter._channel_gone``): its players are told
#: by DM, where nothing else would tell them why their seat and buy-in went.
LOBBY_LOST = N_("Table #{id} ({game}) was cancelled before it started: Tapis can no longer reach its "
                "channel. Your buy-in of {buy_in} is back in your wallet.")


def dm_key(user_id: int) -> str:
    """The key under which a table remembers the latest DM sent to ``user_id`` (``extra_messages``)."""
    return f"dm:{user_id}"


class Dms:
    """The presenter's DMs (one per presenter): per-table queues, and per user their DM channel and
    latest DM (at most ``USERS_KEEP`` users each)."""

    def __init__(self, presenter: Presenter, source: TableSource) -> None:
        self.p = presenter
        #: The table service, as far as the outbox may use it (the presenter's ``TableSource``).
        self.tables = source
        self.channels: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id
        self.last_sent: OrderedDict[int, int] = OrderedDict()  # user id -> the latest DM posted to them

    @property
    def bot(self) -> TapisBot:
        return self.p.bot

    def plan(self, table: Table) -> None:
        if table.state is None:
            return
        to_act = set(table.state.to_act())
        rec = self.p.record(table.id)
        seen = rec.seen
        for seat, info in enumerate(table.seats):
            if info.away:  # the AI plays it: once back, the player is prompted afresh
                seen.pop(seat, None)
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
            self.queue(table.id, DmJob(seat, info.user_id))

    def plan_reminders(self, table: Table, events: list[dict[str, Any]]) -> None:
        """One reminder per seat named (a correspondence table's deadline is near): a DM, or a post in
        the table's channel for a player no DM reaches."""
        for event in events:
            for seat in event.get("seats", ()):
                if not (isinstance(seat, int) and 0 <= seat < len(table.seats)):
                    continue
                info = table.seats[seat]
                if info.user_id is None or info.ai or info.away:
                    continue  # closed DMs: the reminder goes to the channel (``bot.outbox.remind``)
                self.queue(table.id, DmJob(seat, info.user_id, remind=True))

    def plan_away(self, table: Table, events: list[dict[str, Any]]) -> None:
        """A seat the AI took after missed deadlines: one DM to its player, saying so and how to come
        back (``bot.outbox.hand.AWAY_NOTE``); their prompt before it would show dead buttons."""
        for event in events:
            seat = event.get("seat")
            if event.get("type") != "away" or event.get("reason") != "timeout" \
                    or not (isinstance(seat, int) and 0 <= seat < len(table.seats)):
                continue
            info = table.seats[seat]
            if info.user_id is not None and info.away and not info.dm_closed:
                self.queue(table.id, DmJob(seat, info.user_id))

    def plan_final(self, table: Table) -> None:
        """The session is over: every seated human's DM shows the final hand and stacks."""
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.dm_closed:
                self.queue(table.id, DmJob(seat, info.user_id))

    def forget_clicks(self, table_id: int) -> None:
        """Drop a closed table's remembered clicks (and with them their interactions)."""
        rec = self.p.records.get(table_id)
        if rec is not None:
            rec.clicks.clear()

    @contextlib.contextmanager
    def answering_in_place(self, table_id: int, seat: int) -> Iterator[None]:
        """While a seat's move is applied, its DM is left to the interaction's response (type 7)."""
        answering = self.p.record(table_id).answering
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
            rec = self.p.records.get(table.id)
            if rec is not None:
                rec.clicks.pop(interaction.user.id, None)
            self.queue(table.id, DmJob(seat, interaction.user.id))  # its worker releases a late record
        elif interaction.guild_id is None:  # their DM shows the table at this version
            self.shows(table, seat, interaction.user.id, table.version)
            rec = self.p.records.get(table.id)
            if rec is not None and message is not None:
                still = table.status == "playing" and table.state is not None and seat in table.state.to_act()
                self._offers(rec, interaction.user.id, message.id, still)
            if table.status == "playing" and message is not None:
                now = asyncio.get_running_loop().time()
                self.p.record(table.id).clicks[interaction.user.id] = Click(interaction, message.id, now)
        channel_id: int | None = getattr(interaction, "channel_id", None)
        if interaction.guild_id is None and channel_id is not None:  # their DM channel: no need to open
            keep_latest(self.channels, interaction.user.id, channel_id, USERS_KEEP)  # it (after a restart)

    def shows(self, table: Table, seat: int, user_id: int, version: int) -> None:
        """``user_id``'s latest DM shows the table at ``version``: noted with the table
        (``dm_version_key``, written with its next change), and written now if it is their turn (their
        prompt), so that a restart after a crash neither loses nor repeats it (``Presenter.prime``)."""
        key = dm_version_key(user_id)
        self.tables.note_message(table.id, key, version)
        if table.status == "playing" and table.version == version and table.state is not None \
                and seat in table.state.to_act():
            self.p.write(self._save_version(table.id, key, version))

    async def _save_version(self, table_id: int, key: str, version: int) -> None:
        table = await self.tables.get(table_id)
        if table is None or table.extra_messages.get(key) != version:
            return  # a newer DM was noted since: its own write (or the next change) stores it
        try:
            await self.tables.set_message(table_id, version, key=key)
        except Exception:
            log.warning("table %s: the version of a prompt was not written", table_id, exc_info=True)

    def queue(self, table_id: int, job: DmJob) -> None:
        """Queue a DM for a seat unless one for it is already waiting (it will show the latest state)."""
        rec = self.p.record(table_id)
        for i, waiting in enumerate(rec.dm_jobs):
            if waiting.seat == job.seat and waiting.user_id == job.user_id:
                if job.remind and not waiting.remind:
                    rec.dm_jobs[i] = job  # the waiting DM goes out as the reminder
                return
        rec.dm_jobs.append(job)
        if rec.dm_worker is None:
            rec.dm_worker = asyncio.get_running_loop().create_task(self._worker(table_id, rec))

    async def _worker(self, table_id: int, rec: TableRecord) -> None:
        try:
            await asyncio.sleep(0)  # let the interaction being answered go first
            while rec.dm_jobs:
                job = rec.dm_jobs.popleft()
                try:
                    await self._send(table_id, rec, job)
                except Exception:
                    log.exception("DM to %s for table %s failed", job.user_id, table_id)
        except asyncio.CancelledError:
            rec.cut = True  # DMs left unsent: the end is not marked shown (``Presenter.release``)
            raise
        finally:
            rec.dm_worker = None
            rec.dm_jobs.clear()
            self.p.release(table_id, rec)

    async def _channel(self, user_id: int, guild_id: int | None) -> discord.abc.Messageable:
        """The user's DM channel, opened once (discord.py keeps only 128 in its own cache); opened
        in ``guild_id``'s turn of the budget (the server of the table it is for)."""
        channel_id = self.channels.get(user_id)
        if channel_id is None:
            await self.p.budget.take(PROMPT, guild_id)
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            channel_id = channel.id
            keep_latest(self.channels, user_id, channel_id, USERS_KEEP)
        else:
            self.channels.move_to_end(user_id)
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send(self, table_id: int, rec: TableRecord, job: DmJob) -> None:
        # closed DMs, or /preferences hands: channel: no DM, but a reminder still reaches them; once
        # the channel is out of reach (its My hand button with it), the DM is the only place left
        table = await self.p.table(table_id)  # an ended table's final DM even once the service let it go
        lost = table is not None and self.p.out_of_reach(table, rec)
        wanted = lost or await self.bot.preferences.hands_by_dm(job.user_id)
        # DMs found closed are tried again by a reminder (at most one request per deadline): a player
        # who opened them again gets their DMs back for the rest of a session that may last days
        by_dm = wanted and (job.remind or job.user_id not in rec.dm_closed)
        if not by_dm and not job.remind:
            return
        if table is None or not table.is_open:
            rec.final = True  # the record goes once this last DM is out
        if table is None or table.state is None or table.seat_of(job.user_id) != job.seat:
            return
        if job.remind and (table.status != "playing" or job.seat not in table.waiting_seats()):
            return  # they moved (or the table ended) before the reminder went out
        if job.remind and not await self.bot.preferences.may_remind(job.user_id):
            return  # /preferences reminders: off
        if job.remind and not by_dm:
            if not self.p.out_of_reach(table, rec):  # a channel out of reach is not asked again
                await post_reminder(self.bot, table, job.user_id, self.p.budget, self.p.channel_turn)
            return
        if not job.remind and rec.dm_shown.get(job.seat) == self.shown_key(table, job):
            return  # their latest DM already shows this very state (it waited its turn: see below)
        shown = self.shown_key(table, job)  # what the DM shows, taken before any await
        embed, view, files = await self._payload(table, job)
        over = table.status != "playing"
        if not job.remind and await self._edit_clicked(table_id, rec, job.user_id, embed, view, files):
            click = rec.clicks.get(job.user_id)
            self._offers(rec, job.user_id, click.message_id if click else None, view is not None)
            rec.dm_shown[job.seat] = shown
            self.shows(table, job.seat, job.user_id, shown[1])
            if over:  # the final state is shown: this click will not be used again
                rec.clicks.pop(job.user_id, None)
            return
        if over:
            rec.clicks.pop(job.user_id, None)
        try:
            dm = await self._channel(job.user_id, table.guild_id)
            await self.p.budget.take(PROMPT, table.guild_id)
            # While it waited for the budget, the table may have moved on (the player's turn came):
            # show the state of now, so one DM does what two would (the later job is then skipped).
            if self.shown_key(table, job) != shown:
                shown = self.shown_key(table, job)
                embed, view, files = await self._payload(table, job)
            kwargs: dict[str, Any] = {"embed": embed, "files": files}
            if view is not None:
                kwargs["view"] = view
            for f in files:
                f.reset()
            sent = await dm.send(**kwargs)
            await self._retire(table, rec, job.user_id, dm, sent.id, offers=view is not None)
            rec.dm_shown[job.seat] = shown
            self.shows(table, job.seat, job.user_id, shown[1])
            keep_latest(self.last_sent, job.user_id, sent.id, USERS_KEEP)
            await self._reopened(table, rec, job)
            await self._supersede(table, rec, job.user_id, dm, sent.id)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", job.user_id, exc)
            rec.dm_closed.add(job.user_id)
            self.p.mark_dirty(table_id)
            await self.tables.set_dm_closed(table_id, job.user_id, True)
            if job.remind and not self.p.out_of_reach(table, rec):  # found closed: to the channel
                await post_reminder(self.bot, table, job.user_id, self.p.budget, self.p.channel_turn)
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", job.user_id, exc)

    async def _reopened(self, table: Table, rec: TableRecord, job: DmJob) -> None:
        """A DM reached a player whose DMs were found closed: they are open again (the table message's
        notice goes, their next prompts are DMs again)."""
        if job.user_id not in rec.dm_closed and not table.seats[job.seat].dm_closed:
            return
        rec.dm_closed.discard(job.user_id)
        self.p.mark_dirty(table.id)
        await self.tables.set_dm_closed(table.id, job.user_id, False)

    async def lobby_lost(self, table: Table, user_ids: list[int]) -> None:
        """Tell each of ``user_ids`` (the lobby's humans) that ``table``'s lobby was cancelled because its
        channel is out of reach, their buy-in refunded (one DM each; closed DMs are only logged)."""
        for user_id in user_ids:
            tr = await dm_tr(self.bot, user_id, table.id)
            text = tr._(LOBBY_LOST, id=table.id, game=game_title(table.game, tr),
                        buy_in=tr.jetons(table.buy_in))
            try:
                dm = await self._channel(user_id, table.guild_id)
                await self.p.budget.take(PROMPT, table.guild_id)
                await dm.send(content=text, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException as exc:
                log.info("table %s: %s was not told of the cancelled lobby (%s)", table.id, user_id, exc)

    async def notice(self, user_id: int, guild_id: int | None, text: str) -> bool:
        """One DM of plain ``text`` to ``user_id`` (a notice no table message shows: a tournament
        whose channel was lost), under the global REST budget in ``guild_id``'s turn. True once it is
        settled: sent, or refused as closed (403: not an error, only logged); False if it failed
        otherwise (logged), so the caller may try again later."""
        try:
            dm = await self._channel(user_id, guild_id)
            await self.p.budget.take(PROMPT, guild_id)
            await dm.send(content=text, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as exc:
            log.info("%s was not told by DM (closed: %s)", user_id, exc)
            return True
        except discord.HTTPException as exc:
            log.warning("%s was not told by DM: %s", user_id, exc)
            return False
        return True

    @staticmethod
    def _offers(rec: TableRecord, user_id: int, message_id: int | None, offers: bool) -> None:
        """The clicked DM ``message_id`` now shows the table as it is: it is ``user_id``'s prompt if it
        ``offers`` moves."""
        if message_id is None:
            return
        if offers:
            rec.prompts[user_id] = message_id
        elif rec.prompts.get(user_id) == message_id:
            del rec.prompts[user_id]

    async def _retire(self, table: Table, rec: TableRecord, user_id: int, dm: discord.abc.Messageable,
                      new_id: int, offers: bool) -> None:
        """A new DM of this table went to ``user_id``: the one before it that still offered moves (their
        turn left unanswered, a timeout played it) is edited to say it is out of date, its buttons
        removed, so that in a DM list of several tables only one message per table reads as waiting for
        them. One low-priority edit, only for a DM that still showed moves."""
        old = rec.prompts.pop(user_id, None)
        if offers:
            rec.prompts[user_id] = new_id
        await self._mark_moved_on(table, user_id, dm, old, new_id, "older prompt")

    @staticmethod
    def moved_on(table: Table, tr: Translator) -> discord.Embed:
        """What an older hand DM of ``table`` shows once a newer one replaced it (``MOVED_ON``)."""
        title = tr._("Your hand — {game} #{id}", game=game_title(table.game, tr), id=table.id)
        return discord.Embed(title=title, description=tr._(MOVED_ON), colour=0x6B7280)

    async def _supersede(self, table: Table, rec: TableRecord, user_id: int, dm: discord.abc.Messageable,
                         new_id: int) -> None:
        """A new DM for this table went to ``user_id``: remember it with the table and, the first time
        after a restart, edit the DM the process before sent them last (its buttons and image
        removed, saying the table moved on), so nobody plays from or reads that old hand.

        The id is written with the table's next change (no commit of its own), so after a crash the
        DM edited may be the one before the last: a best effort, at one request per player and table
        per restart. Within one process, a DM still offering moves is retired by ``_retire``.
        """
        key = dm_key(user_id)
        old = table.extra_messages.get(key)
        self.tables.note_message(table.id, key, new_id)
        if user_id in rec.dms_posted:
            return
        rec.dms_posted.add(user_id)
        await self._mark_moved_on(table, user_id, dm, old, new_id, "previous DM")

    async def _mark_moved_on(self, table: Table, user_id: int, dm: discord.abc.Messageable,
                             old: int | None, new_id: int, what: str) -> None:
        """Edit ``user_id``'s DM ``old`` of ``table`` to say it is out of date (``moved_on``: buttons and
        image removed), at the lowest priority; nothing when there is none other than ``new_id``. A
        refusal is only logged (``what``: which DM it was)."""
        if old is None or old == new_id or not isinstance(dm, discord.PartialMessageable):
            return
        tr = await dm_tr(self.bot, user_id, table.id)
        try:
            await self.p.budget.take(REFRESH, table.guild_id)
            await dm.get_partial_message(old).edit(embed=self.moved_on(table, tr), view=None, attachments=[],
                                                   allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as exc:
            log.info("table %s: the %s of %s was not edited (%s)", table.id, what, user_id, exc)

    async def _payload(self, table: Table, job: DmJob) -> tuple[discord.Embed, discord.ui.View | None,
                                                                   list[discord.File]]:
        """The DM's embed, buttons and hand image for the table as it is now, in the player's language."""
        tr = await dm_tr(self.bot, job.user_id, table.id)
        note = tr._(REMINDER) if job.remind and table.deadline is not None else ""
        embed, view = hand_message(self.bot, table, job.seat, tr, note=note)
        return embed, view, await self.hand_files(table, job.seat, tr, embed)

    async def hand_files(self, table: Table, seat: int, tr: Translator,
                         embed: discord.Embed) -> list[discord.File]:
        """The seat's hand image as it is now (its alt text with it), shown in ``embed``; none without
        images."""
        fn = render_fn("hand_image") if self.p.images else None
        if fn is None or table.state is None:
            return []
        seen = table.state.view(seat)
        lit = playable(table, seat)
        mine = table.status == "playing" and seat in table.state.to_act()  # as shown, before any await
        data = await self.p.image(table.id, seat, fn, table.game, seen, lit, tr)
        if data is None:
            return []
        embed.set_image(url="attachment://hand.png")
        return [as_file(data, "hand.png", hand_alt(table.game, seen, lit, tr, mine))]

    def shown_key(self, table: Table, job: DmJob) -> tuple[int, int, str, int]:
        """What a DM built now would show: whose it is, the table's version and status, and how
        many señas of the current hand its seat saw (``bot.tables.senas``)."""
        seen = len(table.senas.seen(table.state, job.seat)) if table.senas.made \
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
        if click.message_id != self.last_sent.get(user_id) or loop.time() - click.at > TOKEN_LIFE:
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

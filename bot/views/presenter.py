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
else it is a new DM; every other request waits its turn in :class:`RestBudget`, turn prompts
before table refreshes; tables sharing a channel edit one per ``edit_interval`` in that channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any

import discord

from bot.views.budget import PROMPT, REFRESH, RestBudget
from bot.views.components import moves_view, table_view
from bot.views.display import hand_embed, table_embed
from bot.views.respond import maybe

log = logging.getLogger(__name__)
DM_CLOSED = 50007
LOG_KEEP = 12
TOKEN_LIFE = 14 * 60.0  # seconds an interaction token is used for (Discord keeps it 15 minutes)


@dataclass
class Click:
    """A player's latest move click at a table: its interaction can edit the clicked DM for a while."""

    interaction: discord.Interaction
    message_id: int
    at: float


@dataclass
class DmJob:
    """A DM to send: built from the table when it is sent, not when it is planned."""

    seat: int
    user_id: int


class Presenter:
    """Renders table changes to Discord without ever blocking the table service."""

    def __init__(self, bot: Any, edit_interval: float = 1.0, images: bool = True) -> None:
        self.bot = bot
        self.edit_interval = edit_interval
        self.images = images
        self.logs: dict[int, deque[str]] = {}
        self.dirty: set[int] = set()
        self.editors: dict[int, asyncio.Task[None]] = {}
        self.dm_jobs: dict[int, deque[DmJob]] = {}
        self.dm_workers: dict[int, asyncio.Task[None]] = {}
        self.seen: dict[tuple[int, int], tuple[Any, bool]] = {}
        self.dm_closed: set[tuple[int, int]] = set()  # (table id, user id)
        self.rendered: dict[int, str] = {}
        self.shown: dict[int, tuple[Any, ...]] = {}  # table id -> what its message showed (cheap key)
        self.log_serial: dict[int, int] = {}  # table id -> lines narrated so far
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.images_done: dict[tuple[int, int | None], tuple[str, Any]] = {}  # (table, seat) -> (key, image)
        self.budget = RestBudget()
        self.channel_next: dict[int, float] = {}  # channel id -> earliest time of its next table edit
        self.answering: dict[tuple[int, int], int] = {}  # (table, seat) -> moves being answered in place
        self.clicks: dict[tuple[int, int], Click] = {}  # (table, user) -> latest move click in a DM
        self.last_dm: dict[int, int] = {}  # user id -> the latest DM message the bot posted them
        self.closed = False

    # ------------------------------------------------------------------ listener

    async def on_change(self, table: Any, events: list[dict[str, Any]]) -> None:
        """Service listener: note the events, mark the table dirty, queue DMs (never awaits I/O)."""
        if self.closed:
            return
        lines = self.logs.setdefault(table.id, deque(maxlen=LOG_KEEP))
        for event in events or ():
            line = self._narrate(table, event)
            if line:
                lines.append(line)
                self.log_serial[table.id] = self.log_serial.get(table.id, 0) + 1
        self.mark_dirty(table.id)
        if table.state is not None and table.status == "playing":
            self._plan_dms(table)
        elif any(e.get("type") == "table_end" for e in events or ()):
            if table.state is not None and table.status == "finished":
                self._plan_final_dms(table)  # they end with the table's clicks
            else:
                self.forget_clicks(table.id)

    def _narrate(self, table: Any, event: dict[str, Any]) -> str | None:
        try:
            return table.rules.narrate(event, table.name_of)
        except Exception:
            log.warning("narrate failed for %s event %r", table.game, event.get("type"), exc_info=True)
            return None

    def mark_dirty(self, table_id: int) -> None:
        self.dirty.add(table_id)
        if table_id not in self.editors and not self.closed:
            self.editors[table_id] = asyncio.get_running_loop().create_task(self._editor(table_id))

    def _shown_key(self, table: Any) -> tuple[Any, ...]:
        """Everything the table message depends on, cheaply: equal keys mean an identical message."""
        return (table.version, table.status, table.message_id, self.log_serial.get(table.id, 0),
                tuple(self.notices(table)))

    def prime(self, table: Any) -> None:
        """Remember a resumed table's turn state, so a restart does not DM everybody again."""
        if table.state is None:
            return
        to_act = set(table.state.to_act())
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.ai:
                self.seen[(table.id, seat)] = (table.state.view(seat).get("deal"), seat in to_act)

    def pending(self) -> set[asyncio.Task[Any]]:
        return set(self.editors.values()) | set(self.dm_workers.values())

    async def refresh_open_tables(self) -> None:
        """After (re)connecting: refresh every open table's message from the service's state."""
        tables = getattr(self.bot, "resumed_tables", None) or []
        for table in tables:
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

    async def _editor(self, table_id: int) -> None:
        try:
            await asyncio.sleep(0)  # let the interaction being answered go first
            while table_id in self.dirty:
                self.dirty.discard(table_id)
                try:
                    await self.render_table(table_id)
                except Exception:
                    log.exception("could not update the message of table %s", table_id)
                await asyncio.sleep(self.edit_interval)
        finally:
            self.editors.pop(table_id, None)

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

    def notices(self, table: Any) -> list[str]:
        out = []
        for info in table.seats:
            if info.user_id is not None and (info.dm_closed or (table.id, info.user_id) in self.dm_closed):
                out.append(f"📪 {info.name} has closed DMs: use **My hand** on this message.")
        return out

    def table_payload(self, table: Any) -> dict[str, Any]:
        """Embed and components of the table message as it should look now."""
        embed = table_embed(table, self.logs.get(table.id, ()), self.notices(table))
        return {"embed": embed, "view": table_view(table)}

    async def render_table(self, table_id: int) -> None:
        table = await maybe(self.bot.tables.get(table_id))
        if table is None or table.message_id is None:
            return
        if self.shown.get(table_id) == self._shown_key(table):
            return
        await self._channel_turn(table.channel_id)
        await self.budget.take(REFRESH)  # while it waits, the table may move on: render after it
        shown = self._shown_key(table)
        if self.shown.get(table_id) == shown:
            return
        payload = self.table_payload(table)
        view = payload["view"]
        key = json.dumps([payload["embed"].to_dict(), view.to_components() if view else []], sort_keys=True)
        if self.rendered.get(table_id) == key:
            self.shown[table_id] = shown
            return
        files = await self._table_files(table)
        if files:
            payload["embed"].set_image(url=f"attachment://{files[0].filename}")
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message = channel.get_partial_message(table.message_id)
        try:
            await message.edit(embed=payload["embed"], view=view, **({"attachments": files} if files else {}))
        except discord.NotFound:
            log.warning("table %s: its message is gone; posting a new one", table_id)
            new = await channel.send(embed=payload["embed"], view=view, **({"files": files} if files else {}))
            await maybe(self.bot.tables.set_message(table_id, new.id))
        except discord.HTTPException as exc:
            log.warning("table %s: message edit failed: %s", table_id, exc)
            return
        self.rendered[table_id] = key
        self.shown[table_id] = shown

    async def _table_files(self, table: Any) -> list[discord.File]:
        fn = _render_fn("table_image") if self.images else None
        if fn is None or table.state is None:
            return []
        names = [s.name for s in table.seats]
        data = await self._image((table.id, None), fn, table.game, table.state.view(None), names)
        return [_file(data, f"table-{table.id}.png")] if data is not None else []

    async def _image(self, slot: tuple[int, int | None], fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a thread, unless this slot last rendered the very same arguments."""
        key = json.dumps(args, sort_keys=True, default=str)
        done = self.images_done.get(slot)
        if done is not None and done[0] == key:
            return done[1]
        data = await asyncio.to_thread(fn, *args)
        if isinstance(data, (bytes, bytearray)):
            self.images_done[slot] = (key, data)
        return data

    # ------------------------------------------------------------------ DMs

    def _plan_dms(self, table: Any) -> None:
        to_act = set(table.state.to_act())
        for seat, info in enumerate(table.seats):
            if info.user_id is None or info.ai or info.away or info.dm_closed:
                continue
            view = table.state.view(seat)
            now = (view.get("deal"), seat in to_act)
            before = self.seen.get((table.id, seat))
            self.seen[(table.id, seat)] = now
            if before is not None and before[0] == now[0] and (before[1] or not now[1]):
                continue
            if (table.id, seat) in self.answering:  # the interaction's response shows them this state
                continue
            self._queue_dm(table.id, DmJob(seat, info.user_id))

    def _plan_final_dms(self, table: Any) -> None:
        """The session is over: every seated human's DM shows the final hand and stacks."""
        for seat, info in enumerate(table.seats):
            if info.user_id is not None and not info.dm_closed:
                self._queue_dm(table.id, DmJob(seat, info.user_id))

    def forget_clicks(self, table_id: int) -> None:
        """Drop a closed table's remembered clicks (and with them their interactions)."""
        for key in [k for k in self.clicks if k[0] == table_id]:
            del self.clicks[key]

    @contextlib.contextmanager
    def answering_in_place(self, table_id: int, seat: int) -> Any:
        """While a seat's move is applied, its DM is left to the interaction's response (type 7)."""
        key = (table_id, seat)
        self.answering[key] = self.answering.get(key, 0) + 1
        try:
            yield
        finally:
            self.answering[key] -= 1
            if not self.answering[key]:
                del self.answering[key]

    def answered_in_place(self, table: Any, seat: int, interaction: discord.Interaction, shown: bool) -> None:
        """After a move's response: remember the click (for the next prompt), or DM if it failed."""
        message = interaction.message
        key = (table.id, interaction.user.id)
        if not shown:
            self.clicks.pop(key, None)
            self._queue_dm(table.id, DmJob(seat, interaction.user.id))
        elif table.status == "playing" and interaction.guild_id is None and message is not None:
            self.clicks[key] = Click(interaction, message.id, asyncio.get_running_loop().time())

    def _queue_dm(self, table_id: int, job: DmJob) -> None:
        """Queue a DM for a seat unless one for it is already waiting (it will show the latest state)."""
        jobs = self.dm_jobs.setdefault(table_id, deque())
        if any(j.seat == job.seat and j.user_id == job.user_id for j in jobs):
            return
        jobs.append(job)
        if table_id not in self.dm_workers:
            self.dm_workers[table_id] = asyncio.get_running_loop().create_task(self._dm_worker(table_id))

    async def _dm_worker(self, table_id: int) -> None:
        jobs = self.dm_jobs[table_id]
        try:
            await asyncio.sleep(0)  # let the interaction being answered go first
            while jobs:
                job = jobs.popleft()
                try:
                    await self._send_dm(table_id, job)
                except Exception:
                    log.exception("DM to %s for table %s failed", job.user_id, table_id)
        finally:
            self.dm_workers.pop(table_id, None)
            self.dm_jobs.pop(table_id, None)

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel, opened once (discord.py keeps only 128 in its own cache)."""
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            await self.budget.take(PROMPT)
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            self.dm_channels[user_id] = channel_id = channel.id
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    def _dm_content(self, table: Any, job: DmJob) -> tuple[discord.Embed, discord.ui.View | None]:
        from bot.views.handlers import place_names

        guild, channel = place_names(self.bot, table)
        return hand_embed(table, job.seat, guild, channel), moves_view(table, job.seat)

    async def _send_dm(self, table_id: int, job: DmJob) -> None:
        if (table_id, job.user_id) in self.dm_closed:
            return
        table = await maybe(self.bot.tables.get(table_id))
        if table is None or table.state is None or table.seat_of(job.user_id) != job.seat:
            return
        embed, view = self._dm_content(table, job)
        files: list[discord.File] = []
        fn = _render_fn("hand_image") if self.images else None
        if fn is not None:
            data = await self._image((table_id, job.seat), fn, table.game, table.state.view(job.seat))
            if data is not None:
                files.append(_file(data, "hand.png"))
                embed.set_image(url="attachment://hand.png")
        over = table.status != "playing"
        if await self._edit_clicked(table_id, job.user_id, embed, view, files):
            if over:  # the final state is shown: this click will not be used again
                self.clicks.pop((table_id, job.user_id), None)
            return
        if over:
            self.clicks.pop((table_id, job.user_id), None)
        try:
            dm = await self._dm_channel(job.user_id)
            kwargs: dict[str, Any] = {"embed": embed, "files": files}
            if view is not None:
                kwargs["view"] = view
            await self.budget.take(PROMPT)
            for f in files:
                f.reset()
            sent = await dm.send(**kwargs)
            self.last_dm[job.user_id] = sent.id
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", job.user_id, exc)
            self.dm_closed.add((table_id, job.user_id))
            self.mark_dirty(table_id)
            setter = getattr(self.bot.tables, "set_dm_closed", None)
            if setter is not None:
                await setter(table_id, job.user_id, True)
        except discord.HTTPException as exc:
            log.warning("DM to %s failed: %s", job.user_id, exc)

    async def _edit_clicked(self, table_id: int, user_id: int, embed: discord.Embed,
                            view: discord.ui.View | None, files: list[discord.File]) -> bool:
        """Show a DM's new content in the DM the player last clicked, if that is still their latest.

        Goes through the click's interaction webhook (outside the global limit). False when there
        is no such DM, the token is too old, or Discord refused: the caller then posts a new DM.
        """
        click = self.clicks.get((table_id, user_id))
        if click is None:
            return False
        loop = asyncio.get_running_loop()
        if click.message_id != self.last_dm.get(user_id) or loop.time() - click.at > TOKEN_LIFE:
            del self.clicks[(table_id, user_id)]
            return False
        try:
            await click.interaction.edit_original_response(
                embed=embed, view=view, **({"attachments": files} if files else {}))
        except discord.HTTPException as exc:
            log.info("DM edit for %s at table %s refused (%s): posting a new one", user_id, table_id, exc)
            self.clicks.pop((table_id, user_id), None)
            return False
        return True


def _render_fn(name: str) -> Any:
    """``bot.render.<name>`` if the render package offers it (it is optional here)."""
    try:
        import bot.render as render
    except Exception:  # the package may be missing or broken: text embeds still work
        return None
    return getattr(render, name, None)


def _file(data: Any, filename: str) -> discord.File:
    if isinstance(data, (bytes, bytearray)):
        return discord.File(io.BytesIO(data), filename=filename)
    if hasattr(data, "save") and not hasattr(data, "read"):  # a PIL image
        buf = io.BytesIO()
        data.save(buf, format="PNG")
        buf.seek(0)
        return discord.File(buf, filename=filename)
    return discord.File(data, filename=filename)

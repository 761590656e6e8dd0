"""What the outbox keeps about one table it shows: one ``TableRecord`` (its narration, what its
message shows, its editor and DM tasks, the players' clicks…), dropped whole with the table's last
message and DMs (``Presenter._release``)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.tables.reactions import Reactions

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table

#: Narration lines a table message keeps.
LOG_KEEP = 12


@dataclass
class Click:
    """A player's latest move click at a table: its interaction can edit the clicked DM for a while."""

    interaction: discord.Interaction[TapisBot]
    message_id: int
    at: float


@dataclass
class DmJob:
    """A DM to send: built from the table when it is sent, not when it is planned."""

    seat: int
    user_id: int
    #: A reminder before the deadline (``bot.tables.reminders``): always a new DM (it notifies),
    #: with a reminder note above the turn.
    remind: bool = False


def _log() -> deque[str]:
    return deque(maxlen=LOG_KEEP)


def _said() -> deque[dict[str, Any]]:
    return deque(maxlen=LOG_KEEP)


@dataclass(eq=False)
class TableRecord:
    """Everything the presenter keeps about one table; dropped with the table's last message and DMs."""

    #: The narration shown on the table message (its last ``LOG_KEEP`` lines) and how many so far.
    log: deque[str] = field(default_factory=_log)
    log_serial: int = 0
    #: The events behind those lines, one per line, and the language they were told in: a reader of
    #: another language (``/table status``) has them told again in theirs.
    said: deque[dict[str, Any]] = field(default_factory=_said)
    log_lang: str | None = None
    #: The message must be edited; the task editing it (at most once per ``edit_interval``).
    dirty: bool = False
    editor: asyncio.Task[None] | None = None
    #: DMs to send, in order, and the task sending them.
    dm_jobs: deque[DmJob] = field(default_factory=deque)
    dm_worker: asyncio.Task[None] | None = None
    #: Per seat, what its last DM was planned for: (deal, whether the seat was to act).
    seen: dict[int, tuple[Any, bool]] = field(default_factory=dict)
    #: Users whose DMs turned out closed.
    dm_closed: set[int] = field(default_factory=set)
    #: The last message sent (its JSON) and the cheap key of the table it showed (``shown_key``).
    rendered: str | None = None
    shown: tuple[Any, ...] | None = None
    #: Per seat (None: the table image), the last image rendered and its cache key.
    images: dict[int | None, tuple[str, Any]] = field(default_factory=dict)
    #: The table was seen closed: the record goes once its last message and DMs are out.
    final: bool = False
    #: Its editor or DM task was cancelled (a stop, a crash): what it was to show may not be shown.
    cut: bool = False
    #: The channel is gone (deleted or out of reach): no more edits.
    unreachable: bool = False
    #: Per user, their latest move click in a DM (its interaction edits the next prompt).
    clicks: dict[int, Click] = field(default_factory=dict)
    #: Per user, their latest DM of this table that offers moves (or the way back): retired (edited to
    #: say it is out of date) when a newer DM of the table is posted below it (``Dms._retire``).
    prompts: dict[int, int] = field(default_factory=dict)
    #: Per seat, moves being answered in place by the interaction's response.
    answering: dict[int, int] = field(default_factory=dict)
    #: Users this process posted a DM to for this table (``Dms._supersede``).
    dms_posted: set[int] = field(default_factory=set)
    #: The table's thread turned out unusable mid-session: it is played in the channel again (a notice
    #: says so); the thread was archived at the end (``bot.outbox.threads``).
    thread_lost: bool = False
    thread_closed: bool = False
    #: The table status its channel line shows (``bot.outbox.threads.Threads.sync_line``).
    line_status: str | None = None
    #: Per seat, what its player's latest DM shows (``Dms.shown_key``): a job for it is skipped.
    dm_shown: dict[int, tuple[int, int, str, int]] = field(default_factory=dict)
    #: The latest quick reactions, shown on the table message (``bot.tables.reactions``).
    reactions: Reactions = field(default_factory=Reactions)
    #: The table as the service last told the outbox (``Presenter.on_change``): its end is still shown
    #: (final message, final DMs, the thread's line and archiving) when the service no longer holds
    #: it by then (more than ``KEEP_CLOSED`` tables ended meanwhile). Goes with the record.
    table: Table | None = None

    def tasks(self) -> Iterator[asyncio.Task[None]]:
        """The editor and DM tasks running for this table."""
        yield from (t for t in (self.editor, self.dm_worker) if t is not None)

    @property
    def busy(self) -> bool:
        """Something is still to be sent: an edit or a DM."""
        return self.dirty or self.editor is not None or self.dm_worker is not None

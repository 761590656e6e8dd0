"""Play again (issue 28.4): a finished session's players open a new lobby with the same game,
options, seats and pairs, each confirming by a click (their buy-in debited then, with the usual
checks); AI seats come back as they were, paid by the house.

The first player who asks opens the lobby and hosts it; the others' seats are kept for them
(invitations, lapsing with the lobby) and their click sits them in their old seat. The finished
table's row records the lobby (``LobbyPlan.rematch``, in the transaction that opens it), so a
session is played again once, even after a restart; a later click joins that lobby while it is
open and is refused once it started. A lobby cancelled unstarted (it expired, its host left) does
not count: the next click opens a new one.

Opening the lobby is opening a table: the server's settings of today apply (issue 29), through the
Discord layer's check of every new table (``bot.cogs.settings.opening``, the ``admit`` of
:func:`play_again`), asked only of the click that opens it. The options its host chose are
merged again with the server's defaults and ``rated`` of today; the AI seats of a level the server no longer
lets sit are left free (the host may add an AI of an allowed level), and the lobby offers only the
allowed levels. A later click only joins: it is asked nothing more than ``/table join`` is.
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.ai.levels import normalize_level
from bot.rules.base import N_, Game
from bot.store import tables as store
from bot.tables import lobby
from bot.tables.errors import ALREADY_SEATED, TableError, _command, _lazy, unknown_game
from bot.tables.model import SeatInfo, capacity
from bot.tables.seats import LobbyPlan, free_places
from bot.tables.session import Runtime, TableSession

NOT_OVER = N_("This session is not over yet.")

#: One lock per runtime: two first clicks at once open one lobby, not two.
_locks: weakref.WeakKeyDictionary[Runtime, asyncio.Lock] = weakref.WeakKeyDictionary()


@dataclass
class Finished:
    """What Play again needs of a finished table (in memory, or read back from its row)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    raw_options: dict[str, object]
    seats: list[SeatInfo]
    plan: LobbyPlan

    def chosen(self, rules: Game) -> dict[str, Any]:
        """The options to open this table again with, before the server's settings of today are
        merged in: those its host chose (``LobbyPlan.chosen``; for a table opened before they were
        kept, its raw options without ``rated``, which is the server's alone), and its ``players``
        as they were, so that every seat played again has room."""
        kept = self.plan.chosen
        out = dict(kept) if kept is not None else {k: v for k, v in self.raw_options.items() if k != "rated"}
        if any(spec.name == "players" for spec in rules.options):
            out["players"] = capacity(rules, self.raw_options)
        return out


class Terms(NamedTuple):
    """What the server's settings of today make of the lobby Play again opens."""

    options: dict[str, Any]  # its raw options
    ai_levels: tuple[str, ...] | None  # the AI levels that may sit (None: every level)


#: The server's check of a table of this game about to open with these options
#: (:meth:`Finished.chosen`): the new lobby's terms, or a refusal raised (then nothing is opened).
Admit = Callable[[Game, dict[str, Any]], Awaitable[Terms]]


def not_a_player(table_id: int, lobby_id: int | None = None) -> TableError:
    """Only the players of table #12 can play it again; and what a member who did not play may do
    instead: take a free seat at ``lobby_id``, the lobby playing it again, or open a table of their own."""
    lazy = _lazy()
    if lobby_id is not None:
        return TableError(lazy.msg("Only the players of table #{id} can play it again, but its new lobby, "
                                   "table #{lobby}, has a free seat: press **Join** on it to sit down.",
                                   id=table_id, lobby=lobby_id))
    return TableError(lazy.msg("Only the players of table #{id} can play it again. To play, open a table "
                               "of your own with {table_new}.", id=table_id, table_new=_command("table new")))


def open_to_all(rt: Runtime, old: Finished) -> int | None:
    """The lobby playing ``old`` again if anyone may still sit there (not by invitation only, a seat
    neither taken nor kept for an invitee), else None."""
    session = rt.sessions.get(old.plan.rematch) if old.plan.rematch is not None else None
    if session is None:
        return None
    table = session.table
    if table.status != "lobby" or table.plan.invite_only or not free_places(table.plan, table.capacity):
        return None
    return table.id


def already_again(table_id: int) -> TableError:
    """Table #13 already plays this session again."""
    return TableError(_lazy().msg("This session is already played again at table #{id}.", id=table_id))


async def finished(rt: Runtime, table_id: int) -> Finished | None:
    """The finished table ``table_id`` as Play again needs it, or None if there is none."""
    session = rt.find(table_id)
    if session is not None:
        t = session.table
        return Finished(t.id, t.guild_id, t.channel_id, t.game, t.status, dict(t.raw_options),
                        list(t.seats), t.plan.copy())
    row = await rt.db.run(store.load_table, table_id)
    if row is None:
        return None
    seats = [SeatInfo.from_json(info) for info in row.seats]
    return Finished(row.id, row.guild_id, row.channel_id, row.game, row.status, dict(row.raw_options),
                    seats, LobbyPlan.from_json(row.lobby, len(seats)))


async def play_again(rt: Runtime, games: Mapping[str, Game], old: Finished, user_id: int,
                     name: str, admit: Admit) -> tuple[TableSession, bool]:
    """Sit ``user_id`` at the lobby playing ``old`` again, opening it if need be.

    Returns the lobby's session and whether this click opened it. Refused: a session not over,
    someone who was not seated, a second click (already seated), a lobby that already started,
    not enough jetons, and for the click that would open the lobby whatever ``admit`` (the
    server's settings) refuses (nothing changes).
    """
    if old.status != "finished":
        raise TableError(NOT_OVER)
    place = next((i for i, info in enumerate(old.seats) if info.human and info.user_id == user_id), None)
    if place is None:
        raise not_a_player(old.id, open_to_all(rt, old))
    lock = _locks.setdefault(rt, asyncio.Lock())
    async with lock:
        fresh = await finished(rt, old.id)  # a click just before this one may have opened it
        if fresh is not None:
            old.plan = fresh.plan
        if old.plan.rematch is None or await _cancelled(rt, old.plan.rematch):
            return await _open(rt, games, old, user_id, name, place, admit), True
    session = rt.sessions.get(old.plan.rematch)
    if session is None or session.table.status != "lobby":
        raise already_again(old.plan.rematch)
    if session.table.seat_of(user_id) is not None:
        raise TableError(ALREADY_SEATED)
    await lobby.join(session, user_id, name)
    return session, False


async def _cancelled(rt: Runtime, table_id: int) -> bool:
    """Whether the lobby that played a session again was cancelled unstarted (it expired, or its host
    left it): the session may then be played again anew."""
    session = rt.find(table_id)
    if session is not None:
        return session.table.status == "cancelled"
    row = await rt.db.run(store.load_table, table_id)
    return row is None or row.status == "cancelled"


async def _open(rt: Runtime, games: Mapping[str, Game], old: Finished, user_id: int, name: str,
                place: int, admit: Admit) -> TableSession:
    """Open the lobby playing ``old`` again on the terms ``admit`` gives (the caller holds the lock)."""
    rules = games.get(old.game)
    if rules is None:
        raise unknown_game(old.game, ", ".join(sorted(games)))
    chosen = old.chosen(rules)
    terms = await admit(rules, chosen)
    invited = {info.user_id: i for i, info in enumerate(old.seats)
               if info.human and info.user_id is not None and info.user_id != user_id}
    ais = [(i, SeatInfo(None, info.name, ai=True, level=info.level))
           for i, info in enumerate(old.seats) if info.ai and may_sit(info.level, terms.ai_levels)]
    plan = LobbyPlan([place, *(i for i, _ in ais)], invited, old.plan.invite_only, rematch_of=old.id,
                     ai_levels=terms.ai_levels, chosen=chosen)
    marked = old.plan.copy()

    def link(conn: sqlite3.Connection, new_id: int) -> None:
        marked.rematch = new_id
        store.update_table(conn, old.id, rt.clock(), lobby=marked.to_json())

    session = await lobby.create(rt, games, old.guild_id, old.channel_id, user_id, name, old.game,
                                 terms.options, plan=plan, seats=[info for _, info in ais], link=link)
    live = rt.find(old.id)
    if live is not None:
        live.table.plan = marked
    old.plan = marked
    return session


def may_sit(level: int | str, allowed: tuple[str, ...] | None) -> bool:
    """Whether an AI seat of ``level`` (a legacy integer level read as its name) may sit where
    ``allowed`` levels may (None: every level)."""
    if allowed is None:
        return True
    try:
        return normalize_level(level) in allowed
    except ValueError:  # a level this version does not know: not one the server allows
        return False

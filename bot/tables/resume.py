"""Resuming the stored tables at start, and voiding (with refunds) one that cannot be resumed.

Functions of the sessions' ``Runtime`` (``bot.tables.session``) that ``TableService.resume_all``
calls; the replay itself is ``bot.tables.replay``.
Each stored table is rebuilt on its own. One that cannot be (undecodable row, unknown game, a log
that no longer replays) is voided in one transaction: every account gets back what it paid into
the escrow (``settle.void``), with one WARNING. Downtime never counts against a player: a resumed
deadline is ``max(stored, now + resume_grace)`` (a full turn, at most 6 hours; the reminder's lead at
correspondence).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from dataclasses import replace

from bot.rules.base import Game
from bot.store import senas as sena_store
from bot.store import tables as store
from bot.tables import reminders, senas, settle
from bot.tables.length import first_close
from bot.tables.model import FINAL_SHOWN, SeatInfo, Table, capacity, dm_version_key
from bot.tables.pace import Pace, lobby_life, table_pace
from bot.tables.replay import SessionLog, rebuild
from bot.tables.seats import LobbyPlan
from bot.tables.session import KEEP_CLOSED, Runtime, TableSession

log = logging.getLogger(__name__)


async def resume_all(rt: Runtime, games: Mapping[str, Game],
                     shards: tuple[tuple[int, ...], int] | None) -> list[Table]:
    """Rebuild every lobby/playing table from the store (replaying its log) and re-arm timers/AI.

    Each table is resumed on its own: one that cannot be (an undecodable row, an unknown game,
    a log that no longer replays) is voided with every buy-in refunded (``_void``). The sessions
    resumed join ``rt``'s registry.
    """
    rows, bad = await rt.db.run(store.load_open_rows, shards)
    resumed: list[TableSession] = []
    for table_id, reason in bad:
        await _void(rt, table_id, reason)
    for row in rows:
        if rt.find(row.id) is not None:
            continue  # already live: never replayed twice
        try:
            table = await _resume_one(rt, games, row)
        except Exception as exc:
            await _void(rt, row.id, f"{type(exc).__name__}: {exc}")
            continue
        session = rt.sessions[row.id] = TableSession(table, rt)
        resumed.append(session)
    for session in resumed:
        if session.table.deadline is not None:
            rt.timers.set(session, session.table.deadline)
        session.kick()
    log.info("resumed %d table(s)", len(resumed))
    return [session.table for session in resumed]

#: How long after its end a finished table's end is still shown at start if it never was (a day).
SHOW_FINISHED_WITHIN = 24 * 3600.0


async def resume_finished(rt: Runtime, games: Mapping[str, Game],
                          shards: tuple[tuple[int, ...], int] | None) -> list[Table]:
    """Rebuild the tables finished in the last ``SHOW_FINISHED_WITHIN`` seconds whose end the outbox
    never showed (``FINAL_SHOWN`` still 0: the process stopped first); they join ``rt``'s recently
    ended sessions, so the outbox can show their end (``Presenter.refresh_open_tables``).

    Nothing is paid or written here: the session's end committed with its last action. A table
    that cannot be rebuilt is left as it is (one WARNING).
    """
    rows = await rt.db.run(store.load_finished_rows, rt.clock() - SHOW_FINISHED_WITHIN, shards)
    out: list[Table] = []
    for row in rows:
        if row.extra_messages.get(FINAL_SHOWN) != 0 or rt.find(row.id) is not None:
            continue
        try:
            table = await _resume_one(rt, games, replace(row, status="playing"))
        except Exception as exc:
            log.warning("table %s: its end cannot be shown again (%s: %s)", row.id, type(exc).__name__, exc)
            continue
        assert table.state is not None
        table.status, table.deadline = "finished", None
        table.results = settle.session_results(list(table.state.stacks), table.buy_in)[0]
        rt.ended[row.id] = TableSession(table, rt)
        while len(rt.ended) > KEEP_CLOSED:
            rt.ended.popitem(last=False)
        out.append(table)
    if out:
        log.info("%d finished table(s) whose end was not shown yet", len(out))
    return out


async def _resume_one(rt: Runtime, games: Mapping[str, Game], row: store.TableRow) -> Table:
    """The live table of one stored row; raises if it cannot be rebuilt."""
    rules = games.get(row.game)
    if rules is None:
        raise ValueError(f"game {row.game!r} is not available")
    seats = [SeatInfo.from_json(s) for s in row.seats]
    table = Table(
        id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, message_id=row.message_id,
        host_id=row.host_id, game=row.game, rules=rules, options=row.options, seed=row.seed, seats=seats,
        status=row.status, version=row.version, capacity=capacity(rules, row.options),
        extra_messages={k: int(v) for k, v in row.extra_messages.items()}, raw_options=row.raw_options,
        deadline=row.deadline, plan=LobbyPlan.from_json(row.lobby, len(seats)),
    )
    if row.status != "playing":
        if table.deadline is None:  # a lobby stored before lobbies expired
            table.deadline = row.created_at + lobby_life(rt.config, table.options)
        return table
    actions = await rt.db.run(store.load_actions, row.id)
    session = SessionLog.of(rules, row, actions)  # ValueError for a playing table without a seed
    table.options = session.options
    table.state = rebuild(session)
    if len(actions) != row.version:
        log.warning("table %s: row version %s but %s logged actions", row.id, row.version, len(actions))
    table.version = len(actions)
    table.closed_by = first_close((a.seat, a.actor, a.action) for a in actions)
    table.closing = table.closed_by is not None
    hand = senas.hand_now(table)
    if hand is not None:  # the current hand's Mus señas, as stored
        table.senas.restore(table, await rt.db.run(sena_store.load, row.id, *hand))
    if table.waiting_seats():  # downtime never counts against a player: a grace after start at least
        grace = rt.clock() + resume_grace(table_pace(rt.config, table.options))
        table.deadline = grace if table.deadline is None else max(table.deadline, grace)
        reminders.carry(table, row.deadline)
        if table.deadline != row.deadline:  # stored, or the next start moves it (and owes its reminder) again
            if row.deadline is not None and row.deadline <= rt.clock():  # their DM shows a passed deadline:
                # each player to act is DMed again (``Presenter.prime``); an earlier one still to come is
                # left as shown (every restart near a deadline moves it: no DM each time)
                stale = {dm_version_key(table.seats[seat].user_id or 0) for seat in table.waiting_seats()}
                table.extra_messages = {k: v for k, v in table.extra_messages.items() if k not in stale}
            try:  # a fault here must not void a table that replays (the next change writes it)
                await rt.db.transaction(store.update_table, row.id, rt.clock(), deadline=table.deadline,
                                        extra_messages=dict(table.extra_messages))
            except Exception as exc:
                log.warning("table %s: its resumed deadline was not stored (%s: %s)", row.id,
                            type(exc).__name__, exc)
    return table


#: The longest grace after a start at a pace with no reminder (an operator's ``pace_slow`` may last
#: days): as at correspondence, a deploy every few hours must not restart a days-long turn.
MAX_RESUME_GRACE = 6 * 3600.0


def resume_grace(pace: Pace) -> float:
    """The least time a player to act has after a start: a full turn, at most ``MAX_RESUME_GRACE``,
    or at a pace with a reminder (correspondence, whose turns last days) the reminder's lead, so that
    a deploy every few hours does not restart a days-long deadline each time (the table would never
    time out)."""
    if pace.remind_before is None:
        return min(pace.seconds, MAX_RESUME_GRACE)
    return min(pace.seconds, pace.remind_before)


async def _void(rt: Runtime, table_id: int, reason: str) -> None:
    """Cancel a table that cannot be resumed, refunding every seat, in ONE transaction.

    The void rule of the specs (a deal cut mid-way is voided: no jeton moved in it) applied to
    the whole session, since the log no longer tells where the deal began: every account gets
    back what it paid into this table's escrow, read from the ledger (so it works even when the
    seats cannot be decoded). No stats are recorded.
    """
    now = rt.clock()

    def tx(conn: sqlite3.Connection) -> list[tuple[str, int]]:
        refunds = settle.void(conn, table_id, now, rt.grant)
        store.update_table(conn, table_id, now, status="cancelled", deadline=None)
        return refunds

    try:
        refunds = await rt.db.transaction(tx)
    except Exception:
        log.exception("table %s: cannot be resumed (%s) nor voided; left as it is", table_id, reason)
        return
    paid = ", ".join(f"{key} {amount}" for key, amount in refunds) or "nothing held"
    log.warning("table %s: cannot be resumed (%s); cancelled and refunded: %s", table_id,
                reason[:200], paid)

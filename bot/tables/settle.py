"""Jeton movements of a table, as synchronous steps inside the caller's transaction.

Lobby: each seat's buy-in goes wallet → escrow (AI seats: house → escrow) and back on a refund.
Session end: escrow pays each seat its final stack (a human's wallet, even if away; an AI
seat's stack goes to the house), any remainder goes to the house, and the session's history
row, its stats and its rating update are recorded (same transaction). Only a session that
**counts** is rated and goes into ``stats`` (the wins board, the per-game jetons board, the
profile card's figures): one that reached its natural or nominal length (``bot.tables.length``:
not closed early by the host, an admin or because nobody was left) and was not coached (option
``hints`` on: players could ask the strong AI for its move). Every session has its history row,
with ``rated`` saying whether it counted.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from bot.ai.levels import rated as levels_rated
from bot.rules.base import Game
from bot.store import ledger as L
from bot.store.history import record_end_sync
from bot.store.ratings import SeatResult
from bot.store.stats import record_session_sync
from bot.tables.length import close_reason, reached_length
from bot.tables.model import SeatInfo, Table
from bot.tables.replay import CLOSE


def seat_account(table: Table, seat: SeatInfo) -> L.Account:
    """Where a seat's jetons come from and go back to (the house for an AI or a staked seat)."""
    if seat.ai or seat.user_id is None or seat.staked:
        return L.house(table.guild_id)
    return L.wallet(table.guild_id, seat.user_id)


def pay_in(conn: sqlite3.Connection, table: Table, seat: SeatInfo, now: float, grant: int) -> None:
    """Move the buy-in of ``seat`` into the table's escrow (``InsufficientFunds`` if short)."""
    reason = "buy-in (AI seat)" if seat.ai else "buy-in"
    L.transfer_sync(conn, seat_account(table, seat), L.escrow(table.id, table.guild_id), table.buy_in,
                    reason, table.id, now, grant)


def refund(conn: sqlite3.Connection, table: Table, seat: SeatInfo, now: float, grant: int) -> None:
    """Give ``seat`` its buy-in back from escrow."""
    L.transfer_sync(conn, L.escrow(table.id, table.guild_id), seat_account(table, seat), table.buy_in,
                    "refund", table.id, now, grant)


def void(conn: sqlite3.Connection, table_id: int, now: float, grant: int) -> list[tuple[str, int]]:
    """Give every account back what it paid into this table's escrow, from the ledger alone.

    The net of each counterparty (paid in minus paid back) is refunded; anything left (never, if
    the ledger is sound) goes to the guild's house. Returns ``[(account key, amount)]`` refunded.
    """
    esc = L.escrow(table_id)
    row = conn.execute("SELECT guild_id FROM accounts WHERE id = ?", (esc.key,)).fetchone()
    if row is None:
        return []  # nothing was ever paid in
    guild_id = row[0]
    nets: dict[str, int] = {}
    for src, dst, amount in conn.execute(
        "SELECT src, dst, amount FROM ledger WHERE src = ? OR dst = ? ORDER BY id", (esc.key, esc.key)
    ).fetchall():
        if dst == esc.key:
            nets[src] = nets.get(src, 0) + amount
        else:
            nets[dst] = nets.get(dst, 0) - amount
    refunds: list[tuple[str, int]] = []
    for key, amount in nets.items():
        if amount <= 0:
            continue
        sql = "SELECT kind, guild_id, user_id FROM accounts WHERE id = ?"
        kind, g, u = conn.execute(sql, (key,)).fetchone()
        L.transfer_sync(conn, esc, L.Account(kind, g, user_id=u), amount, "void refund", table_id, now, grant)
        refunds.append((key, amount))
    rest = L.balance_sync(conn, esc)
    if rest and guild_id is not None:
        L.transfer_sync(conn, esc, L.house(guild_id), rest, "table remainder", table_id, now, grant)
    return refunds


def session_results(stacks: list[int], buy_in: int) -> tuple[list[int], list[bool]]:
    """Per seat ``stack - buy_in`` and whether the seat won (best result, ties share; not all equal)."""
    results = [s - buy_in for s in stacks]
    best = max(results) if results else 0
    decisive = bool(results) and best > min(results)
    return results, [decisive and r == best for r in results]


def pay_out(
    conn: sqlite3.Connection, table: Table, seats: list[SeatInfo], stacks: list[int], now: float, grant: int,
    end: Mapping[str, Any] | None = None, view: Mapping[str, Any] | None = None,
) -> list[int]:
    """Pay every final stack from escrow, sweep the rest to the house, record the end; return results.

    ``end`` is the engine's ``session_end`` event and ``view`` the final spectator view: with the
    log's first close they tell whether the session counts (``counts``).
    """
    esc = L.escrow(table.id, table.guild_id)
    for seat, stack in zip(seats, stacks, strict=True):
        L.transfer_sync(conn, esc, seat_account(table, seat), stack, "payout", table.id, now, grant)
    rest = L.balance_sync(conn, esc)
    if rest:
        L.transfer_sync(conn, esc, L.house(table.guild_id), rest, "table remainder", table.id, now, grant)
    results, won = session_results(stacks, table.buy_in)
    humans = [
        (s.user_id, r, w)
        for s, r, w in zip(seats, results, won, strict=True)
        if not s.ai and s.user_id is not None
    ]
    rated = counts(table.rules, table.options, len(seats), logged_close_sync(conn, table.id), end, view) \
        and levels_rated(s.level for s in seats if s.ai)
    if rated:
        record_session_sync(conn, table.guild_id, table.game, humans)
    record_end_sync(conn, table_id=table.id, guild_id=table.guild_id, channel_id=table.channel_id,
                    game=table.game, seats=seat_results(seats, results, won), now=now, rated=rated)
    return results


def counts(game: Game, options: Mapping[str, Any], seats: int, close: str | None,
           end: Mapping[str, Any] | None, view: Mapping[str, Any] | None = None) -> bool:
    """Whether a finished session is rated and counts on the boards: not coached (``is_rated``)
    and of its full length (``bot.tables.length.reached_length``, ``close`` the log's first close)."""
    return is_rated(options) and reached_length(game, options, seats, close, end, view)


def is_rated(options: Mapping[str, Any]) -> bool:
    """Whether a session with these options may be rated: not when hints were allowed.

    Issue 17 asks for hints "off by default on rated tables": allowing hints makes a table
    unrated (its history row stays; since issue 26 it is not on the boards either). A table opened
    on a server whose ``/settings`` say sessions are not rated has the hidden option ``rated`` off.
    """
    return not options.get("hints") and options.get("rated", True) is not False


def logged_close_sync(conn: sqlite3.Connection, table_id: int) -> str | None:
    """The first close logged for this table (``bot.tables.length.close_reason``), or None."""
    row = conn.execute("SELECT actor, action FROM actions WHERE table_id = ? AND seat IS NULL "
                       "ORDER BY version LIMIT 1", (table_id,)).fetchone()
    if row is None:
        return None
    action = json.loads(row[1])
    return close_reason(row[0], action) if action.get("type") == CLOSE else None


def seat_results(seats: list[SeatInfo], results: list[int], won: list[bool]) -> list[SeatResult]:
    """The history/rating record of each seat (an AI seat is its level's entry)."""
    return [SeatResult(i, None if s.ai else s.user_id, _level(s.level) if s.ai or s.user_id is None else None,
                       s.name, r, w) for i, (s, r, w) in enumerate(zip(seats, results, won, strict=True))]


def _level(level: int | str) -> str:
    """The AI level's name (legacy integer levels map as ``bot.ai.normalize_level`` does)."""
    from bot.ai import normalize_level

    try:
        return normalize_level(level)
    except ValueError:
        return str(level)

"""Jeton movements of a table, as synchronous steps inside the caller's transaction.

Lobby: each seat's buy-in goes wallet → escrow (AI seats: house → escrow) and back on a refund.
Session end: escrow pays each seat its final stack (a human's wallet, even if away; an AI
seat's stack goes to the house), any remainder goes to the house, and stats are recorded.
"""

from __future__ import annotations

import sqlite3

from bot.store import ledger as L
from bot.store.stats import record_session_sync
from bot.tables.model import SeatInfo, Table


def seat_account(table: Table, seat: SeatInfo) -> L.Account:
    """Where a seat's jetons come from and go back to."""
    if seat.ai or seat.user_id is None:
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


def session_results(stacks: list[int], buy_in: int) -> tuple[list[int], list[bool]]:
    """Per seat ``stack - buy_in`` and whether the seat won (best result, ties share; not all equal)."""
    results = [s - buy_in for s in stacks]
    best = max(results) if results else 0
    decisive = bool(results) and best > min(results)
    return results, [decisive and r == best for r in results]


def pay_out(
    conn: sqlite3.Connection, table: Table, seats: list[SeatInfo], stacks: list[int], now: float, grant: int
) -> list[int]:
    """Pay every final stack from escrow, sweep the rest to the house, record stats; return results."""
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
    record_session_sync(conn, table.guild_id, table.game, humans)
    return results

"""Stored Mus señas (``senas``, migration 0014): the señas of a table's hands, written before they
are shown (``bot.tables.senas``), read back when the table is resumed."""

from __future__ import annotations

import sqlite3


def add(conn: sqlite3.Connection, table_id: int, deal: int, mus_round: int, seat: int, sena: str,
        n: int) -> None:
    """Store ``seat``'s ``sena`` made with the hand (``deal``, ``mus_round``), ``n``-th of that hand."""
    conn.execute("INSERT INTO senas (table_id, deal, mus_round, seat, sena, n) VALUES (?, ?, ?, ?, ?, ?)",
                 (table_id, deal, mus_round, seat, sena, n))


def load(conn: sqlite3.Connection, table_id: int, deal: int, mus_round: int) -> list[tuple[int, str]]:
    """The señas made with the hand (``deal``, ``mus_round``) of ``table_id``: (seat, seña), in order."""
    rows = conn.execute("SELECT seat, sena FROM senas WHERE table_id = ? AND deal = ? AND mus_round = ? "
                        "ORDER BY n", (table_id, deal, mus_round)).fetchall()
    return [(int(r[0]), str(r[1])) for r in rows]

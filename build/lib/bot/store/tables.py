"""Persistence of tables as an event log: the ``tables`` row and its ``actions`` rows.

All writers are synchronous functions of a ``sqlite3.Connection`` inside a transaction (see
``Database.transaction``) so that an action, its ledger effects and the table row commit together.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

OPEN_STATUSES = ("lobby", "playing")


@dataclass
class TableRow:
    """One ``tables`` row, JSON columns decoded."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    extra_messages: dict[str, Any]
    game: str
    options: dict[str, Any]
    raw_options: dict[str, Any]
    seed: int | None
    seats: list[dict[str, Any]]
    host_id: int
    status: str
    version: int
    deadline: float | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class ActionRow:
    """One ``actions`` row: the action applied at ``version`` by ``seat`` (None = system)."""

    version: int
    seat: int | None
    action: dict[str, Any]
    actor: str
    at: float


def dumps(obj: Any) -> str:
    """Canonical JSON for the store."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def insert_table(
    conn: sqlite3.Connection,
    *,
    guild_id: int,
    channel_id: int,
    game: str,
    options: dict[str, Any],
    raw_options: dict[str, Any],
    seats: list[dict[str, Any]],
    host_id: int,
    now: float,
) -> int:
    """Create a lobby row; return its id."""
    cur = conn.execute(
        "INSERT INTO tables (guild_id, channel_id, game, options, raw_options, seats, host_id, status, "
        "version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
        (guild_id, channel_id, game, dumps(options), dumps(raw_options), dumps(seats), host_id, now, now),
    )
    return int(cur.lastrowid)


_UPDATABLE = {"message_id", "extra_messages", "options", "raw_options", "seed", "seats", "host_id", "status",
              "version", "deadline"}
_JSON = {"extra_messages", "options", "raw_options", "seats"}


def update_table(conn: sqlite3.Connection, table_id: int, now: float, **fields: Any) -> None:
    """Update some columns of a table row (JSON columns encoded) and ``updated_at``."""
    bad = set(fields) - _UPDATABLE
    if bad:
        raise ValueError(f"not updatable: {sorted(bad)}")
    cols = [f"{k} = ?" for k in fields] + ["updated_at = ?"]
    values = [dumps(v) if k in _JSON else v for k, v in fields.items()] + [now, table_id]
    conn.execute(f"UPDATE tables SET {', '.join(cols)} WHERE id = ?", values)


def append_action(
    conn: sqlite3.Connection,
    table_id: int,
    version: int,
    seat: int | None,
    action: dict[str, Any],
    actor: str,
    now: float,
) -> None:
    """Append the action applied at ``version``; the primary key refuses a second one."""
    conn.execute(
        "INSERT INTO actions (table_id, version, seat, action, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, version, seat, dumps(action), actor, now),
    )


def _row(r: sqlite3.Row) -> TableRow:
    return TableRow(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], message_id=r["message_id"],
        extra_messages=json.loads(r["extra_messages"]), game=r["game"], options=json.loads(r["options"]),
        raw_options=json.loads(r["raw_options"]),
        seed=r["seed"], seats=json.loads(r["seats"]), host_id=r["host_id"], status=r["status"],
        version=r["version"], deadline=r["deadline"], created_at=r["created_at"], updated_at=r["updated_at"],
    )


def load_table(conn: sqlite3.Connection, table_id: int) -> TableRow | None:
    """The row of one table, or None."""
    conn.row_factory = sqlite3.Row
    r = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return _row(r) if r else None


def load_open_tables(conn: sqlite3.Connection) -> list[TableRow]:
    """Every lobby or playing table, oldest first."""
    conn.row_factory = sqlite3.Row
    rows = conn.execute(
        "SELECT * FROM tables WHERE status IN (?, ?) ORDER BY id", OPEN_STATUSES
    ).fetchall()
    return [_row(r) for r in rows]


def load_actions(conn: sqlite3.Connection, table_id: int) -> list[ActionRow]:
    """The action log of a table, in version order."""
    rows = conn.execute(
        "SELECT version, seat, action, actor, at FROM actions WHERE table_id = ? ORDER BY version",
        (table_id,),
    ).fetchall()
    return [ActionRow(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

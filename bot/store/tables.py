"""Persistence of tables as an event log: the ``tables`` row and its ``actions`` rows.

All writers are synchronous functions of a ``sqlite3.Connection`` inside a transaction (see
``Database.transaction``) so that an action, its ledger effects and the table row commit together.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
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
    #: The lobby's seating (``bot.tables.seats.LobbyPlan`` as JSON; ``{}`` before migration 0008).
    lobby: dict[str, Any] = field(default_factory=dict)


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
    lobby: dict[str, Any] | None = None,
) -> int:
    """Create a lobby row; return its id (``lobby``: its seating, migration 0008; None leaves the
    column's default, so that older schemas take the same call)."""
    cols, values = ["guild_id", "channel_id", "game", "options", "raw_options", "seats", "host_id",
                    "created_at", "updated_at"], [guild_id, channel_id, game, dumps(options),
                                                  dumps(raw_options), dumps(seats), host_id, now, now]
    if lobby is not None:
        cols.append("lobby")
        values.append(dumps(lobby))
    cur = conn.execute(
        f"INSERT INTO tables ({', '.join(cols)}, status, version) VALUES ({', '.join('?' * len(cols))}, "
        "'lobby', 0) RETURNING id", values,
    )
    return int(cur.fetchone()[0])  # RETURNING, not lastrowid: the same on SQLite and PostgreSQL


_UPDATABLE = {"message_id", "extra_messages", "options", "raw_options", "seed", "seats", "host_id", "status",
              "version", "deadline", "lobby"}
_JSON = {"extra_messages", "options", "raw_options", "seats", "lobby"}


def update_columns(conn: sqlite3.Connection, sql_table: str, row_id: int, now: float,
                   fields: dict[str, Any], updatable: AbstractSet[str],
                   json_columns: AbstractSet[str] = frozenset()) -> None:
    """``UPDATE sql_table`` row ``row_id``: the columns ``fields`` names, each one of ``updatable``
    (``ValueError`` otherwise: no column name reaches the SQL unchecked), ``json_columns`` encoded,
    and ``updated_at``."""
    bad = set(fields) - updatable
    if bad:
        raise ValueError(f"not updatable: {sorted(bad)}")
    cols = [f"{k} = ?" for k in fields] + ["updated_at = ?"]
    values = [dumps(v) if k in json_columns else v for k, v in fields.items()] + [now, row_id]
    conn.execute(f"UPDATE {sql_table} SET {', '.join(cols)} WHERE id = ?", values)


def update_table(conn: sqlite3.Connection, table_id: int, now: float, **fields: Any) -> None:
    """Update some columns of a table row (JSON columns encoded) and ``updated_at``."""
    update_columns(conn, "tables", table_id, now, fields, _UPDATABLE, _JSON)


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
        lobby=json.loads(r["lobby"]) if "lobby" in r.keys() else {},
    )


def load_table(conn: sqlite3.Connection, table_id: int) -> TableRow | None:
    """The row of one table, or None."""
    conn.row_factory = sqlite3.Row
    r = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return _row(r) if r else None


def _open_query(shards: tuple[tuple[int, ...], int] | None) -> tuple[str, list[Any]]:
    """The open tables, of the guilds on ``shards = (ids, count)`` only if given (Discord's formula
    ``(guild_id >> 22) % count``, in SQL that SQLite and PostgreSQL read alike)."""
    sql = "SELECT * FROM tables WHERE status IN (?, ?)"
    params: list[Any] = list(OPEN_STATUSES)
    if shards is not None:
        ids, count = shards
        sql += f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
        params += [count, *ids]
    return sql + " ORDER BY id", params


def lock_member(conn: sqlite3.Connection, user_id: int) -> None:
    """PostgreSQL: hold a lock on ``user_id`` until the caller's commit (a one-key advisory lock,
    apart from the shard locks' two-key ones), so the cap checks of a member by several shard
    processes run one after the other, each seeing what the one before committed."""
    conn.execute("SELECT pg_advisory_xact_lock(?)", (int(user_id),))


def open_seats_elsewhere(conn: sqlite3.Connection, user_id: int, shards: tuple[tuple[int, ...], int]) -> int:
    """Open tables of the guilds *not* on ``shards = (ids, count)`` where ``user_id`` plays a seat
    (not one they left, ``away``): the part of a member's open-table cap that other shard processes
    hold."""
    ids, count = shards
    where = f"((guild_id >> 22) % ?) NOT IN ({', '.join('?' * len(ids))})"
    return _seated_count(conn, user_id, where, [count, *ids])


def open_seats_in_other_guilds(conn: sqlite3.Connection, user_id: int, guild_id: int) -> int:
    """Open tables of guilds other than ``guild_id`` where ``user_id`` plays a seat (not one they left,
    ``away``), on every shard: what ``/table mine`` adds to one server's list (the member cap counts
    them)."""
    return _seated_count(conn, user_id, "guild_id <> ?", [guild_id])


def _seated_count(conn: sqlite3.Connection, user_id: int, where: str, params: list[Any]) -> int:
    """Open tables matching ``where`` where ``user_id`` plays a seat they have not left. ``LIKE`` only
    narrows the rows read; each one's seats are then checked exactly."""
    sql = f"SELECT seats FROM tables WHERE status IN (?, ?) AND {where} AND seats LIKE ? ESCAPE '\\'"
    pattern = f'%"user\\_id":{int(user_id)}%'
    found = 0
    for row in conn.execute(sql, [*OPEN_STATUSES, *params, pattern]).fetchall():
        try:
            seats = json.loads(row[0])
        except ValueError:
            continue
        if isinstance(seats, list) and any(isinstance(seat, dict) and seat.get("user_id") == user_id
                                           and not seat.get("away") for seat in seats):
            found += 1
    return found


def load_open_tables(conn: sqlite3.Connection, shards: tuple[tuple[int, ...], int] | None = None
                     ) -> list[TableRow]:
    """Every lobby or playing table, oldest first (of some shards' guilds only: ``_open_query``)."""
    conn.row_factory = sqlite3.Row
    return [_row(r) for r in conn.execute(*_open_query(shards)).fetchall()]


def load_open_rows(conn: sqlite3.Connection, shards: tuple[tuple[int, ...], int] | None = None
                   ) -> tuple[list[TableRow], list[tuple[int, str]]]:
    """Every lobby or playing table, oldest first, each decoded on its own (of some shards' guilds
    only: ``_open_query``).

    Returns ``(rows, bad)``: ``bad`` lists ``(table id, reason)`` for rows that cannot be decoded
    (invalid JSON in a column, a missing value), so one broken row never hides the others.
    """
    conn.row_factory = sqlite3.Row
    raw = conn.execute(*_open_query(shards)).fetchall()
    rows: list[TableRow] = []
    bad: list[tuple[int, str]] = []
    for r in raw:
        try:
            rows.append(_row(r))
        except (ValueError, TypeError, KeyError) as exc:
            bad.append((int(r["id"]), f"undecodable row: {type(exc).__name__}: {exc}"))
    return rows, bad


def load_finished_rows(conn: sqlite3.Connection, since: float,
                       shards: tuple[tuple[int, ...], int] | None = None) -> list[TableRow]:
    """Every table finished (its row last written) at ``since`` or later, oldest first (of some
    shards' guilds only, as ``_open_query``); a row that cannot be decoded is left out."""
    conn.row_factory = sqlite3.Row
    sql = "SELECT * FROM tables WHERE status = ? AND updated_at >= ?"
    params: list[Any] = ["finished", since]
    if shards is not None:
        ids, count = shards
        sql += f" AND ((guild_id >> 22) % ?) IN ({', '.join('?' * len(ids))})"
        params += [count, *ids]
    rows: list[TableRow] = []
    for r in conn.execute(sql + " ORDER BY id", params).fetchall():
        try:
            rows.append(_row(r))
        except (ValueError, TypeError, KeyError):
            continue
    return rows


def load_actions(conn: sqlite3.Connection, table_id: int) -> list[ActionRow]:
    """The action log of a table, in version order."""
    rows = conn.execute(
        "SELECT version, seat, action, actor, at FROM actions WHERE table_id = ? ORDER BY version",
        (table_id,),
    ).fetchall()
    return [ActionRow(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

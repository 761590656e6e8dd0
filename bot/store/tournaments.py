"""Persistence of tournaments (migration 0012): the event row, entrants, members, round tables.

Writers are synchronous functions of a connection inside the caller's transaction (as
``bot.store.tables``), so a member's buy-in and their entry, or a payout and the event's
``settled`` flag, commit together. ``load_open`` rebuilds every event not yet over.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot.store import ledger as L
from bot.store.base import Store
from bot.store.tables import update_columns
from bot.tournaments.model import CANCELLED, FINISHED, LOBBY, RUNNING, Entrant, Member, RoundTable, Tournament


def pool(tournament_id: int, guild_id: int | None = None) -> L.Account:
    """The prize pool of an event: an escrow keyed by the negative event id (never a table's)."""
    return L.Account("escrow", guild_id, table_id=-tournament_id)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def insert(conn: sqlite3.Connection, t: Tournament, now: float) -> int:
    """Create the event row; return its id."""
    cur = conn.execute(
        "INSERT INTO tournaments (guild_id, channel_id, host_id, game, options, format, rounds, buy_in, "
        "round_minutes, starts_at, status, round, round_deadline, seed, settled, language, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, 0, ?, ?, ?) RETURNING id",
        (
            t.guild_id,
            t.channel_id,
            t.host_id,
            t.game,
            _dumps(t.options),
            t.format,
            t.rounds,
            t.buy_in,
            t.round_minutes,
            t.starts_at,
            t.status,
            t.seed,
            t.language,
            now,
            now,
        ),
    )
    return int(cur.fetchone()[0])


_UPDATABLE = {"status", "round", "rounds", "round_deadline", "settled", "reported", "final_reported",
              "channel_lost"}


def update(conn: sqlite3.Connection, tournament_id: int, now: float, **fields: Any) -> None:
    """Update some columns of the event row."""
    update_columns(conn, "tournaments", tournament_id, now, fields, _UPDATABLE)


def mark_settled(conn: sqlite3.Connection, tournament_id: int, status: str, now: float) -> bool:
    """Set ``settled`` (and the final status) once: False if it already was (nothing is paid twice)."""
    cur = conn.execute(
        "UPDATE tournaments SET settled = 1, status = ?, round_deadline = NULL, updated_at = ? "
        "WHERE id = ? AND settled = 0",
        (status, now, tournament_id),
    )
    return cur.rowcount == 1


def insert_entrant(conn: sqlite3.Connection, tournament_id: int, first_round: int, now: float) -> int:
    """A new entrant; return its id."""
    cur = conn.execute(
        "INSERT INTO tournament_entrants (tournament_id, first_round, left_after, created_at) "
        "VALUES (?, ?, NULL, ?) RETURNING id",
        (tournament_id, first_round, now),
    )
    return int(cur.fetchone()[0])


def set_left(conn: sqlite3.Connection, entrant_id: int, left_after: int | None) -> None:
    """Record that an entrant left after round ``left_after``."""
    conn.execute("UPDATE tournament_entrants SET left_after = ? WHERE id = ?", (left_after, entrant_id))


def delete_entrant(conn: sqlite3.Connection, tournament_id: int, entrant_id: int) -> None:
    """Remove an entrant and its members (before the start)."""
    conn.execute(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND entrant_id = ?",
        (tournament_id, entrant_id),
    )
    conn.execute("DELETE FROM tournament_entrants WHERE id = ?", (entrant_id,))


def add_player(
    conn: sqlite3.Connection,
    t: Tournament,
    entrant_id: int,
    user_id: int,
    name: str,
    now: float,
    grant: int,
    partner_id: int | None = None,
) -> None:
    """A member joins an entrant and pays the buy-in into the pool, in the caller's transaction.

    The primary key refuses a member twice in one event; ``InsufficientFunds`` if short.
    """
    conn.execute(
        "INSERT INTO tournament_players (tournament_id, user_id, guild_id, entrant_id, name, paid, prize, "
        "joined_at, partner_id) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (t.id, user_id, t.guild_id, entrant_id, name, t.buy_in, now, partner_id),
    )
    if t.buy_in:
        L.transfer_sync(
            conn,
            L.wallet(t.guild_id, user_id),
            pool(t.id, t.guild_id),
            t.buy_in,
            f"tournament #{t.id} buy-in",
            None,
            now,
            grant,
        )


def _from_pool(conn: sqlite3.Connection, t: Tournament, user_id: int, amount: int, what: str, now: float,
               grant: int) -> None:
    """Move ``amount`` from the event's pool to a member's wallet (a ledger row named ``what``)."""
    L.transfer_sync(conn, pool(t.id, t.guild_id), L.wallet(t.guild_id, user_id), amount,
                    f"tournament #{t.id} {what}", None, now, grant)


def refund_player(conn: sqlite3.Connection, t: Tournament, user_id: int, now: float, grant: int) -> int:
    """Give a member back what they paid into the pool; return the amount."""
    row = conn.execute(
        "SELECT paid FROM tournament_players WHERE tournament_id = ? AND user_id = ?", (t.id, user_id)
    ).fetchone()
    paid = int(row[0]) if row else 0
    if paid:
        _from_pool(conn, t, user_id, paid, "refund", now, grant)
        conn.execute(
            "UPDATE tournament_players SET paid = 0 WHERE tournament_id = ? AND user_id = ?", (t.id, user_id)
        )
    return paid


def pay_prize(
    conn: sqlite3.Connection, t: Tournament, user_id: int, amount: int, now: float, grant: int
) -> None:
    """Pay a member their prize from the pool."""
    if amount:
        _from_pool(conn, t, user_id, amount, "prize", now, grant)
        conn.execute(
            "UPDATE tournament_players SET prize = prize + ? WHERE tournament_id = ? AND user_id = ?",
            (amount, t.id, user_id),
        )


def prizes_sync(conn: sqlite3.Connection, tournament_id: int) -> list[tuple[int, str, int]]:
    """The prizes an event paid: (user id, name, prize) of each member paid, in join order."""
    rows = conn.execute(
        "SELECT user_id, name, prize FROM tournament_players WHERE tournament_id = ? AND prize > 0 "
        "ORDER BY joined_at, user_id",
        (tournament_id,),
    ).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


def pool_balance(conn: sqlite3.Connection, t: Tournament) -> int:
    """What the pool holds now."""
    return L.balance_sync(conn, pool(t.id, t.guild_id))


def sweep_pool(conn: sqlite3.Connection, t: Tournament, now: float, grant: int) -> None:
    """Anything left in the pool (never, if the ledger is sound) goes to the guild's house."""
    rest = pool_balance(conn, t)
    if rest:
        L.transfer_sync(
            conn,
            pool(t.id, t.guild_id),
            L.house(t.guild_id),
            rest,
            f"tournament #{t.id} remainder",
            None,
            now,
            grant,
        )


def save_table(conn: sqlite3.Connection, tournament_id: int, rt: RoundTable) -> None:
    """Insert or update a round table."""
    values = (
        _dumps(rt.entrants),
        rt.table_id,
        rt.status,
        None if rt.results is None else _dumps(rt.results),
        rt.attempts,
    )
    cur = conn.execute(
        "UPDATE tournament_tables SET entrants = ?, table_id = ?, status = ?, results = ?, "
        "attempts = ? WHERE tournament_id = ? AND round = ? AND idx = ?",
        (*values, tournament_id, rt.round, rt.index),
    )
    if cur.rowcount == 0:
        conn.execute(
            "INSERT INTO tournament_tables (entrants, table_id, status, results, attempts, tournament_id, "
            "round, idx) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, tournament_id, rt.round, rt.index),
        )


def _event(r: Any) -> Tournament:
    return Tournament(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        host_id=int(r[3]),
        game=r[4],
        options=json.loads(r[5]),
        format=r[6],
        rounds=int(r[7]),
        buy_in=int(r[8]),
        round_minutes=int(r[9]),
        starts_at=r[10],
        status=r[11],
        round=int(r[12]),
        round_deadline=r[13],
        seed=int(r[14]),
        settled=bool(r[15]),
        created_at=float(r[16]),
        language=str(r[17]),
        reported=int(r[18]),
        final_reported=bool(r[19]),
        channel_lost=bool(r[20]),
    )


_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, options, format, rounds, buy_in, round_minutes, starts_at, "
    "status, round, round_deadline, seed, settled, created_at, language, reported, final_reported, "
    "channel_lost"
)


def load_sync(conn: sqlite3.Connection, tournament_id: int) -> Tournament | None:
    """One event with its entrants and tables, or None."""
    r = conn.execute(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if r is None:
        return None
    t = _event(r)
    members: dict[int, list[Member]] = {}
    for uid, eid, name, mate in conn.execute(
        "SELECT user_id, entrant_id, name, partner_id FROM tournament_players "
        "WHERE tournament_id = ? ORDER BY joined_at, user_id",
        (t.id,),
    ).fetchall():
        members.setdefault(int(eid), []).append(Member(int(uid), name, None if mate is None else int(mate)))
    for eid, first, left in conn.execute(
        "SELECT id, first_round, left_after FROM tournament_entrants WHERE tournament_id = ? ORDER BY id",
        (t.id,),
    ).fetchall():
        t.entrants.append(
            Entrant(int(eid), members.get(int(eid), []), int(first), None if left is None else int(left))
        )
    for rnd, idx, ents, tid, status, results, attempts in conn.execute(
        "SELECT round, idx, entrants, table_id, status, results, attempts FROM tournament_tables "
        "WHERE tournament_id = ? ORDER BY round, idx",
        (t.id,),
    ).fetchall():
        t.tables.append(
            RoundTable(
                int(rnd),
                int(idx),
                list(json.loads(ents)),
                None if tid is None else int(tid),
                status,
                None if results is None else list(json.loads(results)),
                int(attempts),
            )
        )
    return t


def open_ids_sync(conn: sqlite3.Connection) -> list[int]:
    """Ids of the events not over (lobby or running), oldest first."""
    rows = conn.execute("SELECT id FROM tournaments WHERE status IN (?, ?) ORDER BY id", (LOBBY, RUNNING))
    return [int(r[0]) for r in rows.fetchall()]


def unreported_ids_sync(conn: sqlite3.Connection, since: float) -> list[int]:
    """Ids of the events finished since ``since`` whose final standings were not posted, or whose
    entrants were not all told of a lost channel (a crash in between), oldest first."""
    rows = conn.execute(
        "SELECT id FROM tournaments t WHERE status IN (?, ?) AND updated_at >= ? AND ("
        "(status = ? AND final_reported = 0 AND channel_lost = 0) OR (channel_lost = 1 AND EXISTS ("
        "SELECT 1 FROM tournament_players p WHERE p.tournament_id = t.id AND p.told = 0))) ORDER BY id",
        (FINISHED, CANCELLED, since, FINISHED),
    )
    return [int(r[0]) for r in rows.fetchall()]


def untold_sync(conn: sqlite3.Connection, tournament_id: int) -> list[tuple[int, int]]:
    """The members of an event not yet told by DM of its lost channel: (user id, prize paid them)."""
    rows = conn.execute(
        "SELECT user_id, prize FROM tournament_players WHERE tournament_id = ? AND told = 0 "
        "ORDER BY joined_at, user_id",
        (tournament_id,),
    ).fetchall()
    return [(int(r[0]), int(r[1])) for r in rows]


def set_told(conn: sqlite3.Connection, tournament_id: int, user_id: int) -> None:
    """Record that a member was told by DM of the event's lost channel."""
    conn.execute("UPDATE tournament_players SET told = 1 WHERE tournament_id = ? AND user_id = ?",
                 (tournament_id, user_id))


def table_outcome_sync(conn: sqlite3.Connection, table_id: int) -> tuple[str, list[int] | None]:
    """A table's status and, once finished, each seat's result from its history row."""
    row = conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return "cancelled", None
    status = str(row[0])
    if status != "finished":
        return status, None
    seats = conn.execute(
        "SELECT ss.seat, ss.result FROM session_seats ss JOIN sessions s ON s.id = ss.session_id "
        "WHERE s.table_id = ? ORDER BY ss.seat",
        (table_id,),
    ).fetchall()
    return status, [int(r[1]) for r in seats] if seats else None


async def history(
    db: Store, guild_id: int, user_id: int, limit: int = 10
) -> list[tuple[int, str, str, int, int]]:
    """A member's events, newest first: (id, game, status, paid, prize)."""
    rows = await db.fetchall(
        "SELECT t.id, t.game, t.status, p.paid, p.prize FROM tournament_players p "
        "JOIN tournaments t ON t.id = p.tournament_id WHERE p.guild_id = ? AND p.user_id = ? "
        "ORDER BY t.id DESC LIMIT ?",
        (guild_id, user_id, limit),
    )
    return [(int(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4])) for r in rows]

"""Maintenance commands: ``python -m bot admin rebuild-ratings [--config PATH] [--database PATH|URL]``,
``python -m bot admin copy-to-postgres SQLITE_PATH POSTGRES_URL`` (``bot/store/copy.py``: a
club's SQLite database carried over to an empty PostgreSQL database, in one transaction) and
``python -m bot admin backup DEST [--config PATH] [--database PATH]`` (``bot/store/backup.py``: a
consistent copy of the SQLite file, safe while the bot runs).

``rebuild-ratings`` recomputes every rating from the logs: each finished session's final stacks
come from replaying its action log through the engine (``bot.tables.replay.rebuild``), its seats
from the ``tables`` row, and sessions are rated in the order they ended (``sessions.id``, the
order the live updates committed in) within the season recorded when they ended. The result
replaces the ``ratings`` and ``rating_changes`` tables in one transaction.

Finished tables with no ``sessions`` row (sessions that ended before migration 0003) are first
given one, in the order they ended (``updated_at``, then id), in the season that was running
then; so the first rebuild after an upgrade brings the old sessions into history and ratings.
Coached sessions (option ``hints`` on) and sessions closed before their natural or nominal length
(``bot.tables.length``) are replayed and checked but not rated, as live; each session's
``sessions.rated`` is set to what its log says (so sessions closed early before issue 26, rated
then, leave the ratings at the first rebuild; ``stats`` is left as it is).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.rules.base import Game, State
from bot.store.db import INTEGRITY_ERRORS
from bot.tables.length import first_close, session_end

if TYPE_CHECKING:
    from bot.tables.replay import SessionLog


@dataclass(frozen=True)
class RebuildReport:
    sessions: int
    entries: int
    #: Sessions whose replayed results differ from the recorded history (should be none).
    mismatched: tuple[int, ...]
    #: Sessions whose log did not replay (their game is missing or the log is broken); not rated.
    skipped: tuple[int, ...]
    #: Finished tables given their missing ``sessions`` row first (sessions from before 0003).
    backfilled: int = 0
    #: Sessions that do not count (coached, or closed early): checked against their log, never rated.
    unrated: tuple[int, ...] = ()


class SessionEnded(Exception):
    """A session ended while the rebuild was reading the logs (the rebuild starts again)."""


async def rebuild_ratings(db: object, games: Mapping[str, Game] | None = None,
                          attempts: int = 5) -> RebuildReport:
    """Recompute every rating from the action logs (see the module docstring).

    Safe while the bot runs: if a session ends between reading the logs and writing the
    ratings, nothing is written and the rebuild starts again (at most ``attempts`` times).
    """
    for attempt in range(attempts):
        try:
            return await _rebuild_once(db, games)
        except (SessionEnded, *INTEGRITY_ERRORS):
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


async def _rebuild_once(db: object, games: Mapping[str, Game] | None) -> RebuildReport:
    from bot.rules import GAMES
    from bot.store import tables as store
    from bot.store.ratings import apply_session_sync
    from bot.tables.model import SeatInfo
    from bot.tables.replay import SessionLog
    from bot.tables.settle import counts, seat_results, session_results

    games = GAMES if games is None else games
    backfilled = await backfill_sessions(db, games)
    sessions = await db.fetchall(  # type: ignore[attr-defined]
        "SELECT id, table_id, guild_id, game, season FROM sessions ORDER BY id")
    plan = []
    mismatched, skipped, unrated = [], [], []
    for sid, table_id, guild_id, game, season in sessions:
        row = await db.run(store.load_table, table_id)  # type: ignore[attr-defined]
        actions = await db.run(store.load_actions, table_id)  # type: ignore[attr-defined]
        rules = games.get(game)
        if row is None or rules is None or row.seed is None:
            skipped.append(sid)
            continue
        try:
            session = SessionLog.of(rules, row, actions)
            options = session.options
            state, end = replay_to_end(session)
        except Exception:
            skipped.append(sid)
            continue
        seats = [SeatInfo.from_json(s) for s in row.seats]
        results, won = session_results(list(state.stacks), int(options.get("buy_in", 0)))
        seat_rows = seat_results(seats, results, won)
        recorded = await db.fetchall(  # type: ignore[attr-defined]
            "SELECT result FROM session_seats WHERE session_id = ? ORDER BY seat", (sid,))
        if [r[0] for r in recorded] != results:
            mismatched.append(sid)
        close = first_close((a.seat, a.actor, a.action) for a in actions)
        if counts(rules, options, len(row.seats), close, end, state.view(None)):
            plan.append((sid, guild_id, game, season, seat_rows))
        else:
            unrated.append(sid)

    newest = max((row[0] for row in sessions), default=0)

    def tx(conn: sqlite3.Connection) -> int:
        if conn.execute("SELECT COUNT(*) FROM sessions WHERE id > ?", (newest,)).fetchone()[0]:
            raise SessionEnded()
        conn.execute("DELETE FROM rating_changes")
        conn.execute("DELETE FROM ratings")
        for sid in unrated:
            conn.execute("UPDATE sessions SET rated = 0 WHERE id = ?", (sid,))
        for sid, guild_id, game, season, seat_rows in plan:
            conn.execute("UPDATE sessions SET rated = 1 WHERE id = ?", (sid,))
            apply_session_sync(conn, sid, guild_id, game, season, seat_rows)
        return int(conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0])

    entries = await db.transaction(tx)  # type: ignore[attr-defined]
    return RebuildReport(len(plan), entries, tuple(mismatched), tuple(skipped), backfilled, tuple(unrated))


def replay_to_end(log: SessionLog) -> tuple[State, dict[str, Any] | None]:
    """The state after the log and the ``session_end`` event it produced (None if none)."""
    from bot.tables.replay import apply_logged

    state = log.new_state()
    end = None
    for row in log.actions:
        end = session_end(apply_logged(state, row.seat, row.action)) or end
    return state, end


async def backfill_sessions(db: object, games: Mapping[str, Game]) -> int:
    """Give every finished table without a ``sessions`` row one (no rating yet); return how many."""
    from bot.store import tables as store
    from bot.store.history import insert_session_sync
    from bot.tables.model import SeatInfo
    from bot.tables.replay import SessionLog
    from bot.tables.settle import counts, seat_results, session_results

    missing = await db.fetchall(  # type: ignore[attr-defined]
        "SELECT t.id FROM tables t WHERE t.status = 'finished' AND NOT EXISTS "
        "(SELECT 1 FROM sessions s WHERE s.table_id = t.id) ORDER BY t.updated_at, t.id")
    rows = []
    for (table_id,) in missing:
        row = await db.run(store.load_table, table_id)  # type: ignore[attr-defined]
        rules = games.get(row.game) if row is not None else None
        if row is None or rules is None or row.seed is None:
            continue
        try:
            actions = await db.run(store.load_actions, table_id)  # type: ignore[attr-defined]
            session = SessionLog.of(rules, row, actions)
            options = session.options
            state, end = replay_to_end(session)
        except Exception:
            continue
        results, won = session_results(list(state.stacks), int(options.get("buy_in", 0)))
        close = first_close((a.seat, a.actor, a.action) for a in actions)
        rated = counts(rules, options, len(row.seats), close, end, state.view(None))
        rows.append((row, seat_results([SeatInfo.from_json(s) for s in row.seats], results, won), rated))

    def tx(conn: sqlite3.Connection) -> int:
        for row, seats, rated in rows:
            season = conn.execute("SELECT MAX(season) FROM seasons WHERE guild_id = ? AND started_at <= ?",
                                  (row.guild_id, row.updated_at)).fetchone()[0] or 1
            insert_session_sync(conn, table_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id,
                                game=row.game, season=season, seats=seats, ended_at=row.updated_at,
                                rated=rated)
        return len(rows)

    return await db.transaction(tx) if rows else 0  # type: ignore[attr-defined]


async def _run_rebuild(path: str) -> RebuildReport:
    from bot.store.db import Database

    db = await Database.open(path)
    try:
        return await rebuild_ratings(db)
    finally:
        await db.close()


def main(argv: list[str]) -> int:
    """``python -m bot admin <command>``; exit 0 on success, 2 on a usage or config error."""
    parser = argparse.ArgumentParser(prog="python -m bot admin", description="Tapis maintenance commands.")
    sub = parser.add_subparsers(dest="command", required=True)
    rebuild = sub.add_parser("rebuild-ratings", help="recompute every rating from the action logs")
    rebuild.add_argument("--config", metavar="PATH", default=None,
                         help="TOML config file (for the database)")
    rebuild.add_argument("--database", metavar="PATH", default=None,
                         help="SQLite file or postgresql:// URL (overrides the config)")
    copy = sub.add_parser("copy-to-postgres", help="copy a stopped bot's SQLite database into an empty "
                                                    "PostgreSQL database")
    copy.add_argument("sqlite_path", metavar="SQLITE_PATH", help="the bot's SQLite file (the bot stopped)")
    copy.add_argument("postgres_url", metavar="POSTGRES_URL",
                      help="postgresql://user:pw@host:5432/db (an empty database)")
    save = sub.add_parser("backup", help="copy the SQLite database to a new file, safely while the bot "
                                          "runs (SQLite's online backup)")
    save.add_argument("dest", metavar="DEST", help="the backup file to create (never overwritten)")
    save.add_argument("--config", metavar="PATH", default=None, help="TOML config file (for the database)")
    save.add_argument("--database", metavar="PATH", default=None, help="SQLite file (overrides the config)")
    args = parser.parse_args(argv)
    if args.command == "copy-to-postgres":
        return copy_main(args.sqlite_path, args.postgres_url)
    path = args.database
    if path is None:
        from bot.config import ConfigError, load_config

        try:
            path = load_config(args.config).database
        except ConfigError as exc:
            print(f"tapis: bad configuration: {exc}", file=sys.stderr)
            return 2
    if args.command == "backup":
        return backup_main(path, args.dest)
    from bot.store.db import StoreError

    try:
        report = asyncio.run(_run_rebuild(path))
    except StoreError as exc:
        print(f"tapis: {exc}", file=sys.stderr)
        return 2
    text = f"rebuilt {report.entries} rating entries from {report.sessions} sessions"
    if report.backfilled:
        text += f" ({report.backfilled} older session(s) added to the history first)"
    if report.unrated:
        text += f"; {len(report.unrated)} session(s) left unrated (coached, or closed before their length)"
    if report.skipped:
        text += f"; {len(report.skipped)} session(s) did not replay: {list(report.skipped)}"
    if report.mismatched:
        text += f"; {len(report.mismatched)} differ from the recorded results: {list(report.mismatched)}"
    print(text)
    return 1 if report.skipped or report.mismatched else 0


def copy_main(sqlite_path: str, url: str) -> int:
    """``copy-to-postgres``: 0 once committed, 2 if refused before writing, 1 if rolled back."""
    from bot.store.copy import CopyFailed, CopyRefused, copy_to_postgres
    from bot.store.db import is_postgres_url

    if not is_postgres_url(url):
        print(f"tapis: {url!r} is not a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_to_postgres(sqlite_path, url))
    except CopyRefused as exc:
        print(f"tapis: {exc}", file=sys.stderr)
        return 2
    except CopyFailed as exc:
        print(f"tapis: copy rolled back, nothing written: {exc}", file=sys.stderr)
        return 1
    for warning in report.warnings:
        print(f"tapis: warning: {warning}", file=sys.stderr)
    width = max((len(t) for t in report.rows), default=0)
    for table, n in report.rows.items():
        print(f"  {table:<{width}}  {n:>9}")
    print(f"copied {sum(report.rows.values())} rows of {len(report.rows)} tables in {report.seconds:.1f} s; "
          "set database to the PostgreSQL URL and start the bot")
    return 0


def backup_main(database: str, dest: str) -> int:
    """``backup``: 0 once ``dest`` is written and checked, 2 if refused (nothing written)."""
    from bot.store.backup import BackupRefused, backup

    try:
        report = backup(database, dest)
    except BackupRefused as exc:
        print(f"tapis: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {database} (schema version {report.version}) to {report.dest}: "
          f"{report.size:,} bytes in {report.seconds:.1f} s, integrity checked. To restore: stop the "
          "bot, remove the database's -wal and -shm files, put this file in its place")
    return 0

"""Copy a club's SQLite database into an empty PostgreSQL one (``python -m bot admin copy-to-postgres``).

The source is read in one SQLite read transaction (one consistent snapshot); the target is
migrated by the PostgreSQL store's own start-up path (``PgDatabase.connect``), then every table is
copied in foreign-key order inside ONE PostgreSQL transaction, ``COPY`` in batches
(``copy_records_to_table``), its foreign keys dropped for the load and added back after it (which
checks every row in one pass; the source's own ``PRAGMA foreign_key_check`` must be clean first).
Before the COMMIT: the row counts per table, the accounts' sum and
each account's balance against its ledger rows (``RECONCILE_SQL``, the audit's query) must be
what the source has (a source that does not balance is copied as it is, with a warning); every
identity column's sequence is set past its ``max(id)``; and the source must not have changed
meanwhile (``PRAGMA data_version``). Any failure rolls everything back: the target is left as
empty as it was (migrated, no data).

Tables come from the schemas themselves: the source's ``sqlite_master`` and the target's catalogue
after migrating. A source table the target does not have (or with other columns) stops the copy.
Rows the migrations write themselves (``rest_budget``'s row) are replaced by the source's.
``schema_version`` is the target's own bookkeeping (SQLite keeps its version in ``user_version``).

Refusals (``CopyRefused``, one line, exit 2): a missing file or one that is not a Tapis database,
a schema version other than this code's, a target that already holds Tapis data (copy into an empty
database: there is no ``--replace``), a source a running bot has open (detected from the WAL
index's lock, on a local POSIX file system; elsewhere a warning says the bot must be stopped).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from bot.store.ledger import RECONCILE_CHUNK, RECONCILE_SQL
from bot.store.pg import PgDatabase, _safe_url, to_dollar
from bot.store.schema import StoreError, migrations

#: Rows sent per ``COPY`` batch.
BATCH = 20_000
#: The target's bookkeeping table, never copied (SQLite has ``PRAGMA user_version`` instead).
BOOKKEEPING = "schema_version"
#: Byte of the ``-shm`` file every open WAL connection holds a shared lock on (SQLite's "DMS" lock).
SHM_DMS_BYTE = 128


class CopyRefused(Exception):
    """The copy cannot start (bad source, non-empty target, a bot running); one line, exit 2."""


class CopyFailed(Exception):
    """The copy started and was rolled back (a check did not hold, the server refused a row)."""


@dataclass
class CopyReport:
    """What was copied: rows per table (in copy order) and the seconds it took."""

    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


Hook = Callable[[str], Awaitable[None]]


def seeded_rows() -> dict[str, int]:
    """Each Tapis table and the rows the migrations alone leave in it (a fresh, empty club)."""
    from bot.store.db import _migrate

    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        _migrate(conn)
        return {name: int(conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0])
                for name in _sqlite_tables(conn)}
    finally:
        conn.close()


def _sqlite_tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                        "ORDER BY name").fetchall()
    return [str(r[0]) for r in rows]


def in_use(path: str) -> bool | None:
    """True if another process has the SQLite file open in WAL mode (a running bot), False if not,
    None if this cannot be told here (no ``fcntl``).

    Every WAL connection holds a shared lock on one byte of the ``-shm`` file while it is open;
    an exclusive lock on it is granted only when no other process holds it. (POSIX locks belong
    to the process: call this before this process opens the file.)
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return None
    shm = path + "-shm"
    if not os.path.exists(shm):
        return False
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return None
    try:
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, SHM_DMS_BYTE)
        except OSError:
            return True
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, SHM_DMS_BYTE)
        return False
    finally:
        os.close(fd)


def open_source(path: str) -> sqlite3.Connection:
    """The SQLite file, read-only, checked: a Tapis database at this code's schema version."""
    if not os.path.isfile(path):
        raise CopyRefused(f"{path}: no such file")
    try:
        conn = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        raise CopyRefused(f"{path}: cannot be opened ({exc})") from None
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = set(_sqlite_tables(conn))
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise CopyRefused(f"{path}: not an SQLite database ({exc})") from None
    known = len(migrations())
    if version == 0 or not {"accounts", "ledger", "tables"} <= tables:
        conn.close()
        raise CopyRefused(f"{path}: not a Tapis database (no Tapis schema in it)")
    if version != known:
        conn.close()
        hint = ("start this Tapis once on it (it migrates the file at start), stop it, then copy"
                if version < known else "run the newer Tapis that wrote it, or upgrade this one")
        raise CopyRefused(f"{path}: schema version {version}, this Tapis has {known}: {hint}")
    problems = conn.execute("PRAGMA foreign_key_check").fetchall()
    if problems:
        conn.close()
        raise CopyRefused(f"{path}: {len(problems)} row(s) break a foreign key (the first in "
                          f"{problems[0][0]}): PostgreSQL would refuse them")
    return conn


async def _target_data(conn: asyncpg.Connection, seeded: dict[str, int]) -> list[str]:
    """The Tapis tables of the target holding more rows than the migrations write: ``["name: n rows"]``."""
    present = {r["relname"] for r in await conn.fetch(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')")}
    out = []
    for name in sorted(present & set(seeded)):
        n = int(await conn.fetchval(f'SELECT COUNT(*) FROM "{name}"'))
        if n > seeded[name]:
            out.append(f"{name}: {n} rows")
    return out


async def _target_columns(conn: asyncpg.Connection) -> dict[str, dict[str, str]]:
    """The target's tables: ``{table: {column: data_type}}`` (columns in their order)."""
    rows = await conn.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
    out: dict[str, dict[str, str]] = {}
    for r in rows:
        out.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
    return out


async def _copy_order(conn: asyncpg.Connection, tables: list[str]) -> list[str]:
    """``tables`` with every table after the tables its foreign keys reference (the target's keys)."""
    edges = await conn.fetch(
        "SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint c "
        "JOIN pg_class child ON child.oid = c.conrelid JOIN pg_class parent ON parent.oid = c.confrelid "
        "JOIN pg_namespace n ON n.oid = c.connamespace "
        "WHERE c.contype = 'f' AND n.nspname = current_schema()")
    parents: dict[str, set[str]] = {t: set() for t in tables}
    for e in edges:
        if e["child"] in parents and e["parent"] != e["child"]:
            parents[e["child"]].add(e["parent"])
    order: list[str] = []
    done: set[str] = set()
    while len(order) < len(tables):
        ready = [t for t in sorted(tables) if t not in done and parents[t] <= done | {t}]
        if not ready:
            raise CopyFailed(f"foreign keys form a cycle among {sorted(set(tables) - done)}")
        order += ready
        done |= set(ready)
    return order


def _converter(table: str, column: str, pg_type: str) -> Callable[[Any], Any]:
    """A function mapping one SQLite value to what asyncpg's COPY wants for ``pg_type``."""

    def bad(value: Any) -> CopyFailed:
        return CopyFailed(f"{table}.{column}: {value!r} cannot be stored as {pg_type}")

    def integer(v: Any) -> Any:
        if v is None or type(v) is int:
            return v
        if isinstance(v, float) and v.is_integer():
            return int(v)
        raise bad(v)

    def double(v: Any) -> Any:
        if v is None or type(v) is float:
            return v
        if isinstance(v, int):
            return float(v)
        raise bad(v)

    def text(v: Any) -> Any:
        if v is None or type(v) is str:
            return v
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, bytes):
            return v.decode("utf-8")
        raise bad(v)

    def boolean(v: Any) -> Any:
        return v if v is None else bool(v)

    def blob(v: Any) -> Any:
        return v.encode("utf-8") if isinstance(v, str) else v

    if pg_type in ("bigint", "integer", "smallint"):
        return integer
    if pg_type in ("double precision", "real", "numeric"):
        return double
    if pg_type in ("text", "character varying", "character", "json", "jsonb"):
        return text
    if pg_type == "boolean":
        return boolean
    if pg_type == "bytea":
        return blob
    return lambda v: v


def _batches(src: sqlite3.Connection, table: str, columns: list[str],
             convert: list[Callable[[Any], Any]]) -> Iterator[list[tuple[Any, ...]]]:
    names = ", ".join(f'"{c}"' for c in columns)
    cur = src.execute(f'SELECT {names} FROM "{table}"')
    pairs = list(enumerate(convert))
    while True:
        rows = cur.fetchmany(BATCH)
        if not rows:
            return
        yield [tuple(fn(row[i]) for i, fn in pairs) for row in rows]


def _source_ledger(src: sqlite3.Connection) -> tuple[int, list[tuple[Any, ...]]]:
    """The source's accounts sum and its audit mismatches (``RECONCILE_SQL``)."""
    total = int(src.execute("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0])
    ids = [r[0] for r in src.execute("SELECT id FROM accounts ORDER BY id")]
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(ids), RECONCILE_CHUNK):
        part = ids[start:start + RECONCILE_CHUNK]
        sql = RECONCILE_SQL.format(marks=", ".join("?" * len(part)))
        out += [tuple(r) for r in src.execute(sql, part)]
    return total, out


async def _target_ledger(conn: asyncpg.Connection) -> tuple[int, list[tuple[Any, ...]]]:
    """The target's accounts sum and audit mismatches, inside the copy's transaction."""
    total = int(await conn.fetchval("SELECT COALESCE(SUM(balance), 0) FROM accounts"))
    ids = [r[0] for r in await conn.fetch("SELECT id FROM accounts ORDER BY id")]
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(ids), RECONCILE_CHUNK):
        part = ids[start:start + RECONCILE_CHUNK]
        sql = to_dollar(RECONCILE_SQL.format(marks=", ".join("?" * len(part))))
        out += [(r[0], r[1], r[2], r[3], int(r[4]), int(r[5])) for r in await conn.fetch(sql, *part)]
    return total, out


async def _reset_identities(conn: asyncpg.Connection) -> None:
    """Every identity / serial column's sequence set so the next id is ``max(id) + 1``."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')")
    for r in rows:
        table, column = r["table_name"], r["column_name"]
        seq = await conn.fetchval("SELECT pg_get_serial_sequence($1, $2)", f'"{table}"', column)
        if seq is None:
            continue
        top = await conn.fetchval(f'SELECT MAX("{column}") FROM "{table}"')
        await conn.execute("SELECT setval($1::regclass, $2, $3)", seq,
                           int(top) + 1 if top is not None else 1, False)


async def copy_to_postgres(sqlite_path: str, url: str, *, after_table: Hook | None = None) -> CopyReport:
    """Copy the club at ``sqlite_path`` into the empty PostgreSQL database at ``url`` (module docstring).

    ``CopyRefused`` before anything is written; ``CopyFailed`` if the copy was rolled back.
    ``after_table(name)`` is awaited after each table is copied (inside the transaction; tests).
    """
    started = time.monotonic()
    report = CopyReport()
    busy = in_use(sqlite_path) if os.path.isfile(sqlite_path) else False
    if busy:
        raise CopyRefused(f"{sqlite_path}: a running bot has it open; stop the bot, then copy")
    if busy is None:
        report.warnings.append("cannot tell whether a bot has the SQLite file open: it must be stopped")
    src = open_source(sqlite_path)
    try:
        seeded = seeded_rows()
        safe = _safe_url(url)
        try:
            probe = await asyncpg.connect(url, timeout=15)
        except Exception as exc:  # noqa: BLE001 - whatever the cause, the target cannot be used
            raise CopyRefused(f"database {safe}: cannot connect ({' '.join(str(exc).split())})") from None
        try:
            held = await _target_data(probe, seeded)
        finally:
            await probe.close()
        if held:
            raise CopyRefused(f"database {safe} already holds Tapis data ({', '.join(held)}); "
                              "copy into an empty database (a new one, or DROP and CREATE it)")
        try:
            db = await PgDatabase.connect(url, pool_size=1)
        except StoreError as exc:
            raise CopyRefused(str(exc)) from None
        try:
            await _copy(src, db, seeded, report, after_table)
        finally:
            await db.close()
    finally:
        src.close()
    report.seconds = time.monotonic() - started
    return report


async def _copy(src: sqlite3.Connection, db: PgDatabase, seeded: dict[str, int], report: CopyReport,
                after_table: Hook | None) -> None:
    version = src.execute("PRAGMA data_version").fetchone()[0]
    src.execute("BEGIN")  # one snapshot of the source for the whole copy
    try:
        source_tables = _sqlite_tables(src)
        counts = {t: int(src.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0]) for t in source_tables}
        ledger = _source_ledger(src)
        async with db.pool.acquire() as conn:
            try:
                async with conn.transaction():
                    await _copy_tables(src, conn, source_tables, seeded, report, after_table)
                    for table, n in counts.items():
                        got = int(await conn.fetchval(f'SELECT COUNT(*) FROM "{table}"'))
                        if got != n:
                            raise CopyFailed(f"{table}: {got} rows copied, the SQLite file has {n}")
                    target = await _target_ledger(conn)
                    if target != ledger:
                        raise CopyFailed(f"the ledger does not check out as in the SQLite file "
                                         f"(sum {target[0]} vs {ledger[0]}, {len(target[1])} vs "
                                         f"{len(ledger[1])} account(s) off their ledger rows)")
                    if ledger[0] != 0 or ledger[1]:
                        report.warnings.append(
                            f"the SQLite ledger itself does not balance (sum {ledger[0]}, {len(ledger[1])} "
                            "account(s) off their ledger rows): copied as it is; run /admin audit")
                    await _reset_identities(conn)
                    src.execute("COMMIT")
                    if src.execute("PRAGMA data_version").fetchone()[0] != version:
                        raise CopyFailed("the SQLite file changed during the copy (a bot is running on it?): "
                                         "stop the bot and copy again")
            except asyncpg.PostgresError as exc:
                raise CopyFailed(f"PostgreSQL refused the copy ({' '.join(str(exc).split())})") from None
    finally:
        if src.in_transaction:
            src.execute("ROLLBACK")


async def _copy_tables(src: sqlite3.Connection, conn: asyncpg.Connection, source_tables: list[str],
                       seeded: dict[str, int], report: CopyReport, after_table: Hook | None) -> None:
    target = await _target_columns(conn)
    target_tables = [t for t in target if t != BOOKKEEPING]
    unknown = sorted(set(source_tables) - set(target_tables))
    if unknown:
        raise CopyFailed(f"table(s) {unknown} of the SQLite file do not exist in PostgreSQL after migrating: "
                         "this Tapis does not know them; nothing was copied")
    order = await _copy_order(conn, target_tables)
    for table in reversed(order):  # the migrations' own rows (rest_budget) make way for the source's
        if seeded.get(table):
            await conn.execute(f'DELETE FROM "{table}"')
    keys = await _drop_foreign_keys(conn)
    for table in order:
        if table not in source_tables:
            continue
        columns = [str(r[1]) for r in src.execute(f'PRAGMA table_info("{table}")')]
        wanted = target[table]
        if set(columns) != set(wanted):
            raise CopyFailed(f"{table}: columns differ (SQLite {sorted(columns)}, "
                             f"PostgreSQL {sorted(wanted)})")
        convert = [_converter(table, c, wanted[c]) for c in columns]
        n = 0
        for batch in _batches(src, table, columns, convert):
            await conn.copy_records_to_table(table, records=batch, columns=columns)
            n += len(batch)
        report.rows[table] = n
        if after_table is not None:
            await after_table(table)
    for table, name, definition in keys:  # each checked in one pass, in the same transaction
        await conn.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
    for table in order:  # fresh statistics for the checks' queries
        await conn.execute(f'ANALYZE "{table}"')


async def _drop_foreign_keys(conn: asyncpg.Connection) -> list[tuple[str, str, str]]:
    """Drop the target's foreign keys for the load (a check per row is most of a COPY's time);
    ``[(table, name, definition)]`` to add them back, which checks every row at once."""
    rows = await conn.fetch(
        "SELECT cl.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition "
        "FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid "
        "JOIN pg_namespace n ON n.oid = c.connamespace "
        "WHERE c.contype = 'f' AND n.nspname = current_schema() ORDER BY cl.relname, c.conname")
    keys = [(str(r["table"]), str(r["name"]), str(r["definition"])) for r in rows]
    for table, name, _ in keys:
        await conn.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
    return keys

"""``python -m bot admin backup DEST``: a copy of the SQLite file taken while the bot writes to it is
whole (what was committed, a balanced ledger, one self-contained file the bot opens); the refusals."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.config import Config
from bot.maintenance import main as admin_main
from bot.store.db import Database, migrations
from bot.store.ledger import Ledger, wallet

G = 1


async def cli(argv: list[str]) -> int:
    """``python -m bot admin …`` as the operator runs it (its own event loop, in a thread here)."""
    return await asyncio.to_thread(admin_main, argv)


def balances(path: Path) -> tuple[int, int, list[tuple[str, int]]]:
    """Ledger rows, the accounts' sum, and the accounts whose balance its ledger rows do not give."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
        total = conn.execute("SELECT COALESCE(SUM(balance), 0) FROM accounts").fetchone()[0]
        wrong = conn.execute(
            "SELECT a.id, a.balance FROM accounts a WHERE a.balance <> "
            "COALESCE((SELECT SUM(amount) FROM ledger WHERE dst = a.id), 0) - "
            "COALESCE((SELECT SUM(amount) FROM ledger WHERE src = a.id), 0)").fetchall()
    finally:
        conn.close()
    return rows, total, wrong


async def test_backup_while_the_bot_writes(tmp_path: Path, capsys) -> None:
    live = tmp_path / "tapis.db"
    db = await Database.open(str(live))
    ledger = Ledger(db, Config(starting_grant=1000))
    try:
        for user in range(1, 41):
            await ledger.balance(G, user)  # 40 starting grants, committed in the WAL (no checkpoint)
        assert (tmp_path / "tapis.db-wal").stat().st_size > 0
        stop = asyncio.Event()

        async def play() -> None:  # the bot goes on moving jetons during the backup
            n = 0
            while not stop.is_set():
                n += 1
                await ledger.transfer(wallet(G, 1 + n % 40), wallet(G, 1 + (n + 1) % 40), 1, "gift")

        writer = asyncio.create_task(play())
        try:
            code = await cli(["backup", str(tmp_path / "copy.db"), "--database", str(live)])
        finally:
            stop.set()
            await writer
    finally:
        await db.close()
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "copy.db" in out.out and "schema version" in out.out
    copy = tmp_path / "copy.db"
    assert not (tmp_path / "copy.db-wal").exists() and not (tmp_path / "copy.db.part").exists()
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    rows, total, wrong = balances(copy)
    assert rows >= 40 and total == 0 and wrong == []  # every grant, and one snapshot: it balances
    restored = await Database.open(str(copy))  # the bot opens it as it is
    try:
        assert await restored.schema_version() == len(migrations())
    finally:
        await restored.close()


async def test_backup_refusals_one_line_exit_2(tmp_path: Path, capsys) -> None:
    live = tmp_path / "tapis.db"
    db = await Database.open(str(live))
    await db.close()
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"keep me")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database\n" * 100)
    cases = [
        (["backup", str(taken), "--database", str(live)], "already exists"),
        (["backup", str(tmp_path / "x.db"), "--database", str(tmp_path / "none.db")], "no such file"),
        (["backup", str(tmp_path / "nowhere" / "x.db"), "--database", str(live)], "does not exist"),
        (["backup", str(tmp_path / "y.db"), "--database", str(junk)], "junk.db"),
        (["backup", str(tmp_path / "z.db"), "--database", "postgresql://u:pw@h/db"], "pg_dump"),
    ]
    for argv, words in cases:
        assert await cli(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("tapis: ") and words in err[0], (argv, err)
    assert taken.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("tapis.db")) == [
        "junk.db", "taken.db"]

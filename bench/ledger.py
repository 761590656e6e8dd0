"""Ledger throughput: jeton transfers per second through the public ``Ledger.transfer``.

Each transfer is one ``BEGIN IMMEDIATE``; conditional debit; credit; ledger row; ``COMMIT`` with
``synchronous=FULL`` in WAL mode, run in one hop on aiosqlite's thread. Measured sequentially and
with N concurrent tasks sharing the one connection (serialised by the Database lock).

    .venv/bin/python bench/ledger.py [--transfers 5000] [--tasks 50] [--synchronous FULL] [--db PATH]

It also times bare SQLite commits of the same three statements (no aiosqlite, no Python API)
on the same disk: with synchronous=FULL that is the fsync-bound ceiling of one-commit-per-transfer.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.config import Config  # noqa: E402
from bot.store import Database, Ledger  # noqa: E402
from bot.store.ledger import wallet  # noqa: E402

GUILD = 1


async def sequential(ledger: Ledger, n: int) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        await ledger.transfer(wallet(GUILD, i % 10), wallet(GUILD, 10 + i % 10), 1, "bench")
    return n / (time.perf_counter() - t0)


async def concurrent(ledger: Ledger, n: int, tasks: int) -> float:
    per = n // tasks

    async def worker(k: int) -> None:
        for i in range(per):
            await ledger.transfer(wallet(GUILD, 100 + k), wallet(GUILD, 200 + (k + i) % tasks), 1, "bench")

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(tasks)))
    return per * tasks / (time.perf_counter() - t0)


def bare_sqlite(path: str, sync: str, n: int = 500) -> float:
    """Commits/s of debit + credit + ledger insert with plain sqlite3: the disk's ceiling."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={sync}")
    conn.execute("CREATE TABLE a (id TEXT PRIMARY KEY, balance INTEGER)")
    conn.execute("CREATE TABLE l (id INTEGER PRIMARY KEY, src, dst, amount, reason, at)")
    conn.execute("INSERT INTO a VALUES ('x', 1000000), ('y', 0)")
    t0 = time.perf_counter()
    for _ in range(n):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE a SET balance = balance - 1 WHERE id = 'x' AND balance >= 1")
        conn.execute("UPDATE a SET balance = balance + 1 WHERE id = 'y'")
        conn.execute("INSERT INTO l (src, dst, amount, reason, at) VALUES ('x', 'y', 1, 'b', 0)")
        conn.execute("COMMIT")
    rate = n / (time.perf_counter() - t0)
    conn.close()
    return rate


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--transfers", type=int, default=5000)
    ap.add_argument("--tasks", type=int, default=50)
    ap.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"],
                    help="FULL is what the bot uses; NORMAL shows the cost without an fsync per commit")
    ap.add_argument("--db", default=None, help="database file (default: a temporary file)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.db or os.path.join(tmp, "bench.db")
        db = await Database.open(path)
        ledger = Ledger(db, Config(starting_grant=1_000_000))
        if args.synchronous != "FULL":
            await db.run(lambda c: c.execute(f"PRAGMA synchronous={args.synchronous}"))
        try:
            for u in range(300):  # create the wallets first (the grant is not what we measure)
                await ledger.balance(GUILD, u)
            sync = (await db.fetchone("PRAGMA synchronous"))[0]
            mode = (await db.fetchone("PRAGMA journal_mode"))[0]
            seq = await sequential(ledger, args.transfers)
            con = await concurrent(ledger, args.transfers, args.tasks)
            assert await ledger.accounts_total() == 0
        finally:
            await db.close()
        bare = bare_sqlite(os.path.join(tmp, "bare.db"), args.synchronous)
    loop = time.perf_counter()
    for _ in range(10**7):
        pass
    loop = time.perf_counter() - loop
    print(f"command: python bench/ledger.py --transfers {args.transfers} --tasks {args.tasks} "
          f"--synchronous {args.synchronous}")
    print(f"journal_mode={mode} synchronous={ {2: 'FULL', 1: 'NORMAL'}.get(sync, sync)}; "
          f"machine: 10^7 empty loop = {loop * 1000:.0f} ms")
    print(f"sequential:            {seq:8,.0f} transfers/s")
    print(f"{args.tasks} concurrent tasks:   {con:8,.0f} transfers/s  (group commit: one COMMIT for many)")
    print(f"bare sqlite3 ceiling:  {bare:8,.0f} commits/s  (one commit per transfer, same disk)")
    print("sum of all accounts: 0")


if __name__ == "__main__":
    asyncio.run(main())

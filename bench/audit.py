"""``/admin audit`` on a big server: how long it takes, and how long it holds the one connection.

Builds a SQLite file with one guild of ``--accounts`` wallets (plus the house) and ``--rows``
ledger rows (each a real pair of balance changes), then runs ``Ledger.reconcile`` and times each
of its statements (the longest is how long other tables' writes may wait behind the audit), and
the transfers other tasks complete meanwhile.

    python bench/audit.py [--accounts 20000] [--rows 1000000] [--chunk 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.config import Config  # noqa: E402
from bot.store import Database, Ledger  # noqa: E402
from bot.store.ledger import RECONCILE_CHUNK, wallet  # noqa: E402

GUILD = 1


def build(path: str, accounts: int, rows: int, seed: int = 1) -> None:
    """A guild whose house granted every wallet 1,000, then ``rows`` random wallet-to-wallet moves."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    keys = [wallet(GUILD, uid).key for uid in range(1, accounts + 1)]
    balance = dict.fromkeys(keys, 1000)
    ledger = [("house:1", k, 1000, "starting grant", None, 0.0) for k in keys]
    for _ in range(rows - accounts):
        src, dst = rng.sample(keys, 2)
        amount = rng.randint(1, 5)
        if balance[src] >= amount:
            balance[src] -= amount
            balance[dst] += amount
            ledger.append((src, dst, amount, "bench", None, 0.0))
    conn.execute("INSERT INTO accounts (id, kind, guild_id, balance, created_at) VALUES "
                 "('house:1', 'house', 1, ?, 0)", (-1000 * accounts,))
    conn.executemany("INSERT INTO accounts (id, kind, guild_id, user_id, balance, created_at) "
                     "VALUES (?, 'wallet', 1, ?, ?, 0)",
                     [(k, i + 1, balance[k]) for i, k in enumerate(keys)])
    conn.executemany("INSERT INTO ledger (src, dst, amount, reason, table_id, at) VALUES (?, ?, ?, ?, ?, ?)",
                     ledger)
    conn.commit()
    conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accounts", type=int, default=20_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=RECONCILE_CHUNK)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "audit.db")
        db = await Database.open(path)  # the schema
        await db.close()
        t0 = time.perf_counter()
        build(path, args.accounts, args.rows)
        built = time.perf_counter() - t0
        print(f"built {args.accounts:,} wallets and {args.rows:,} ledger rows in {built:.1f} s")
        db = await Database.open(path)
        ledger = Ledger(db, Config())
        statements: list[float] = []
        fetchall = db.fetchall

        async def timed(sql: str, params: tuple = ()) -> list[sqlite3.Row]:  # type: ignore[type-arg]
            start = time.perf_counter()
            try:
                return await fetchall(sql, params)
            finally:
                statements.append(time.perf_counter() - start)

        db.fetchall = timed  # type: ignore[method-assign]
        stop = asyncio.Event()
        waits: list[float] = []

        async def other_table() -> None:  # a table's payouts meanwhile: how long each waits
            while not stop.is_set():
                start = time.perf_counter()
                await ledger.transfer(wallet(GUILD, 1), wallet(GUILD, 2), 1, "meanwhile")
                waits.append(time.perf_counter() - start)
                await asyncio.sleep(0.01)

        other = asyncio.create_task(other_table())
        t0 = time.perf_counter()
        checked, mismatches = await ledger.reconcile(GUILD, chunk=args.chunk)
        took = time.perf_counter() - t0
        stop.set()
        await other
        await db.close()
    statements.sort()
    waits.sort()
    print(f"reconcile: {checked:,} accounts, {len(mismatches)} mismatches, {took:.2f} s in "
          f"{len(statements)} statements (chunk {args.chunk}); longest statement "
          f"{statements[-1] * 1000:.0f} ms, median {statements[len(statements) // 2] * 1000:.1f} ms")
    print(f"meanwhile {len(waits)} transfers of another table: p50 {waits[len(waits) // 2] * 1000:.1f} ms, "
          f"max {waits[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main())

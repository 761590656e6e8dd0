"""Ledger throughput: jeton transfers per second through the public ``Ledger.transfer``.

Each transfer is one ``BEGIN IMMEDIATE``; conditional debit; credit; ledger row; ``COMMIT`` with
``synchronous=FULL`` in WAL mode, run in one hop on aiosqlite's thread. Measured sequentially and
with N concurrent tasks sharing the one connection (serialised by the Database lock).

    .venv/bin/python bench/ledger.py [--transfers 5000] [--tasks 50] [--synchronous FULL]
                                     [--database PATH | postgresql://…] [--processes N]

On PostgreSQL each transfer is one ``BEGIN … COMMIT`` on a pooled asyncpg connection (concurrent
tasks use up to the pool's connections at once; PostgreSQL groups their WAL flushes itself). With
``--processes N``, N processes transfer at once on the same database, each in its own guild.

It also times bare SQLite commits of the same three statements (no aiosqlite, no Python API)
on the same disk: with synchronous=FULL that is the fsync-bound ceiling of one-commit-per-transfer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.config import Config  # noqa: E402
from bot.store import Database, Ledger  # noqa: E402
from bot.store.ledger import wallet  # noqa: E402
from bot.store.pg import POOL_SIZE  # noqa: E402

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


async def measure(target: str, transfers: int, tasks: int, synchronous: str, guild: int,
                  ready: asyncio.Event | None = None) -> dict[str, object]:
    """Open the store at ``target``, create the wallets, then time both phases in ``guild``."""
    global GUILD
    GUILD = guild
    db = await Database.open(target)
    ledger = Ledger(db, Config(starting_grant=1_000_000))
    if db.dialect == "sqlite" and synchronous != "FULL":
        await db.run(lambda c: c.execute(f"PRAGMA synchronous={synchronous}"))
    try:
        for u in range(300):  # create the wallets first (the grant is not what we measure)
            await ledger.balance(GUILD, u)
        if db.dialect == "sqlite":
            sync = (await db.fetchone("PRAGMA synchronous"))[0]
            mode = (await db.fetchone("PRAGMA journal_mode"))[0]
            setting = f"journal_mode={mode} synchronous={ {2: 'FULL', 1: 'NORMAL'}.get(sync, sync)}"
        else:
            row = await db.fetchone("SELECT current_setting('synchronous_commit'), current_setting('fsync'), "
                                    "version()")
            setting = f"PostgreSQL synchronous_commit={row[0]} fsync={row[1]} ({row[2].split(' on ')[0]})"
        if ready is not None:
            await ready.wait()
        seq = await sequential(ledger, transfers)
        con = await concurrent(ledger, transfers, tasks)
        assert await ledger.accounts_total(GUILD) == 0
    finally:
        await db.close()
    return {"seq": seq, "con": con, "setting": setting, "dialect": db.dialect}


async def worker_process(target: str, transfers: int, tasks: int, guild: int) -> None:
    """``--worker``: measure in one guild after the parent says go (a line on stdin); JSON out."""
    import json

    ready = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def go() -> None:
        print("ready", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        ready.set()

    waiter = asyncio.create_task(go())
    result = await measure(target, transfers, tasks, "FULL", guild, ready)
    await waiter
    print(json.dumps(result), flush=True)


async def several(target: str, transfers: int, tasks: int, processes: int) -> list[dict[str, object]]:
    """Run ``processes`` worker processes on one database at once, one guild each."""
    import json

    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", str(2 + k), "--database", target, "--transfers", str(transfers),
        "--tasks", str(tasks), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        for k in range(processes)]
    for p in procs:
        assert (await p.stdout.readline()).decode().strip() == "ready"  # type: ignore[union-attr]
    for p in procs:
        p.stdin.write(b"go\n")  # type: ignore[union-attr]
        await p.stdin.drain()  # type: ignore[union-attr]
    out = [json.loads((await p.stdout.readline()).decode()) for p in procs]  # type: ignore[union-attr]
    for p in procs:
        await p.wait()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--transfers", type=int, default=5000)
    ap.add_argument("--tasks", type=int, default=50)
    ap.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"],
                    help="FULL is what the bot uses; NORMAL shows the cost without an fsync per commit")
    ap.add_argument("--database", "--db", dest="database", default=None,
                    help="SQLite file (default: a temporary one) or postgresql:// URL (a fresh schema in it)")
    ap.add_argument("--processes", type=int, default=1,
                    help="processes transferring at once on the one database, each in its own guild")
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        await worker_process(args.database, args.transfers, args.tasks, args.worker)
        return
    pg = bool(args.database) and args.database.startswith(("postgresql://", "postgres://"))
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        target = args.database or os.path.join(tmp, "bench.db")
        if pg:
            from tests.backends import fresh_pg

            target = await stack.enter_async_context(fresh_pg(args.database))
        if args.processes > 1:
            await measure(target, 1, 1, args.synchronous, 1)  # migrate once before the workers start
            results = await several(target, args.transfers, args.tasks, args.processes)
        else:
            results = [await measure(target, args.transfers, args.tasks, args.synchronous, GUILD)]
        db = await Database.open(target)
        try:
            total = await Ledger(db, Config()).accounts_total()
        finally:
            await db.close()
        bare = None if pg else bare_sqlite(os.path.join(tmp, "bare.db"), args.synchronous)
    assert total == 0, total
    loop = time.perf_counter()
    for _ in range(10**7):
        pass
    loop = time.perf_counter() - loop
    where = " --database postgresql://…" if pg else ""
    many = f" --processes {args.processes}" if args.processes > 1 else ""
    print(f"command: python bench/ledger.py --transfers {args.transfers} --tasks {args.tasks} "
          f"--synchronous {args.synchronous}{where}{many}")
    print(f"{results[0]['setting']}; machine: 10^7 empty loop = {loop * 1000:.0f} ms")
    each = " + ".join(f"{r['seq']:,.0f}" for r in results)
    seq = sum(float(r["seq"]) for r in results)  # type: ignore[arg-type]
    con = sum(float(r["con"]) for r in results)  # type: ignore[arg-type]
    label = f" ({args.processes} processes at once: {each})" if len(results) > 1 else ""
    print(f"sequential:            {seq:8,.0f} transfers/s{label}")
    how = "group commit: one COMMIT for many" if not pg else f"pool of {POOL_SIZE} connections"
    print(f"{args.tasks} concurrent tasks:   {con:8,.0f} transfers/s  ({how}"
          f"{', per process, summed' if len(results) > 1 else ''})")
    if bare is not None:
        print(f"bare sqlite3 ceiling:  {bare:8,.0f} commits/s  (one commit per transfer, same disk)")
    print("sum of all accounts: 0")


if __name__ == "__main__":
    asyncio.run(main())

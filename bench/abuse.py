"""Abuse benchmark: many tables of strong AI nobody watches, and one member asking /balance.

The scene of issue 13: hosts open tables of strong AI, start them and leave. ``--tables`` tables
(Michigan with ``rotations=0`` by default: no natural end) are opened through the stand-in over
two guilds (so the default per-guild cap holds), each with one host and three "Add strong AI"
seats; the host makes sure the first deal is under way (plays a move if it is theirs), then
leaves. With no human present, every session closes at the end of its current deal, so the
measurement runs while they are still playing. Meanwhile one member runs ``/balance`` every
``--every`` seconds. Reported: ``/balance`` latency (INTERACTION_CREATE sent -> callback
received, in the stand-in), the bot's event-loop lag (a 50 ms sleeper, in the bot process), the
AI moves committed and the tables still playing at the end.

Two processes on 127.0.0.1, as in ``bench/latency.py`` (whose ``BotProcess`` and ``pct`` this
reuses): this one runs the stand-in and the members, a child runs only the bot.

    python bench/abuse.py [--tables 80] [--duration 60] [--every 0.5] [--ai-workers 1]
                          [--ai-kind process|thread] [--no-images]

``--ai-kind thread --ai-workers 6`` approximates the bot before issue 13 (searches on the
default executor's 6 threads of a 2-core machine, all tables searching at once).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import READY_TIMEOUT, BotProcess, pct  # noqa: E402
from tests.discord_stub import Channel, DiscordStub, User  # noqa: E402
from tests.discord_stub.play import click_control, move_controls  # noqa: E402

LAG_PERIOD = 0.05
VERSION = re.compile(r"version (\d+)")


# ====================================================================== bot process

async def serve_bot(port: int, db_path: str, args: argparse.Namespace) -> None:
    """Child process: the bot alone with production timings; driven by stdin lines."""
    import discord
    import yarl

    from bot.config import Config
    from bot.tables.ai_pool import AiPool
    from tests.discord_stub.tapis import TapisRun

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    config = Config(starting_grant=100_000, ai_delay=args.ai_delay, turn_timeout=120.0,
                    ai_workers=args.ai_workers)
    run = TapisRun(None, Path(db_path), config=config, edit_interval=1.0, images=args.images)  # type: ignore
    await run.start()
    run.tables.ai.close()
    run.tables.ai = AiPool(args.ai_workers, kind=args.ai_kind)
    lags: list[float] = []
    loop = asyncio.get_running_loop()

    async def lag_monitor() -> None:
        while True:
            t = loop.time()
            await asyncio.sleep(LAG_PERIOD)
            lags.append(loop.time() - t - LAG_PERIOD)

    monitor = loop.create_task(lag_monitor())
    print("ready", flush=True)
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        if line == "start":
            lags.clear()
        playing = [t for t in run.tables.tables.values() if t.status == "playing"]
        workers = run.tables.ai.worker_pids()
        print(json.dumps({"cpu": time.process_time(), "ai_cpu": sum(map(proc_cpu, workers)), "lag": lags,
                          "playing": len(playing),
                          "versions": sum(t.version for t in run.tables.tables.values())}), flush=True)
    monitor.cancel()
    await run.bot.close()  # type: ignore[union-attr]
    await run.tables.close()
    if run.db is not None:
        await run.db.close()


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux /proc), 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def spawn(port: int, db_path: Path, args: argparse.Namespace) -> BotProcess:
    argv = [sys.executable, __file__, "--serve-bot", str(port), "--db", str(db_path),
            "--ai-workers", str(args.ai_workers), "--ai-kind", args.ai_kind, "--ai-delay", str(args.ai_delay)]
    argv += [] if args.images else ["--no-images"]
    proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)
    bot = BotProcess(proc)
    line = await asyncio.wait_for(bot.readline(), READY_TIMEOUT)
    if line != "ready":
        raise RuntimeError(f"the bot process did not start (said {line!r})")
    return bot


# ====================================================================== members

def table_version(stub: DiscordStub, channel: Channel) -> int:
    """The version shown in the footer of the channel's latest table message (-1 if none)."""
    for message in reversed(stub.messages(channel)):
        for embed in message.embeds:
            found = VERSION.search((embed.get("footer") or {}).get("text", ""))
            if found:
                return int(found.group(1))
    return -1


async def abandon_table(stub: DiscordStub, channel: Channel, host: User, args: argparse.Namespace,
                        rng: random.Random) -> int:
    """Open a table of strong AI (the game's default seats), start it, see the first deal under way,
    leave. Its id."""
    from bot.rules import GAMES

    rules = GAMES[args.game]
    seats = rules.default_seats or rules.min_seats
    sizes = {"players": seats} if any(o.name == "players" for o in rules.options) else {}
    extra = {"options": args.options} if args.options else {}
    await stub.slash("table new", host, channel, game=args.game, **sizes, **extra)
    for _ in range(600):  # the lobby may come as a follow-up when the bot is slow
        posted = [m for m in stub.messages(channel) if m.custom_ids()]
        if posted:
            break
        await asyncio.sleep(0.1)
    else:
        raise RuntimeError(f"no lobby appeared in #{channel.name}")
    table_id = int(posted[-1].custom_ids()[0].split(":")[1])
    for _ in range(seats - 1):
        await stub.click(stub.messages(channel)[-1], host, "Add strong AI")
    await stub.click(stub.messages(channel)[-1], host, "Start")
    deadline = time.monotonic() + 120
    while table_version(stub, channel) < 1 and time.monotonic() < deadline:
        for message in reversed(stub.dms(host)):
            ids = [c for c in message.custom_ids() if c.startswith(f"tapis:{table_id}:")]
            if ids:
                version = max(int(c.split(":")[2]) for c in ids)
                controls = move_controls(message, table_id, version)
                if controls and version == 0:
                    await click_control(stub, message, host, rng.choice(controls), rng)
                break
        await asyncio.sleep(0.2)
    await stub.slash("table leave", host, channel, table=table_id)
    return table_id


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR)
    stub = DiscordStub()
    per_guild = (args.tables + 1) // 2
    guilds = [stub.add_guild(f"Abuse {g}") for g in range(2)]
    channels = [stub.add_channel(guilds[i // per_guild], f"table-{i}") for i in range(args.tables)]
    member = stub.add_user("member", guilds[0])
    stub.echo_messages = False
    await stub.start()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        bot = await spawn(stub.port, Path(tmp) / "abuse.db", args)
        try:
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(10)

            async def one(i: int) -> int:
                host = stub.add_user(f"host{i}", guilds[i // per_guild])
                async with gate:
                    return await abandon_table(stub, channels[i], host, args, random.Random(rng.random()))

            await asyncio.gather(*(one(i) for i in range(args.tables)))
            setup_s = time.perf_counter() - t0
            await asyncio.sleep(2.0)
            before = await bot.ask("start")
            cpu0, t1 = before["cpu"], time.perf_counter()
            samples = []
            start = asyncio.get_running_loop().time()
            for k in range(int(args.duration / args.every)):
                delay = start + k * args.every - asyncio.get_running_loop().time()
                if delay > 0:
                    await asyncio.sleep(delay)
                samples.append(await stub.slash("balance", member, guilds[0].channels[0]))
            wall = time.perf_counter() - t1
            after = await bot.ask("stop")
        finally:
            await bot.stop()
    await stub.stop()
    report(args, setup_s, samples, before, after, wall, cpu0)


def report(args: argparse.Namespace, setup_s: float, samples: list[Any], before: dict[str, Any],
           after: dict[str, Any], wall: float, cpu0: float) -> None:
    flags = "" if args.images else " --no-images"
    print(f"command: python bench/abuse.py --tables {args.tables} --game {args.game} --options "
          f"'{args.options}' --duration {args.duration:g} --every {args.every:g} --ai-workers "
          f"{args.ai_workers} --ai-kind {args.ai_kind} --ai-delay {args.ai_delay:g}{flags}")
    print(f"setup: {args.tables} tables of strong AI opened, started and left in {setup_s:.1f} s; "
          f"playing at the start of the measure: {before['playing']}, at its end: {after['playing']}")
    moves = after["versions"] - before["versions"]
    ai_cpu = after["ai_cpu"] - before["ai_cpu"]
    print(f"during {wall:.1f} s: {moves} moves committed ({moves / wall:.1f}/s), bot process CPU "
          f"{(after['cpu'] - cpu0) / wall:.0%} of a core, AI worker processes {ai_cpu / wall:.0%}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    lat = [s.latency for s in samples if s.answered_at]
    if lat:
        print(f"/balance every {args.every:g} s: {len(lat)}/{len(samples)} answered, "
              f"p50 {pct(lat, .5):.1f} ms, p95 {pct(lat, .95):.1f} ms, p99 {pct(lat, .99):.1f} ms, "
              f"max {max(lat) * 1000:.1f} ms")
    lag = after["lag"]
    if lag:
        print(f"event-loop lag ({LAG_PERIOD * 1000:.0f} ms sleeper, {len(lag)} samples): p50 "
              f"{pct(lag, .5):.1f} ms, p99 {pct(lag, .99):.1f} ms, max {max(lag) * 1000:.1f} ms")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=80)
    p.add_argument("--game", default="michigan")
    p.add_argument("--options", default="rotations=0", help="the /table new options text")
    p.add_argument("--duration", type=float, default=60.0, help="seconds of measurement")
    p.add_argument("--every", type=float, default=0.5, help="seconds between two /balance")
    p.add_argument("--ai-workers", type=int, default=1)
    p.add_argument("--ai-kind", choices=("process", "thread"), default="process")
    p.add_argument("--ai-delay", type=float, default=1.0, help="the bot's ai_delay (production: 1 s)")
    p.add_argument("--no-images", dest="images", action="store_false", help="no Pillow rendering")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--serve-bot", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


if __name__ == "__main__":
    ns = parse()
    if ns.serve_bot is not None:
        logging.basicConfig(level=logging.ERROR)
        asyncio.run(serve_bot(ns.serve_bot, ns.db, ns))
    else:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main(ns))

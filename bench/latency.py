"""Action-to-reply latency of the real bot with many tables, through the local Discord stand-in.

Opens ``--tables`` tables, one per channel (every seat a simulated human clicking random legal
moves after a random think time), plays for ``--duration`` seconds and reports percentiles of the
time from the stand-in sending INTERACTION_CREATE to the bot's first response (callback) arriving back.
The stand-in, the bot and SQLite share one process and event loop, so this is pessimistic.

    python bench/latency.py [--tables 200] [--game michigan] [--duration 20] [--think 0.5] [--images]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import GAMES  # noqa: E402
from tests.discord_stub import Channel, DiscordStub, Interaction, User  # noqa: E402
from tests.discord_stub.play import click_control, latest_dm_with_moves, move_controls  # noqa: E402
from tests.discord_stub.tapis import TapisRun  # noqa: E402


async def open_table(stub: DiscordStub, channel: Channel, users: list[User],
                     game: str) -> tuple[int, Channel]:
    host, *guests = users
    options = {"players": len(users)} if any(s.name == "players" for s in GAMES[game].options) else {}
    await stub.slash("table new", host, channel, game=game, **options)
    lobby = stub.messages(channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    for guest in guests:
        await stub.click(lobby, guest, "Join")
    await stub.click(lobby, host, "Start")
    return table_id, channel


async def player_loop(stub: DiscordStub, run: TapisRun, table_id: int, channel: Channel, users: list[User],
                      rng: random.Random, stop_at: float, think: float, samples: list[Interaction]) -> None:
    loop = asyncio.get_running_loop()
    by_id = {u.id: u for u in users}
    while loop.time() < stop_at:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        table = await run.tables.get(table_id)
        if table is None or table.status != "playing":
            return
        waiting = table.to_act_users()
        if not waiting:
            continue
        user = by_id[waiting[0]]
        message = latest_dm_with_moves(stub, user, table_id, table.version)
        if message is None:
            hand = await stub.slash("hand", user, channel, table=table_id)
            samples.append(hand)
            message = hand.last
        controls = move_controls(message, table_id, table.version)
        if not controls:
            continue
        samples.append(await click_control(stub, message, user, rng.choice(controls), rng))


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR)
    stub = DiscordStub()
    guild = stub.add_guild("Bench")
    channels = [stub.add_channel(guild, f"table-{t}") for t in range(args.tables)]
    stub.echo_messages = False
    await stub.start()
    seats = args.seats or GAMES[args.game].default_seats or GAMES[args.game].min_seats
    with tempfile.TemporaryDirectory() as tmp:
        run = TapisRun(stub, Path(tmp) / "bench.db", edit_interval=1.0, images=args.images)
        await run.start()
        t0 = time.perf_counter()
        tables = []
        for t in range(args.tables):
            users = [stub.add_user(f"p{t}-{s}", guild) for s in range(seats)]
            tables.append((*await open_table(stub, channels[t], users, args.game), users))
        setup_s = time.perf_counter() - t0
        setup_samples = [i for i in stub.interactions.values()]
        samples: list[Interaction] = []
        rng = random.Random(args.seed)
        stop_at = asyncio.get_running_loop().time() + args.duration
        t1, cpu1 = time.perf_counter(), time.process_time()
        await asyncio.gather(*(player_loop(stub, run, tid, channel, users, random.Random(rng.random()),
                                           stop_at, args.think, samples) for tid, channel, users in tables))
        play_s, play_cpu = time.perf_counter() - t1, time.process_time() - cpu1
        await run.stop()
    await stub.stop()
    report(args, seats, setup_s, setup_samples, play_s, samples)
    share = play_cpu / play_s
    print(f"process CPU during play: {play_cpu:.1f} s for {play_s:.1f} s wall ({share:.0%} of one core); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def report(args: argparse.Namespace, seats: int, setup_s: float, setup: list[Interaction], play_s: float,
           samples: list[Interaction]) -> None:
    lat = [s.latency for s in samples if s.answered_at]
    moves = [s for s in samples if s.callback_type == 7]
    refusals = sum(1 for s in samples if s.callback_type == 4 and s.ephemeral and "⚠" in s.text)
    print(f"command: python bench/latency.py --tables {args.tables} --game {args.game} --seats {seats} "
          f"--duration {args.duration} --think {args.think}{' --images' if args.images else ''}")
    print(f"setup: {args.tables} tables x {seats} seats opened, joined and started in {setup_s:.1f} s "
          f"({len(setup)} interactions, p50 {pct([s.latency for s in setup], .5):.1f} ms, "
          f"p99 {pct([s.latency for s in setup], .99):.1f} ms)")
    print(f"play: {len(lat)} interactions in {play_s:.1f} s ({len(lat) / play_s:.0f}/s), "
          f"{len(moves)} moves applied, {refusals} refused")
    reasons = collections.Counter(s.text.split(":")[0][:60] for s in samples
                                  if s.callback_type == 4 and "⚠" in s.text)
    if reasons:
        print("refusals:", dict(reasons.most_common(4)))
    if lat:
        print(f"latency interaction -> response: p50 {pct(lat, .5):.1f} ms, p90 {pct(lat, .9):.1f} ms, "
              f"p99 {pct(lat, .99):.1f} ms, max {max(lat) * 1000:.1f} ms, "
              f"mean {statistics.mean(lat) * 1000:.1f} ms")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--game", default="motz" if "motz" in GAMES else "michigan", choices=sorted(GAMES))
    p.add_argument("--seats", type=int, default=None)
    p.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds a player waits before a move")
    p.add_argument("--images", action="store_true", help="render table and hand images (Pillow)")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))

"""Resident memory of a bot process under a burst of /replay (issue 26, item 1).

Two processes on 127.0.0.1, as ``bench/latency.py``: this one runs the Discord stand-in and sends
the interactions; a child process (this file with ``--serve-bot``) runs only the bot, imported from
``--root`` (default: this checkout; give another checkout, e.g. ``/work/main``, for "before"). The
child builds two finished tables through its table service:

- ``ordinary``: a Jeu du Maître table (host and two AI seats) whose first deal is played out:
  about 55 frames, the issue's "ordinary deal";
- ``mus``: a Mus table whose first deal has ``--rounds`` mus rounds (every seat calls mus and
  discards a card each time; 75 rounds give the issue's ~614-move deal), then is played out.

After a warm-up replay of the table's second deal, just dealt (fonts, sprites, code paths of the same
game, a few frames), the child's peak resident
set is reset (``/proc/self/clear_refs``), the burst is sent at once, every answer awaited, and the
child reports its resident set before (``VmRSS``) and its peak during the burst (``VmHWM``):

- ``--members 1``: one member sends ``--burst`` /replay of the deal at once (the issue's case);
- ``--members N``: N members each send one, in different languages and formats (en/fr/es/cs ×
  WebP/GIF), so that no two are the same replay (the cache and the sharing of one drawing cannot
  help).

    python bench/replay_memory.py [--root CHECKOUT] [--table ordinary|mus] [--rounds 75]
                                  [--members 1|6] [--burst 6]

The stand-in (in this process) keeps every file it receives; the figures are the bot process's only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
ROOT = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--root"), str(HERE))
sys.path.insert(0, str(Path(ROOT).resolve()))

READY_TIMEOUT = 60.0
KINDS = [(lang, fmt) for fmt in ("webp", "gif") for lang in ("en-US", "fr", "es-ES", "cs")]


def memory() -> dict[str, float]:
    """This process's resident set now and at its peak, in MB (Linux ``/proc/self/status``)."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


# ====================================================================== bot process

async def ordinary(run: Any, guild: int, channel: int, host: int) -> int:
    """A Jeu du Maître table (host and two AI seats) whose first deal is played out: the host plays
    its first legal move each turn, the AI its own."""
    t = await run.tables.create(guild, channel, host, "p0", "maitre", {})
    for _ in range(2):
        await run.tables.add_ai(t.id, host)
    await run.tables.start(t.id, host)
    first = (await run.tables.get(t.id)).state.view(None).get("deal")
    for _ in range(20000):
        table = await run.tables.get(t.id)
        if table.state.view(None).get("deal") != first or table.status != "playing":
            return t.id
        if table.to_act_users() == [host]:
            await run.tables.act(t.id, host, table.version, table.state.legal_actions(table.seat_of(host))[0])
        else:
            await asyncio.sleep(0.005)
    raise RuntimeError("the first deal never ended")


async def long_mus(run: Any, guild: int, channel: int, users: list[int], rounds: int) -> int:
    """A Mus table whose first deal has ``rounds`` mus rounds, played with the first legal move."""
    t = await run.tables.create(guild, channel, users[0], "p0", "mus", {})
    for i, u in enumerate(users[1:4], 1):
        await run.tables.join(t.id, u, f"p{i}")
    await run.tables.start(t.id, users[0])
    done = 0
    while True:
        table = await run.tables.get(t.id)
        if table.state.view(None)["deal"] > 0 or table.status != "playing":
            return t.id
        user = table.to_act_users()[0]
        legal = table.state.legal_actions(table.seat_of(user))
        kinds = {a["type"] for a in legal}
        if "mus" in kinds:
            action = next(a for a in legal if a["type"] == ("mus" if done < rounds else "no_mus"))
        elif "discard" in kinds:
            action = next(a for a in legal if len(a["cards"]) == 1)
        else:
            action = legal[0]
        await run.tables.act(t.id, user, table.version, action)
        if action["type"] == "discard" and table.state.view(None)["phase"] == "mus":
            done += 1


async def serve_bot(port: int, db_path: str) -> None:
    """Child process: the bot alone, connected to the stand-in at ``port``; driven by stdin lines."""
    import gc
    from dataclasses import replace

    import discord
    import yarl

    from tests.discord_stub.tapis import TEST_CONFIG, TapisRun

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    run = TapisRun(None, db_path, config=replace(TEST_CONFIG, ai_delay=0.0))  # type: ignore[arg-type]
    await run.start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        cmd, *args = line.split()
        reply: dict[str, Any] = {}
        if cmd == "setup":
            guild, channel, rounds, *users = (int(a) for a in args)
            reply = {"ordinary": await ordinary(run, guild, channel, users[0]),
                     "mus": await long_mus(run, guild, channel, users, rounds)}
        elif cmd == "reset":
            gc.collect()
            Path("/proc/self/clear_refs").write_text("5")  # the peak (VmHWM) starts again from now
        reply.update(memory())
        print(json.dumps(reply), flush=True)
    await run.bot.close()  # type: ignore[union-attr]
    await run.tables.close()
    if run.db is not None:
        await run.db.close()


class BotProcess:
    """The bot's child process, spoken to over its stdin/stdout."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def spawn(cls, port: int, db_path: Path) -> BotProcess:
        argv = [sys.executable, __file__, "--serve-bot", str(port), "--db", str(db_path), "--root", ROOT]
        proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE, limit=1 << 24)
        bot = cls(proc)
        line = await asyncio.wait_for(bot.readline(), READY_TIMEOUT)
        if line != "ready":
            raise RuntimeError(f"the bot process did not start (said {line!r})")
        return bot

    async def readline(self) -> str:
        assert self.proc.stdout is not None
        return (await self.proc.stdout.readline()).decode().strip()

    async def ask(self, command: str, timeout: float = 600) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.readline(), timeout))

    async def stop(self) -> None:
        if self.proc.returncode is None and self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


# ====================================================================== stand-in process

def frames_in(data: bytes) -> int:
    import io

    from PIL import Image

    return int(getattr(Image.open(io.BytesIO(data)), "n_frames", 1))


def answered(inter: Any) -> bool:
    """A /replay is over once it has a file, or a refusal (its first or a later message)."""
    if not inter.answered.is_set():
        return False
    return bool(inter.callback_type == 4 or inter.followups or (inter.original is not None
                                                                 and inter.original.edits > 0))


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(1, str(HERE))  # the stand-in always comes from this checkout
    from tests.discord_stub import DiscordStub

    stub = DiscordStub()
    guild = stub.add_guild("Casino")
    channel = guild.channels[0]
    players = [stub.add_user(f"p{i}", guild) for i in range(4)]
    members = [stub.add_user(f"m{i}", guild) for i in range(max(args.members, 1))]
    await stub.start()
    with tempfile.TemporaryDirectory() as tmp:
        bot = await BotProcess.spawn(stub.port, Path(tmp) / "tapis.db")
        try:
            await stub.wait_for(lambda: stub.ws is not None, timeout=30, what="the bot")
            seats = " ".join(str(p.id) for p in players)
            ids = await bot.ask(f"setup {guild.id} {channel.id} {args.rounds} {seats}")
            table = ids[args.table]
            # warm-up: the same table's second deal, just dealt (a few frames of the same game)
            warm = await stub.slash("replay", players[0], channel, wait=False, table=table, deal=2)
            await stub.wait_for(lambda: answered(warm), timeout=600, what="the warm-up replay")
            await asyncio.sleep(6)  # past the cooldown of the newer code
            before = await bot.ask("reset")
            start = time.perf_counter()
            sent = []
            for i in range(args.burst):
                who = members[i % len(members)] if args.members > 1 else members[0]
                lang, fmt = KINDS[i % len(KINDS)] if args.members > 1 else ("en-US", "webp")
                who.locale = lang
                sent.append(await stub.slash("replay", who, channel, wait=False, table=table, deal=1,
                                             format=fmt))
            await stub.wait_for(lambda: all(answered(i) for i in sent), timeout=1800, what="every replay")
            wall = time.perf_counter() - start
            after = await bot.ask("rss")
        finally:
            await bot.stop()
    await stub.stop()
    files = [i for i in sent if i.last is not None and i.last.attachments]
    return {
        "root": ROOT, "table": args.table, "members": args.members, "burst": args.burst,
        "files": len(files), "refused": len(sent) - len(files),
        "frames_in_file": frames_in(files[0].last.attachments[0].data) if files else 0,
        "largest_file_kB": round(max((len(i.last.attachments[0].data) for i in files), default=0) / 1024),
        "rss_before_MB": round(before["VmRSS"]), "peak_MB": round(after["VmHWM"]),
        "growth_MB": round(after["VmHWM"] - before["VmRSS"]), "rss_after_MB": round(after["VmRSS"]),
        "wall_s": round(wall, 1),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", default=str(HERE), help="the checkout whose bot is measured")
    p.add_argument("--table", choices=("ordinary", "mus"), default="ordinary")
    p.add_argument("--rounds", type=int, default=75, help="mus rounds in the Mus deal")
    p.add_argument("--members", type=int, default=1, help="1: one member sends the burst; N: N members")
    p.add_argument("--burst", type=int, default=6)
    p.add_argument("--serve-bot", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    ns = p.parse_args()
    if ns.serve_bot is not None:
        asyncio.run(serve_bot(ns.serve_bot, ns.db))
        return
    result = asyncio.run(measure(ns))
    print(json.dumps(result))


if __name__ == "__main__":
    main()

"""Interaction-to-first-response latency of the real bot with many tables, through the local stand-in.

Two processes on 127.0.0.1: this one runs the Discord stand-in and the simulated players; a child
process (this file with ``--serve-bot``) runs only the bot (``TapisBot`` + table service + SQLite).
``--tables`` tables are opened, one per channel, every seat a simulated human who reads its DMs
(or ``/hand``) and clicks a random legal move after a random think time. The latency of an
interaction is measured in the stand-in: from sending INTERACTION_CREATE on the gateway to
receiving the bot's callback (its first response). The offered load, the CPU used by each
process and the machine's load average are printed with the figures.

    python bench/latency.py [--tables 200] [--game motz] [--duration 20] [--think 3] [--images]
                            [--profile bot.prof] [--database postgresql://… [--processes 2]]

``--database`` runs the bot on that SQLite file or PostgreSQL database (a fresh schema in it, dropped
after). With ``--processes 2`` (PostgreSQL only) two bot processes serve one shard each of a
sharded stand-in; tables alternate between a guild on each shard, and the DM clicks for the second
process's tables reach the first (shard 0), which forwards them over LISTEN/NOTIFY: such a move is
answered with a deferred update, and its delay to the owner's edit of the DM is reported too.

With ``--rate-limits`` the stand-in enforces Discord's rate limits (global 50 requests/s besides
interaction callbacks and webhooks, 5 per 5 s per channel for message creates and edits) and the
run is repeated at each offered load of ``--loads`` (moves/s; the think time becomes
tables / load). Each load reports the REST calls per move besides the interaction callbacks, the
429s received and the **update delay** of a move: from the click to the moment both the table
message shows a newer version and the player who acts next has a message (DM or ephemeral) with
that player's controls at the version they act on. The sustainable load is the highest with an
update-delay p99 of at most 1 s and every move shown: each load's moves are given that 1 s
after the players stop before what was shown is judged (and its requests counted).

    python bench/latency.py --rate-limits --tables 200 --loads 16,32,64,128 --duration 15
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import contextlib
import json
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.rules import GAMES  # noqa: E402
from tests.discord_stub import Channel, DiscordStub, Interaction, Message, User  # noqa: E402
from tests.discord_stub.play import click_control, move_controls  # noqa: E402

SESSION_OVER = "The session is over."
STALL = 2.0  # seconds without a visible move before a player asks /hand
SUSTAINABLE_P99 = 1.0  # seconds: the update delay a sustainable load keeps at p99
READY_TIMEOUT = 60.0


# ====================================================================== bot process

async def serve_bot(port: int, db_path: str, edit_interval: float, images: bool, profile: str | None,
                    shard: int | None = None, shard_count: int = 1, token_life: float | None = None,
                    threads: bool = False) -> None:
    """Child process: the bot alone, connected to the stand-in at ``port``; driven by stdin lines."""
    from dataclasses import replace

    import discord
    import yarl

    from tests.discord_stub.tapis import TEST_CONFIG, TapisRun

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    inside = instrument_bot()
    # Every table here has its own channel and players, but all of them sit in one or two guilds:
    # lift the per-guild cap (issue 13's default of 50 open tables per guild) for the benchmark.
    config = replace(TEST_CONFIG, tables_per_guild=100_000, table_threads=threads)
    if shard is None:
        run = TapisRun(None, db_path, config=config, edit_interval=edit_interval,  # type: ignore[arg-type]
                       images=images)
    else:  # one of several shard processes (PostgreSQL): shard locks, owned tables, DM forwarding
        from tests.discord_stub.sharding import ShardRun

        run = ShardRun(None, db_path, (shard,), shard_count, config=config, edit_interval=edit_interval,
                       images=images)
    await run.start()
    if token_life is not None:  # model a session past the interaction tokens' lifetime
        run.bot.presenter.table_tokens.life = token_life  # type: ignore[union-attr]
    print("ready", flush=True)
    profiler = None
    loop = asyncio.get_running_loop()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        if line == "start" and profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        elif line == "stop" and profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        if line == "start":
            inside.clear()
        print(json.dumps({"cpu": time.process_time(), "inside": [t for i, t in inside.items() if t and i > 0],
                          "commits": [t for i, t in inside.items() if i < 0]}), flush=True)
    await run.bot.close()  # type: ignore[union-attr]
    await run.tables.close()
    if run.db is not None:
        await run.db.close()


def instrument_bot() -> dict[int, float]:
    """Time, inside the bot, each interaction from its gateway frame to its callback request.

    Returns ``{interaction id: seconds}`` (0 until answered), filled as the bot runs.
    """
    from discord.gateway import DiscordWebSocket
    from discord.state import ConnectionState
    from discord.webhook.async_ import AsyncWebhookAdapter

    frame_at = [0.0]
    received: dict[int, float] = {}
    inside: dict[int, float] = {}
    on_frame, on_parse = DiscordWebSocket.received_message, ConnectionState.parse_interaction_create
    on_callback = AsyncWebhookAdapter.create_interaction_response

    async def received_message(self: Any, msg: Any, /) -> None:
        frame_at[0] = time.perf_counter()
        await on_frame(self, msg)

    def parse_interaction_create(self: Any, data: Any) -> None:
        received[int(data["id"])] = frame_at[0]
        inside[int(data["id"])] = 0.0
        on_parse(self, data)

    def create_interaction_response(self: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
        if interaction_id in received:
            inside[interaction_id] = time.perf_counter() - received.pop(interaction_id)
        return on_callback(self, interaction_id, *args, **kwargs)

    from bot.store.db import Database
    from bot.store.pg import PgDatabase

    def timed(transaction: Any) -> Any:
        async def timed_transaction(self: Any, *args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await transaction(self, *args, **kwargs)
            finally:
                inside[-len(inside) - 1] = time.perf_counter() - t0  # negative keys: commits

        return timed_transaction

    for cls in (Database, PgDatabase):
        cls.transaction = timed(cls.transaction)  # type: ignore[method-assign]
    DiscordWebSocket.received_message = received_message  # type: ignore[method-assign]
    ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
    AsyncWebhookAdapter.create_interaction_response = create_interaction_response  # type: ignore
    return inside


class BotProcess:
    """The bot's child process, spoken to over its stdin/stdout."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def spawn(cls, port: int, db_path: Path | str, args: argparse.Namespace,
                    shard: int | None = None) -> BotProcess:
        argv = [sys.executable, __file__, "--serve-bot", str(port), "--db", str(db_path),
                "--edit-interval", str(args.edit_interval)]
        argv += ["--shard", str(shard), "--processes", str(args.processes)] if shard is not None else []
        argv += ["--images"] if args.images else []
        argv += ["--profile", args.profile] if args.profile else []
        argv += ["--token-life", str(args.token_life)] if args.token_life is not None else []
        argv += ["--threads"] if args.threads else []
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

    async def ask(self, command: str = "mark") -> dict[str, Any]:
        """Send a command line; return the bot's CPU seconds so far and its inside timings."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.readline(), 30))

    async def stop(self) -> None:
        if self.proc.returncode is None and self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 20)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


class Bots:
    """Several bot processes asked and stopped as one (CPU summed, timings pooled)."""

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots

    async def ask(self, command: str = "mark") -> dict[str, Any]:
        answers = [await bot.ask(command) for bot in self.bots]
        return {"cpu": sum(a["cpu"] for a in answers), "inside": [t for a in answers for t in a["inside"]],
                "commits": [t for a in answers for t in a["commits"]]}

    async def stop(self) -> None:
        for bot in self.bots:
            await bot.stop()


# ====================================================================== simulated players

@dataclass
class BenchTable:
    """What the players of one table know: only what Discord showed them."""

    table_id: int
    channel: Channel
    users: list[User]
    message: Message | None = None  # the table message (the lobby, edited in place)
    hands: dict[int, Message] = field(default_factory=dict)  # user id -> latest /hand answer
    tried: set[tuple[int, int]] = field(default_factory=set)  # (user id, version) already clicked


def moves_of(message: Message, table_id: int) -> tuple[int, list[dict[str, Any]]] | None:
    """``(version, controls)`` of the move controls of ``message`` for this table, if any."""
    prefix = f"tapis:{table_id}:"
    ids = [c for c in message.custom_ids() if c.startswith(prefix) and c.split(":")[3] in ("mv", "sel")]
    if not ids:
        return None
    version = max(int(c.split(":")[2]) for c in ids)
    return version, move_controls(message, table_id, version)


def latest_moves(stub: DiscordStub, bt: BenchTable, user: User) -> tuple[int, Message] | None:
    """The newest message (DM or /hand answer) offering ``user`` moves at this table."""
    best: tuple[int, Message] | None = None
    for message in reversed(stub.dms(user)):
        found = moves_of(message, bt.table_id)
        if found:
            best = (found[0], message)
            break
    hand = bt.hands.get(user.id)
    found = moves_of(hand, bt.table_id) if hand is not None else None
    if found and (best is None or found[0] > best[0]):
        best = (found[0], hand)  # type: ignore[assignment]
    return best


def next_move(stub: DiscordStub, bt: BenchTable) -> tuple[User, Message, int] | None:
    """The seat whose visible moves carry the newest version (not clicked yet), if any."""
    offers = [(found[0], user, found[1]) for user in bt.users if (found := latest_moves(stub, bt, user))]
    offers = [o for o in offers if (o[1].id, o[0]) not in bt.tried]
    if not offers:
        return None
    version, user, message = max(offers, key=lambda o: o[0])
    return user, message, version


async def player_loop(stub: DiscordStub, bt: BenchTable, rng: random.Random, stop_at: float, think: float,
                      samples: list[Interaction]) -> None:
    loop = asyncio.get_running_loop()
    last_move = loop.time()
    while loop.time() < stop_at and not finished(bt):
        await asyncio.sleep(min(rng.uniform(0, 2 * think), max(0.0, stop_at - loop.time())))
        if loop.time() >= stop_at or finished(bt):
            return
        found = next_move(stub, bt)
        if found is None:
            if loop.time() - last_move > STALL:
                user = rng.choice(bt.users)
                hand = await stub.slash("hand", user, bt.channel, table=bt.table_id)
                samples.append(hand)
                if hand.original is not None:
                    bt.hands[user.id] = hand.original
                last_move = loop.time()
            continue
        user, message, version = found
        controls = move_controls(message, bt.table_id, version)
        bt.tried.add((user.id, version))
        before = message.edits
        sample = await click_control(stub, message, user, rng.choice(controls), rng)
        samples.append(sample)
        if sample.callback_type == 6 and stub.channels[message.channel_id].is_dm:  # forwarded to its owner
            with contextlib.suppress(AssertionError):
                await stub.wait_for(lambda m=message, b=before, x=sample: m.edits > b or x.followups,
                                    timeout=5.0)
                sample.applied_at = loop.time()  # type: ignore[attr-defined]
        last_move = loop.time()


async def open_table(stub: DiscordStub, channel: Channel, users: list[User], game: str,
                     table_options: str | None = None, invite: bool = False) -> BenchTable:
    """``/table new``, every guest clicks Join, Start. ``invite``: the host invites the guests (up to
    three, each told by a follow-up mentioning them) and the table is by invitation only."""
    host, *guests = users
    has_players = any(s.name == "players" for s in GAMES[game].options)
    options: dict[str, Any] = {"players": len(users)} if has_players else {}
    if table_options:
        options["options"] = table_options
    if invite and guests:
        for name, guest in zip(("invite", "invite2", "invite3"), guests, strict=False):
            options[name] = guest
        options["invite_only"] = len(guests) <= 3
    await stub.slash("table new", host, channel, game=game, **options)
    lobby = stub.messages(channel)[-1]
    if stub.app_permissions != "0":  # --threads: the lobby moves into the thread the first one starts
        await stub.wait_for(lambda: lobby.id in stub.channels and stub.messages(lobby.id), timeout=30.0,
                            what="the table's thread")
        lobby = stub.messages(lobby.id)[-1]
    await stub.wait_for(lobby.custom_ids, timeout=30.0, what="the lobby's buttons")  # deferred when slow
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    for guest in guests:
        await stub.click(lobby, guest, "Join")
    await stub.click(lobby, host, "Start")
    return BenchTable(table_id, channel, users, message=lobby)


def finished(bt: BenchTable) -> bool:
    """True once the table message says the session is over (what its players see)."""
    return bt.message is not None and SESSION_OVER in bt.message.text


async def open_tables(stub: DiscordStub, args: argparse.Namespace, seats: int) -> list[BenchTable]:
    """Open every table, ten at a time (round-robin over the guilds: one per shard)."""
    guilds = list(stub.guilds.values())
    gate = asyncio.Semaphore(10)

    async def one(t: int) -> BenchTable:
        guild = guilds[t % len(guilds)]
        users = [stub.add_user(f"p{t}-{s}", guild) for s in range(seats)]
        async with gate:
            channel = stub.channels[guild.channels[t // len(guilds) + 1].id]
            return await open_table(stub, channel, users, args.game, args.options, args.invite)

    return list(await asyncio.gather(*(one(t) for t in range(args.tables))))


# ====================================================================== what players see, when

@dataclass
class Shown:
    """Every write the stand-in stored: ``(time, version)`` per table message and per (table, user)."""

    table: dict[int, list[tuple[float, int]]] = field(default_factory=lambda: collections.defaultdict(list))
    prompts: dict[tuple[int, int], list[tuple[float, int]]] = field(
        default_factory=lambda: collections.defaultdict(list))


def track(stub: DiscordStub) -> Shown:
    """Wrap the stand-in's message writes to record which version each table and player sees when."""
    shown = Shown()
    create, edit = stub._create, stub._edit

    def note(message: Message) -> None:
        now = asyncio.get_running_loop().time()
        channel = stub.channels.get(message.channel_id)
        moves = [c.split(":") for c in message.custom_ids() if c.startswith("tapis:")]
        if channel is not None and not channel.is_dm and not message.ephemeral:
            footer = " ".join((e.get("footer") or {}).get("text", "") for e in message.embeds)
            if moves:
                shown.table[int(moves[0][1])].append((now, int(moves[0][2])))
            elif "version" in footer:  # the final message has no buttons left
                words = footer.split()
                shown.table[int(words[1])].append((now, int(words[-1])))
            return
        user = channel.recipient.id if channel is not None and channel.recipient is not None else 0
        for parts in moves:
            if parts[3] in ("mv", "sel"):
                shown.prompts[(int(parts[1]), user)].append((now, int(parts[2])))
                break

    def tracked_create(channel: Channel, data: dict[str, Any], files: Any, interaction_id: int | None = None
                       ) -> Message:
        message = create(channel, data, files, interaction_id=interaction_id)
        if interaction_id is not None:
            inter = stub.interactions.get(interaction_id)
            if inter is not None and message.ephemeral:
                if inter.type == 3:  # a /hand answer is fetched by the player, not pushed: not counted
                    _note_prompt(shown, message, inter.user.id)
                return message
        note(message)
        return message

    def tracked_edit(message: Message, data: dict[str, Any], files: Any) -> Message:
        edited = edit(message, data, files)
        if edited.ephemeral and edited.interaction_id is not None:
            inter = stub.interactions.get(edited.interaction_id)
            if inter is not None:
                _note_prompt(shown, edited, inter.user.id)
                return edited
        note(edited)
        return edited

    stub._create, stub._edit = tracked_create, tracked_edit  # type: ignore[method-assign]
    return shown


def _note_prompt(shown: Shown, message: Message, user_id: int) -> None:
    now = asyncio.get_running_loop().time()
    for c in message.custom_ids():
        parts = c.split(":")
        if c.startswith("tapis:") and parts[3] in ("mv", "sel"):
            shown.prompts[(int(parts[1]), user_id)].append((now, int(parts[2])))
            return


def first_at(writes: list[tuple[float, int]], after: float, version: int) -> float | None:
    """The first time after ``after`` a write showed ``version`` or newer."""
    for at, v in writes:
        if at >= after and v >= version:
            return at
    return None


def update_delays(samples: list[Interaction], shown: Shown) -> tuple[list[float], int]:
    """Per move: seconds until the table message and the next actor's prompt show its outcome.

    Returns the delays and the number of moves whose outcome was never fully shown during the run.
    """
    clicks: dict[int, list[tuple[int, float, int]]] = collections.defaultdict(list)
    for s in samples:
        if s.type != 3 or s.callback_type not in (6, 7):
            continue
        parts = str((s.data or {}).get("custom_id", "")).split(":")
        if len(parts) > 3 and parts[0] == "tapis":
            clicks[int(parts[1])].append((int(parts[2]), s.sent_at, s.user.id))
    delays, unseen = [], 0
    for table_id, moves in clicks.items():
        moves.sort()
        for (v, t0, _), (v2, _, user2) in zip(moves, moves[1:], strict=False):
            if v2 != v + 1:
                continue
            table_at = first_at(shown.table.get(table_id, []), t0, v + 1)
            prompt_at = first_at(shown.prompts.get((table_id, user2), []), t0, v2)
            if table_at is None or prompt_at is None:
                unseen += 1
                continue
            delays.append(max(table_at, prompt_at) - t0)
    return delays, unseen


# ====================================================================== whole sessions

#: Kinds of REST call, for the whole-session report; the first three are outside the global limit.
EXEMPT_KINDS = ("interaction callback", "table edit (interaction webhook)", "DM edit (interaction webhook)",
                "ephemeral edit (interaction webhook)", "follow-up (interaction webhook)")


def kind_of(stub: DiscordStub, call: Any) -> str:
    """What a REST call was for: DM channel open, DM post/edit, table post/edit, through which route."""
    if call.route.endswith("/callback"):
        return "interaction callback"
    if call.route == "/users/@me/channels":
        return "DM channel open"
    parts = call.path.split("/")
    message: Message | None = None
    if call.route.startswith("/webhooks/"):
        if call.method == "POST":
            return "follow-up (interaction webhook)"
        mid = parts[-1]
        inter = stub.by_token.get(parts[3])
        message = (inter.original if inter is not None else None) if mid == "@original" \
            else stub.store.get(int(mid)) if mid.isdigit() else None
        channel = stub.channels.get(message.channel_id) if message is not None else None
        where = ("DM" if channel is not None and channel.is_dm else
                 "ephemeral" if message is not None and message.ephemeral else "table")
        return f"{where} edit (interaction webhook)"
    if call.route.startswith("/channels/{cid}/messages"):
        channel = stub.channels.get(int(parts[2]))
        where = "DM" if channel is not None and channel.is_dm else "table"
        verb = {"POST": "post", "PATCH": "edit"}.get(call.method, call.method)
        return f"{where} {verb}"
    return f"{call.method} {call.route}"


async def whole_sessions(stub: DiscordStub, bot: Any, args: argparse.Namespace, seats: int) -> None:
    """Every table from ``/table new`` to its session's end, every REST call counted (cold start too)."""
    from bot.store.pg import _safe_url

    if args.rate_limits:
        stub.enforce_rate_limits()
    shown = track(stub)
    first = len(stub.calls)  # not the bot's log-in and command sync
    loop = asyncio.get_running_loop()
    load0, cpu0 = os.getloadavg()[0], (await bot.ask("start"))["cpu"]
    t0 = time.perf_counter()
    tables = await open_tables(stub, args, seats)
    setup_s = time.perf_counter() - t0
    samples: list[Interaction] = []
    rng = random.Random(args.seed)
    stop_at = loop.time() + args.duration
    think = args.tables / args.load
    await asyncio.gather(*(player_loop(stub, bt, random.Random(rng.random()), stop_at, think, samples)
                           for bt in tables))
    with contextlib.suppress(AssertionError):  # the last edits and DMs of the last tables
        await stub.idle(quiet=2.0, timeout=30.0)
    wall = time.perf_counter() - t0
    bot_cpu = (await bot.ask("stop"))["cpu"] - cpu0
    calls = [c for c in stub.calls[first:] if c.status != 429]
    kinds = collections.Counter(kind_of(stub, c) for c in calls)
    moves = sum(1 for s in samples if s.type == 3 and s.callback_type in (6, 7))
    done = [bt for bt in tables if finished(bt)]
    complete = [bt for bt in done
                if all(stub.dms(u) and SESSION_OVER in stub.dms(u)[-1].text for u in bt.users)]
    delays, unseen = update_delays(samples, shown)
    limited = collections.Counter("global" if c.bucket == "global" else c.route
                                  for c in stub.calls[first:] if c.status == 429)
    counted = sorted(c.at for c in calls if c.global_counted)
    peak = max((bisect.bisect_right(counted, t + 1.0) - i for i, t in enumerate(counted)), default=0)
    exempt = sum(n for k, n in kinds.items() if k in EXEMPT_KINDS)
    under_global = sum(n for k, n in kinds.items() if k not in EXEMPT_KINDS)
    print(f"command: python bench/latency.py --sessions{' --rate-limits' if args.rate_limits else ''} "
          f"--tables {args.tables} --game {args.game}"
          f"{f' --options {args.options!r}' if args.options else ''} --load {args.load:g}"
          f" --duration {args.duration:g}{' --images' if args.images else ''}"
          f"{' --invite' if args.invite else ''}"
          f"{f' --database {_safe_url(args.database)}' if args.database else ''}"
          f"{f' --processes {args.processes}' if args.processes > 1 else ''}"
          f"{' --threads' if args.threads else ''}")
    print(f"{len(done)}/{len(tables)} sessions ended in {wall:.0f} s (setup of the lobbies {setup_s:.0f} s); "
          f"{len(complete)} with every player's last DM and the table message showing the end")
    per = 1 / max(moves, 1)
    print(f"{moves} moves, {moves / wall:.1f} moves/s (offered {args.load:g}); "
          f"non-callback REST calls per move: {(len(calls) - kinds['interaction callback']) * per:.2f}, "
          f"under the global limit **{under_global * per:.2f}**, through the interaction webhook "
          f"{(exempt - kinds['interaction callback']) * per:.2f}; 429s: {dict(limited) or 0}, "
          f"twice in a row for one bucket: {len(stub.repeated_429s())}; requests under the global limit "
          f"in the busiest second: {peak}"
          + (f" (all {args.processes} processes)" if args.processes > 1 else ""))
    print("| kind of call | calls | per move | global limit |")
    print("|---|---|---|---|")
    for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"| {kind} | {n} | {n * per:.3f} | {'exempt' if kind in EXEMPT_KINDS else 'counted'} |")
    if delays:
        print("update delay (click -> table message and next player's prompt): "
              f"p50 {pct(delays, .5):.0f} ms, "
              f"p95 {pct(delays, .95):.0f} ms, p99 {pct(delays, .99):.0f} ms; not shown by the end: {unseen}")
    print(f"CPU: bot {bot_cpu / wall:.0%} of a core; load average (1 min) {load0:.1f} -> "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


# ====================================================================== driver and report

@dataclass
class Phase:
    """Wall time, CPU of both processes and load over one phase."""

    wall: float = 0.0
    bench_cpu: float = 0.0
    bot_cpu: float = 0.0
    load: tuple[float, float] = (0.0, 0.0)  # 1-min load average at start and end
    inside: list[float] = field(default_factory=list)  # bot-side: gateway frame -> callback request
    commits: list[float] = field(default_factory=list)  # bot-side: one awaited SQLite transaction
    calls: list[Any] = field(default_factory=list)  # the stand-in's Call records of the phase


async def main(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR)
    if args.processes > 1:  # one shard per bot process; every DM arrives at shard 0's process
        from tests.discord_stub.sharding import ShardedStub

        stub: DiscordStub = ShardedStub(args.processes)
        guilds = [stub.add_guild_on_shard(f"Bench {k}", k) for k in range(args.processes)]  # type: ignore
    else:
        stub = DiscordStub()
        guilds = [stub.add_guild("Bench")]
    for t in range(args.tables):
        stub.add_channel(guilds[t % len(guilds)], f"table-{t}")
    stub.echo_messages = False
    if args.threads:  # Create Public Threads, Send Messages in Threads (and Send Messages, View Channel)
        stub.app_permissions = str((1 << 35) | (1 << 38) | (1 << 11) | (1 << 10))
    stub.validate = args.validate  # the schema check costs the stand-in ~1 ms a request: off unless asked
    await stub.start()
    seats = args.seats or GAMES[args.game].default_seats or GAMES[args.game].min_seats
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        target: Path | str = Path(tmp) / "bench.db"
        if args.database and args.database.startswith(("postgresql://", "postgres://")):
            from tests.backends import fresh_pg

            target = await stack.enter_async_context(fresh_pg(args.database))  # an empty schema
        elif args.database:
            target = args.database
        if args.processes > 1:
            bot: Any = Bots([await BotProcess.spawn(stub.port, target, args, shard=k)
                             for k in range(args.processes)])
        else:
            bot = await BotProcess.spawn(stub.port, target, args)
        try:
            if args.sessions:
                return await whole_sessions(stub, bot, args, seats)
            t0 = time.perf_counter()
            tables = await open_tables(stub, args, seats)
            setup_s = time.perf_counter() - t0
            setup = list(stub.interactions.values())
            if args.rate_limits:
                stub.enforce_rate_limits()
            if args.loads:
                shown = track(stub)
                rows = []
                if args.warmup:  # players click once or more first, as on a server up for a while
                    duration, args.duration = args.duration, args.warmup
                    args.think = args.tables / max(args.loads)
                    await play(stub, bot, tables, args)
                    args.duration = duration
                for load in args.loads:
                    args.think = args.tables / load
                    samples, phase, calls = await play(stub, bot, tables, args)
                    report(args, seats, setup_s, setup, samples, phase, calls)
                    rows.append(budget_row(load, samples, phase, shown))
                    print_row(rows[-1], header=False)
            else:
                samples, phase, calls = await play(stub, bot, tables, args)
        finally:
            await bot.stop()
            await stub.stop()
    if args.loads:
        print_budget(args, rows)
    else:
        report(args, seats, setup_s, setup, samples, phase, calls)


@dataclass
class BudgetRow:
    """One offered load under Discord's limits."""

    load: float
    moves_per_s: float
    calls_per_move: float  # REST calls besides interaction callbacks
    global_per_move: float  # of which under the global 50/s (not the interaction webhook)
    rate_limited: int  # 429s received
    limited_by: dict[str, int]  # 429s per scope (global, or the per-route bucket's route)
    delays: list[float]
    unseen: int
    by_route: dict[str, float]


def budget_row(load: float, samples: list[Interaction], phase: Phase, shown: Shown) -> BudgetRow:
    moves = sum(1 for s in samples if s.type == 3 and s.callback_type in (6, 7))
    other = [c for c in phase.calls if "/callback" not in c.route and c.status != 429]
    under_global = [c for c in other if not c.route.startswith("/webhooks/")]
    delays, unseen = update_delays(samples, shown)
    routes = collections.Counter(f"{c.method} {c.route}" for c in other)
    return BudgetRow(load, moves / phase.wall, len(other) / max(moves, 1), len(under_global) / max(moves, 1),
                     sum(1 for c in phase.calls if c.status == 429),
                     dict(collections.Counter("global" if c.bucket == "global" else c.route
                                              for c in phase.calls if c.status == 429)), delays, unseen,
                     {k: v / max(moves, 1) for k, v in routes.most_common(4)})


def print_row(row: BudgetRow, header: bool = True) -> None:
    if header:
        print("| offered moves/s | moves/s done | REST calls/move (global budget) | 429s | update delay "
              "p50 / p95 / p99 | not shown by the end |")
        print("|---|---|---|---|---|---|")
    d = row.delays
    delay = f"{pct(d, .5):.0f} / {pct(d, .95):.0f} / {pct(d, .99):.0f} ms" if d else "-"
    print(f"| {row.load:g} | {row.moves_per_s:.1f} | {row.calls_per_move:.2f} ({row.global_per_move:.2f}) | "
          f"{row.rate_limited} | {delay} | {row.unseen} |")


def print_budget(args: argparse.Namespace, rows: list[BudgetRow]) -> None:
    loads = ",".join(f"{r.load:g}" for r in rows)
    print(f"\ncommand: python bench/latency.py{' --rate-limits' if args.rate_limits else ''} "
          f"--tables {args.tables} --game {args.game} --loads {loads} --duration {args.duration:g} "
          f"--warmup {args.warmup:g}"
          f"{' --images' if args.images else ''} --edit-interval {args.edit_interval:g}"
          f"{f' --token-life {args.token_life:g}' if args.token_life is not None else ''}")
    for i, row in enumerate(rows):
        print_row(row, header=i == 0)
    for row in rows:
        print(f"  {row.load:g}/s calls per move by route: "
              + ", ".join(f"{k} {v:.2f}" for k, v in row.by_route.items())
              + (f"; 429s: {row.limited_by}" if row.limited_by else ""))
    fine = [r for r in rows if r.delays and pct(r.delays, .99) <= SUSTAINABLE_P99 * 1000 and not r.unseen]
    best = max(fine, key=lambda r: r.moves_per_s, default=None)
    print(f"sustainable (update delay p99 <= {SUSTAINABLE_P99:g} s): "
          + (f"{best.moves_per_s:.1f} moves/s (offered {best.load:g})" if best else "none of the loads"))


async def play(stub: DiscordStub, bot: BotProcess, tables: list[BenchTable],
               args: argparse.Namespace) -> tuple[list[Interaction], Phase, collections.Counter[str]]:
    samples: list[Interaction] = []
    rng = random.Random(args.seed)
    await asyncio.sleep(1.0)  # let the start-of-game DMs and edits drain
    with contextlib.suppress(AssertionError):
        await stub.idle(quiet=1.0, timeout=60.0)
    first_call = len(stub.calls)
    phase = Phase(load=(os.getloadavg()[0], 0.0))
    bot_cpu0 = (await bot.ask("start"))["cpu"]
    t1, cpu1 = time.perf_counter(), time.process_time()
    stop_at = asyncio.get_running_loop().time() + args.duration
    await asyncio.gather(*(player_loop(stub, bt, random.Random(rng.random()), stop_at, args.think, samples)
                           for bt in tables))
    phase.wall, phase.bench_cpu = time.perf_counter() - t1, time.process_time() - cpu1
    answer = await bot.ask("stop")
    phase.bot_cpu, phase.inside, phase.commits = answer["cpu"] - bot_cpu0, answer["inside"], answer["commits"]
    phase.load = (phase.load[0], os.getloadavg()[0])
    if args.loads:
        # The moves of the last second are still being shown when the players stop: give them the
        # delay a sustainable load allows before judging what was shown (and count those requests).
        await asyncio.sleep(SUSTAINABLE_P99)
    phase.calls = stub.calls[first_call:]
    calls = collections.Counter(f"{c.method} {c.route}" for c in phase.calls)
    return samples, phase, calls


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def report(args: argparse.Namespace, seats: int, setup_s: float, setup: list[Interaction],
           samples: list[Interaction], phase: Phase, calls: collections.Counter[str]) -> None:
    lat = [s.latency for s in samples if s.answered_at]
    moves = sum(1 for s in samples if s.callback_type in (6, 7))
    refusals = [s for s in samples if s.callback_type == 4 and s.ephemeral and "⚠" in s.text]
    flags = (" --images" if args.images else "") + (f" --profile {args.profile}" if args.profile else "")
    if args.database:
        from bot.store.pg import _safe_url

        flags += f" --database {_safe_url(args.database)}"
    flags += f" --processes {args.processes}" if args.processes > 1 else ""
    print(f"command: python bench/latency.py --tables {args.tables} --game {args.game} --seats {seats} "
          f"--duration {args.duration:g} --think {args.think:g}{flags}")
    if args.processes > 1:
        print(f"processes: stand-in + players in one process, {args.processes} bot processes (one shard "
              f"each, tables split between their guilds; every DM click arrives at shard 0's) (127.0.0.1)")
    else:
        print("processes: stand-in + players in one process, the bot alone in another (127.0.0.1)")
    setup_lat = [s.latency for s in setup if s.answered_at]
    print(f"setup: {args.tables} tables x {seats} seats in {setup_s:.1f} s ({len(setup)} interactions, "
          f"p50 {pct(setup_lat, .5):.1f} ms, p99 {pct(setup_lat, .99):.1f} ms)")
    print(f"offered load: {len(samples) / phase.wall:.1f} interactions/s for {phase.wall:.1f} s "
          f"({len(samples)} sent, {len(lat)} answered, {moves} moves, {len(refusals)} refused); "
          f"bot REST calls besides callbacks: {bot_calls(calls, phase.wall)}")
    reasons = collections.Counter(s.text.split(":")[0][:60] for s in refusals)
    if reasons:
        print("refusals:", dict(reasons.most_common(4)))
    if lat:
        print(f"latency INTERACTION_CREATE sent -> callback received: p50 {pct(lat, .5):.1f} ms, "
              f"p95 {pct(lat, .95):.1f} ms, p99 {pct(lat, .99):.1f} ms, max {max(lat) * 1000:.1f} ms, "
              f"mean {statistics.mean(lat) * 1000:.1f} ms")
        for kind, group in (("moves", [s.latency for s in samples if s.type == 3 and s.answered_at]),
                            ("/hand", [s.latency for s in samples if s.type == 2 and s.answered_at]),
                            ("inside the bot (frame read -> callback sent)", phase.inside),
                            ("of which awaiting a database commit", phase.commits),
                            ("forwarded DM moves: sent -> DM edited by the owning process",
                             [s.applied_at - s.sent_at for s in samples  # type: ignore[attr-defined]
                              if getattr(s, "applied_at", 0)])):
            if group:
                print(f"  {kind}: {len(group)}, p50 {pct(group, .5):.1f} ms, p95 {pct(group, .95):.1f} ms, "
                      f"p99 {pct(group, .99):.1f} ms")
    print(f"CPU during play: bot {phase.bot_cpu / phase.wall:.0%} of a core, stand-in+players "
          f"{phase.bench_cpu / phase.wall:.0%}; load average (1 min) {phase.load[0]:.1f} -> "
          f"{phase.load[1]:.1f} on {os.cpu_count()} cores")


def bot_calls(calls: collections.Counter[str], wall: float) -> str:
    other = {k: v for k, v in calls.items() if "/callback" not in k}
    top = ", ".join(f"{k} {v / wall:.0f}/s" for k, v in sorted(other.items(), key=lambda kv: -kv[1])[:3])
    return top or "none"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--game", default="motz" if "motz" in GAMES else "michigan", choices=sorted(GAMES))
    p.add_argument("--seats", type=int, default=None)
    p.add_argument("--duration", type=float, default=20.0, help="seconds of play")
    p.add_argument("--think", type=float, default=3.0, help="mean seconds a player waits before a move")
    p.add_argument("--images", action="store_true", help="render table and hand images (Pillow)")
    p.add_argument("--edit-interval", type=float, default=1.0, help="seconds between table-message edits")
    p.add_argument("--profile", default=None, help="write a cProfile of the bot's event loop during play")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--token-life", type=float, default=None,
                   help="seconds an interaction token edits the table message (default 14 min; 0 = every "
                        "table edit through the channel, as in a session older than the tokens)")
    p.add_argument("--validate", action="store_true", help="check bodies against Discord's OpenAPI schema")
    p.add_argument("--warmup", type=float, default=0.0,
                   help="seconds played at the highest of --loads before measuring (not reported)")
    p.add_argument("--rate-limits", action="store_true", help="the stand-in enforces Discord's rate limits")
    p.add_argument("--loads", type=lambda v: [float(x) for x in v.split(",")], default=None,
                   help="comma-separated offered moves/s, one phase each (think = tables / load)")
    p.add_argument("--sessions", action="store_true",
                   help="whole sessions: every table from /table new to its end, all calls counted")
    p.add_argument("--load", type=float, default=32.0, help="with --sessions: offered moves/s (all tables)")
    p.add_argument("--options", default=None, help="table options for /table new, e.g. 'rotations=1'")
    p.add_argument("--invite", action="store_true",
                   help="the host invites the other players in /table new (issue 28.1: invitations)")
    p.add_argument("--database", default=None,
                   help="SQLite file (default: a temporary one) or postgresql:// URL (a fresh schema in it)")
    p.add_argument("--processes", type=int, default=1,
                   help="bot processes, one shard each (needs --database postgresql://…)")
    p.add_argument("--shard", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--threads", action="store_true",
                   help="a thread per table (issue 28): the lobby and the table message in the thread")
    p.add_argument("--serve-bot", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--db", default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


if __name__ == "__main__":
    ns = parse()
    if ns.serve_bot is not None:
        logging.basicConfig(level=logging.ERROR)
        asyncio.run(serve_bot(ns.serve_bot, ns.db, ns.edit_interval, ns.images, ns.profile, ns.shard,
                              ns.processes, ns.token_life, ns.threads))
    else:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main(ns))

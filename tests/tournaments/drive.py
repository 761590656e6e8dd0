"""Helpers: open and start an event through the stand-in, play its rounds to their end through the
table service, quickly."""

from __future__ import annotations

import random

from bot.store import ledger as L
from bot.tournaments.model import OPEN, Tournament
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def people(stub: DiscordStub, n: int) -> list[User]:
    """``n`` members of the stand-in's guild."""
    return [stub.add_user(f"p{i}", stub.guild) for i in range(n)]


async def create(stub: DiscordStub, host: User, **options: object) -> int:
    inter = await stub.slash("tournament create", host, stub.channel, **options)
    assert "Tournament #" in inter.text, inter.text
    return int(inter.text.split("#")[1].split(":")[0])


async def join_all(stub: DiscordStub, tid: int, members: list[User]) -> None:
    for m in members:
        inter = await stub.slash("tournament join", m, stub.channel, tournament=tid)
        assert "registered" in inter.text, inter.text


async def start_event(stub: DiscordStub, run: TapisRun, entrants: list[User],
                      **options: object) -> tuple[int, Tournament]:
    """``/tournament create`` by ``entrants[0]`` with ``options``, every entrant registered,
    ``/tournament start``, the bot settled: the event's id and the event."""
    tid = await create(stub, entrants[0], **options)
    await join_all(stub, tid, entrants)
    await stub.slash("tournament start", entrants[0], stub.channel, tournament=tid)
    await quiet(run)
    t = run.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None
    return tid, t


async def quiet(run: TapisRun) -> None:
    """Wait until the bot and the tournament runner have nothing under way."""
    assert run.bot is not None
    for _ in range(50):
        await run.settle()
        if not run.bot.tournaments.tasks:
            await run.settle()
            if not run.bot.tournaments.tasks:
                return
        await run.bot.tournaments.settle_tasks()
    raise AssertionError("the tournament never settled")


async def play_round(run: TapisRun, tid: int, seed: int = 1) -> int:
    """Play every human move of the current round (random legal moves) until it ends; its number."""
    assert run.bot is not None
    rng = random.Random(seed)
    t = run.bot.tournaments.get(tid)
    assert t is not None
    round_no = t.round
    for _ in range(20000):
        await quiet(run)
        moved = False
        for rt in t.round_tables(round_no):
            if rt.status != OPEN or rt.table_id is None:
                continue
            table = await run.tables.get(rt.table_id)
            assert table is not None
            if table.status != "playing" or table.state is None:
                continue
            for seat in table.to_act():
                info = table.seats[seat]
                if info.autoplayed or info.user_id is None:
                    continue
                action = rng.choice(table.state.legal_actions(seat))
                await run.tables.act(table.id, info.user_id, table.version, action)
                moved = True
                break
        if not moved:
            break
    await quiet(run)
    return round_no


async def ledger_total(run: TapisRun) -> int:
    """The sum of every account (0 when the ledger is sound)."""
    assert run.db is not None
    row = await run.db.fetchone("SELECT COALESCE(SUM(balance), 0) FROM accounts")
    assert row is not None
    return int(row[0])


async def pool_balance(run: TapisRun, tid: int, guild_id: int) -> int:
    """What an event's prize pool holds."""
    assert run.db is not None
    row = await run.db.fetchone(
        "SELECT balance FROM accounts WHERE id = ?", (L.Account("escrow", guild_id, table_id=-tid).key,)
    )
    return 0 if row is None else int(row[0])

"""Real shard processes: process B (shard 1) is a separate OS process running ``bot.__main__.run``,
killed with SIGKILL mid-deal and started again; process A (shard 0, in this test process) receives
the DM clicks and forwards them. One PostgreSQL, the sharding stand-in."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store import Database, Ledger
from bot.store import tables as store
from tests.backends import database_target
from tests.bot.test_shards import members, open_in
from tests.discord_stub import Message, User
from tests.discord_stub.client import ErrorLog
from tests.discord_stub.play import click_control
from tests.discord_stub.sharding import ShardedStub, ShardRun
from tests.discord_stub.tapis import TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[str]:
    async with database_target("postgresql", tmp_path) as url:
        yield url


@pytest.fixture
async def sharded(errors: ErrorLog) -> AsyncIterator[ShardedStub]:
    s = ShardedStub(shard_count=2)
    s.g1 = s.add_guild_on_shard("One", 1)  # type: ignore[attr-defined]
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


class Process:
    """``python -m tests.discord_stub.shard_process`` for one shard; its stderr kept in a file."""

    def __init__(self, stub: ShardedStub, url: str, shard: int, log: Path) -> None:
        self.log = log
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(log, "ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.discord_stub.shard_process", str(stub.port), url, str(shard),
                 str(stub.shard_count)], cwd=ROOT, env=env, stdout=fh, stderr=fh)

    def kill9(self) -> None:
        self.proc.kill()  # SIGKILL: no clean-up of any kind
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def procs() -> Iterator[list[Process]]:
    started: list[Process] = []
    yield started
    for p in started:
        p.stop()


async def shard_up(stub: ShardedStub, shard: int, timeout: float = 30.0) -> None:
    await asyncio.wait_for(stub.shard_ready[shard].wait(), timeout)


def controls_of(message: Message, table_id: int) -> tuple[int, list[dict]] | None:
    """``(version, move controls)`` offered by ``message`` for this table."""
    moves = [c for c in message.items() if c.get("custom_id", "").startswith(f"tapis:{table_id}:")
             and c["custom_id"].split(":")[3] in ("mv", "sel")]
    if not moves:
        return None
    version = max(int(c["custom_id"].split(":")[2]) for c in moves)
    return version, [c for c in moves if int(c["custom_id"].split(":")[2]) == version]


def table_message(stub: ShardedStub, lobby: Message, table_id: int) -> Message | None:
    """The newest message of the table's channel with its **My hand** button."""
    for m in reversed(stub.messages(lobby.channel_id)):
        if any(c.get("label") == "My hand" and c.get("custom_id", "").startswith(f"tapis:{table_id}:")
               for c in m.items()):
            return m
    return None


async def whose_turn(stub: ShardedStub, lobby: Message, table_id: int, humans: list[User]
                     ) -> tuple[User, Message, int, list[dict]]:
    """The seated human with moves now, found as a player would: through **My hand**."""
    for _ in range(200):
        message = await stub.wait_for(lambda: table_message(stub, lobby, table_id), timeout=10.0,
                                      what="the table message with My hand")
        for user in humans:
            hand = await stub.click(message, user, "My hand")
            found = controls_of(hand.last, table_id) if hand.ephemeral else None
            if found:
                return user, hand.last, found[0], found[1]
        await asyncio.sleep(0.05)  # the AI is to play
    raise AssertionError("nobody has moves")


async def test_kill9_of_a_shard_process_mid_deal_then_restart(
        sharded: ShardedStub, pg: str, procs: list[Process], tmp_path: Path) -> None:
    a = ShardRun(sharded, pg, (0,))
    await a.start()
    log = tmp_path / "b.log"
    procs.append(Process(sharded, pg, 1, log))
    await shard_up(sharded, 1)
    try:
        humans = members(sharded, sharded.g1, ("bea", "bob", "bil"))  # type: ignore[attr-defined]
        table_id, lobby = await open_in(sharded, sharded.g1.channels[0], humans[0], humans[1:])  # type: ignore
        rng = random.Random(4)
        for _ in range(3):  # moves in B's guild, straight to B
            user, hand, version, controls = await whose_turn(sharded, lobby, table_id, humans)
            inter = await click_control(sharded, hand, user, rng.choice(controls), rng)
            assert inter.callback_type == 7, inter.text

        # A DM click for B's table arrives at A (shard 0), is forwarded, and B applies it.
        user, hand, version, controls = await whose_turn(sharded, lobby, table_id, humans)
        dm = await sharded.wait_for(lambda: next((m for m in reversed(sharded.dms(user)) if (
            controls_of(m, table_id) or (0,))[0] == version), None), timeout=10.0, what="a DM with moves")
        dm_control = rng.choice(controls_of(dm, table_id)[1])  # type: ignore[index]
        before = dm.edits
        inter = await click_control(sharded, dm, user, dm_control, rng)
        assert inter.callback_type == 6 and not inter.late  # within Discord's window
        await sharded.wait_for(lambda: dm.edits > before, timeout=3.0, what="B's edit of the DM")
        assert "You played" in dm.text

        # Pre-kill buttons, then kill -9 B mid-deal and start a new B.
        user, hand, version, controls = await whose_turn(sharded, lobby, table_id, humans)
        procs[0].kill9()
        await asyncio.sleep(0.2)
        assert 1 not in sharded.sessions
        procs.append(Process(sharded, pg, 1, log))
        await shard_up(sharded, 1)
        inter = await click_control(sharded, hand, user, controls[0], rng)
        assert inter.callback_type == 7, inter.text  # resumed from the log: the old button works
        again = await click_control(sharded, hand, user, controls[0], rng)
        assert "out of date" in again.text  # and only once

        db = await Database.open(pg)
        try:
            actions = await db.run(store.load_actions, table_id)
            assert [x.version for x in actions] == list(range(len(actions))) and len(actions) > version
            assert await Ledger(db, TEST_CONFIG).accounts_total() == 0
        finally:
            await db.close()
    finally:
        await a.stop()
    for p in procs:
        p.stop()
    errors = [line for line in log.read_text().splitlines() if line.startswith(("ERROR", "CRITICAL"))]
    assert not errors, log.read_text()

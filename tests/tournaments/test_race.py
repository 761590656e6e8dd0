"""`/tournament end` racing `/tournament start`: the answer says what happened, decided under the
event's lock. The race is made deterministic: the first command's store transaction waits at a gate
while the second command reaches the event's lock, then both go on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.tournaments.model import CANCELLED, RUNNING
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import create, join_all, ledger_total, people, play_round, pool_balance, quiet


class CountedLock(asyncio.Lock):
    """An event's lock that counts who asked for it (so a test knows the second caller waits)."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def acquire(self) -> bool:
        self.asked += 1
        return await super().acquire()


class Gate:
    """Holds the next store transaction (once armed) until opened."""

    def __init__(self, run: TapisRun, monkeypatch: pytest.MonkeyPatch) -> None:
        assert run.db is not None
        self.real: Callable[..., Any] = run.db.transaction
        self.armed, self.reached, self.open = False, asyncio.Event(), asyncio.Event()
        monkeypatch.setattr(run.db, "transaction", self.transaction)

    async def transaction(self, *args: Any, **kwargs: Any) -> Any:
        if self.armed:
            self.armed = False
            self.reached.set()
            await self.open.wait()
        return await self.real(*args, **kwargs)


async def race(stub: DiscordStub, run: TapisRun, monkeypatch: pytest.MonkeyPatch, tid: int, host: User,
               first: str, second: str) -> tuple[str, str]:
    """``first`` holds the event's lock (its transaction held at the gate) while ``second`` waits for
    it; then both finish. Their answers."""
    lock = CountedLock()
    run.bot.tournaments.locks[tid] = lock  # type: ignore[union-attr]
    gate = Gate(run, monkeypatch)
    gate.armed = True
    one = await stub.slash(f"tournament {first}", host, stub.channel, wait=False, tournament=tid)
    await asyncio.wait_for(gate.reached.wait(), 5)
    two = await stub.slash(f"tournament {second}", host, stub.channel, wait=False, tournament=tid)
    await stub.wait_for(lambda: lock.asked >= 2, what="the second command waits for the event's lock")
    gate.open.set()
    await stub.answered(one)
    await stub.answered(two)
    await quiet(run)
    return one.text, two.text


async def test_end_after_a_start_that_won_the_race_ends_after_the_round(
        stub: DiscordStub, tapis: TapisRun, monkeypatch: pytest.MonkeyPatch) -> None:
    """`end` read the event in its lobby while `start` held the lock: the event started, so `end`
    makes round 1 the last (it does not claim a cancellation that did not happen)."""
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=3, buy_in=20, options="rounds=1")
    await join_all(stub, tid, m)
    started, ended = await race(stub, tapis, monkeypatch, tid, m[0], "start", "end")
    assert "starts" in started, started
    assert ended == f"Tournament #{tid} ends after this round.", ended
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == RUNNING and t.round == 1 and t.rounds == 1
    assert not any("cancelled" in msg.text for msg in stub.messages(stub.channel))
    assert await pool_balance(tapis, tid, stub.guild.id) == 3 * 20
    await play_round(tapis, tid)
    assert t.status == "finished" and len(t.tables) == 1
    assert await pool_balance(tapis, tid, stub.guild.id) == 0 and await ledger_total(tapis) == 0


async def test_start_after_an_end_that_won_the_race_is_refused_as_over(
        stub: DiscordStub, tapis: TapisRun, monkeypatch: pytest.MonkeyPatch) -> None:
    """`end` cancelled the event first: the waiting `start` says it is over, not "already started"."""
    m = people(stub, 3)
    tid = await create(stub, m[0], game="marias", rounds=3, buy_in=20, options="rounds=1")
    await join_all(stub, tid, m)
    ended, started = await race(stub, tapis, monkeypatch, tid, m[0], "end", "start")
    assert ended == f"Tournament #{tid} is cancelled; every buy-in is back.", ended
    assert "This tournament is over." in started, started
    t = tapis.bot.tournaments.get(tid)  # type: ignore[union-attr]
    assert t is not None and t.status == CANCELLED and not t.tables
    assert [await tapis.ledger.balance(stub.guild.id, u.id) for u in m] == [1000] * 3
    assert await ledger_total(tapis) == 0

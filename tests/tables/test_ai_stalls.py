"""An AI turn never stalls a table: a hung search, a driver stopped by an error, a queued search
whose table a human comes back to."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

import bot.tables.ai_pool as ai_pool
import bot.tables.autoplay as autoplay
from bot.tables import heal
from bot.tables.ai_pool import AiPool
from tests.tables.conftest import CH, HOST, G, Harness
from tests.tables.helpers import drive

STAY = {"type": "stay"}


def hang(path: str) -> None:
    """A search that never ends (run in a worker process): notes its pid, then sleeps."""
    Path(path).write_text(str(os.getpid()))
    time.sleep(3600)


def gone(pid: int) -> bool:
    """True once process ``pid`` no longer runs (reaped, or a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")
    except (FileNotFoundError, IndexError):
        return True


async def _table(h, ais: int = 2, **options):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": ais + 1, **options})
    for _ in range(ais):
        await h.svc.add_ai(t.id, HOST)
    return t


@pytest.fixture
async def threads(database, clock, config):
    """A harness whose AI pool runs on one thread lane (a patched search runs there)."""
    harness = await Harness(database, clock, config, {"high": _high()}, ai_pool=AiPool(1, "thread")).open()
    yield harness
    await harness.close()


def _high():
    from tests.tables.fakegame import GAME

    return GAME


async def test_a_hung_search_is_abandoned_and_its_seat_plays_the_timeout_move(threads, monkeypatch, caplog):
    """The first search hangs: at its deadline (budget + grace) it is given up, the seat folds (the
    game's timeout move), the lane gets a new worker and the next searches are played."""
    h = threads
    stop, calls = threading.Event(), []

    def search(game, level, view, legal, rng, state, known=None):
        calls.append(threading.get_ident())
        if len(calls) == 1:
            stop.wait(60)  # hung (released when the test ends)
        return STAY

    monkeypatch.setattr(autoplay, "searches", lambda policy: True)
    monkeypatch.setattr(autoplay, "search_move", search)
    monkeypatch.setattr(ai_pool, "SEARCH_GRACE", 0.5, raising=False)
    try:
        t = await _table(h, deals=1, dealer=0)  # seat 1, an AI, leads
        await h.svc.start(t.id, HOST)
        await asyncio.wait_for(drive(h, t), 20)
    finally:
        stop.set()
    assert t.status == "finished" and await h.total() == 0
    sql = "SELECT action FROM actions WHERE table_id = ? AND actor = 'ai' ORDER BY version"
    rows = await h.db.fetchall(sql, (t.id,))
    assert [json.loads(r[0])["type"] for r in rows][:2] == ["fold", "stay"]
    assert len(calls) >= 2 and calls[0] != calls[1]  # the second search ran on a new worker
    assert any("hung" in r.getMessage() for r in caplog.records)


async def test_a_hung_worker_process_is_killed_and_the_pool_serves_the_next_search(tmp_path):
    """One lane: the search queued behind a hung one waits no longer than the hung one's deadline,
    and the hung worker process does not outlive it."""
    pool = AiPool(1)
    try:
        note = tmp_path / "pid"
        await asyncio.wait_for(pool.run(os.getpid), 60)  # the worker is up: its start is not timed
        hung = asyncio.create_task(pool.run(hang, str(note), timeout=5.0))
        behind = asyncio.create_task(pool.run(os.getpid))
        with pytest.raises(ai_pool.SearchTimeout):
            await asyncio.wait_for(hung, 30)
        pid = int(note.read_text())
        fresh = await asyncio.wait_for(behind, 30)
        assert fresh != pid and fresh != os.getpid()
        for _ in range(100):
            if gone(pid):
                break
            await asyncio.sleep(0.05)
        assert gone(pid), "the hung worker process still runs"
        assert pool.budget.free == 1 and pool.budget.waiting == 0
    finally:
        pool.close()


async def test_closing_the_pool_ends_a_search_its_caller_gave_up(tmp_path):
    """A search abandoned by its caller (a driver cancelled at shutdown) is not left running in a
    worker process after ``close``: a hung one would keep the bot's process from exiting."""
    pool = AiPool(1)
    note = tmp_path / "pid"
    pid = 0
    try:
        task = asyncio.create_task(pool.run(hang, str(note), timeout=600.0))
        for _ in range(1600):  # a worker process starting on a loaded machine (CI beside other runs)
            if note.exists() and note.read_text():
                break
            await asyncio.sleep(0.05)
        assert note.exists() and note.read_text(), "the search never started in its worker"
        pid = int(note.read_text())
        assert pool.worker_pids() == [pid]
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        pool.close()
        assert pool.worker_pids() == []
        for _ in range(400):
            if gone(pid):
                break
            await asyncio.sleep(0.05)
        assert gone(pid), "the abandoned search still runs after close"
    finally:
        pool.close()
        if pid and not gone(pid):
            os.kill(pid, signal.SIGKILL)


async def test_an_ai_driver_stopped_by_an_error_starts_again_by_itself(h, monkeypatch):
    """Only AI seats are to act and the first AI move fails with a bug: the driver tries again
    (with backoff) and the table plays on, with nothing else happening to it."""
    real, failed = autoplay.ai_job, []

    def flaky(table, seat):
        if not failed:
            failed.append(seat)
            raise RuntimeError("planted")
        return real(table, seat)

    monkeypatch.setattr(autoplay, "ai_job", flaky)
    monkeypatch.setattr(heal, "delay", lambda n: 0.0)
    t = await _table(h, deals=2, dealer=0)
    await h.svc.start(t.id, HOST)
    await asyncio.wait_for(drive(h, t), 20)
    assert failed and t.status == "finished" and await h.total() == 0


async def test_an_ai_move_that_always_fails_becomes_the_timeout_move(h, monkeypatch, caplog):
    """Every AI move fails: after the retries the seat plays its timeout move, one driver at a time."""
    calls = []

    def broken(table, seat):
        calls.append(len(h.svc.drivers()))
        raise RuntimeError("planted")

    monkeypatch.setattr(autoplay, "ai_job", broken)
    monkeypatch.setattr(heal, "delay", lambda n: 0.0)
    t = await _table(h, deals=1, dealer=0)
    await h.svc.start(t.id, HOST)
    await asyncio.wait_for(drive(h, t), 20)
    assert t.status == "finished" and await h.total() == 0
    rows = await h.db.fetchall("SELECT action FROM actions WHERE table_id = ? AND actor = 'ai'", (t.id,))
    assert rows and all(json.loads(r[0]) == {"type": "fold"} for r in rows)
    assert len(calls) == len(rows) * (autoplay.DRIVER_RETRIES + 1) and set(calls) == {1}


async def test_a_driver_whose_timeout_move_fails_too_is_woken_later_not_in_a_loop(h, monkeypatch):
    """The AI move and the timeout move both fail: the driver stops after its retries and the
    table's alarm is set to wake it again (``on_deadline`` kicks the driver)."""
    def broken(table, seat):
        raise RuntimeError("planted")

    async def refused(*args, **kwargs):
        raise RuntimeError("planted too")

    monkeypatch.setattr(autoplay, "ai_job", broken)
    monkeypatch.setattr(heal, "delay", lambda n: 0.0)
    t = await _table(h, deals=1, dealer=0)
    s = h.svc.sessions[t.id]
    await h.svc.start(t.id, HOST)
    monkeypatch.setattr(s, "commit", refused)
    await asyncio.wait_for(h.idle(), 20)
    assert s.alarm == h.clock() + heal.MAX_DELAY and t.autoplay_seat() is not None
    monkeypatch.undo()
    h.clock.t += heal.MAX_DELAY
    await h.svc.fire_due_timers()
    await asyncio.wait_for(drive(h, t), 20)
    assert t.status == "finished" and await h.total() == 0


async def test_a_search_queued_while_nobody_watched_moves_up_when_a_human_comes_back(threads, monkeypatch):
    """Ann leaves (nobody present): the AI's search waits behind another table's, at the low
    priority. Ann comes back before a slot frees: the search is served first."""
    h = threads
    pool, order = h.svc.ai, []

    def search(game, level, view, legal, rng, state, known=None):
        order.append("table")
        return STAY

    monkeypatch.setattr(autoplay, "searches", lambda policy: True)
    monkeypatch.setattr(autoplay, "search_move", search)
    t = await _table(h, deals=1, dealer=2)  # Ann (seat 0) leads, then the AIs
    await h.svc.start(t.id, HOST)
    await pool.budget.acquire()  # every slot busy
    other = asyncio.create_task(pool.run(order.append, "other"))  # a table nobody watches, queued first
    await asyncio.sleep(0)
    await h.svc.act(t.id, HOST, t.version, STAY)
    await h.svc.leave(t.id, HOST)  # before the driver looks: its search is queued as nobody's
    for _ in range(1000):
        if pool.budget.waiting == 2:
            break
        await asyncio.sleep(0.01)
    assert pool.budget.waiting == 2
    await h.svc.join(t.id, HOST, "Ann")
    pool.budget.release()
    await asyncio.wait_for(other, 10)
    await asyncio.wait_for(h.idle(), 10)
    assert order[:2] == ["table", "other"]


async def test_a_deadline_stopped_by_an_error_is_tried_again(h, monkeypatch):
    """The timeout move of an absent player fails once with a bug: the deadline is re-armed with
    backoff (not dropped), and the next try plays it: the table does not wait for ever."""
    import bot.store.tables as store_tables
    from tests.tables.test_play import started

    real, failed = store_tables.append_action, []

    def once(conn, table_id, version, seat, action, actor, now):
        if actor == "timeout" and not failed:
            failed.append(version)
            raise RuntimeError("planted")
        return real(conn, table_id, version, seat, action, actor, now)

    t = await started(h, HOST, 200, deals=2)
    monkeypatch.setattr(store_tables, "append_action", once)
    h.clock.t = t.deadline
    await h.svc.fire_due_timers()
    assert failed == [0] and t.version == 0
    retry_at = h.svc.sessions[t.id].alarm
    assert retry_at is not None and h.clock.t < retry_at <= h.clock.t + heal.MAX_DELAY
    h.clock.t = retry_at
    await h.svc.fire_due_timers()
    assert t.version == 1 and any(e["type"] == "timeout" for e in h.events[-1][1])

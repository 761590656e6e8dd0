"""A real PostgreSQL restart: tables with the AI to move, and a turn timer, resume and finish.

The server is a private cluster (``tests/pg_cluster.py``) stopped with ``pg_ctl stop -m fast`` (as a
restart does: every session ended) while the AI moves of three tables are in flight (each held
inside its transaction by a ``pg_sleep`` until the server ends it: ``AdminShutdownError``, before
any COMMIT), kept down while the drivers retry (new connections refused), then started again.
Before the fix asyncpg's connection errors were not transient: each driver died with an ERROR and
its table stayed "playing" with nobody to drive it.
"""

from __future__ import annotations

import asyncio
import logging

import bot.store.tables as store_tables
from bot.config import Config
from bot.tables import heal
from tests.pg_cluster import PrivateCluster, pg_cluster  # noqa: F401 - the fixture
from tests.tables.conftest import BOB, CAT, CH, DAN, HOST, Clock, G, Harness
from tests.tables.fakegame import GAME as HIGH
from tests.tables.helpers import STAY

HOSTS = (HOST, BOB, CAT)


async def _wait_for(predicate, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def _human_to_speak_before_ai(h: Harness, t, host: int) -> None:
    """Play on until ``host`` is to speak with AI seats still to speak after them in the deal."""
    while not (t.to_act_users() == [host] and t.state.said.count(None) >= 2):
        if t.to_act_users() == [host]:
            await h.svc.act(t.id, host, t.version, STAY)
        else:
            driver = h.svc.sessions[t.id].driver
            assert driver is not None
            await driver


def _hold_ai_moves(monkeypatch) -> list[int]:
    """Hold each table's next AI move inside its transaction (a long ``pg_sleep`` before the action
    row is written) until -1 is appended to the returned list; the list gets each held table's id."""
    real = store_tables.append_action
    held: list[int] = []

    def slow(conn, table_id, version, seat, action, actor, now):
        if actor == "ai" and -1 not in held and table_id not in held:
            held.append(table_id)
            conn.execute("SELECT pg_sleep(60)")  # the server's shutdown ends it
        return real(conn, table_id, version, seat, action, actor, now)

    monkeypatch.setattr(store_tables, "append_action", slow)
    return held


async def test_tables_resume_and_finish_after_a_real_postgresql_restart(
        pg_cluster: PrivateCluster, monkeypatch, caplog) -> None:  # noqa: F811 - the fixture
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(heal, "FIRST_DELAY", 0.05)
    monkeypatch.setattr(heal, "MAX_DELAY", 0.4)
    clock = Clock()
    config = Config(starting_grant=1000, ai_delay=0.05, turn_timeout=120)
    h = await Harness(pg_cluster.url, clock, config, {"high": HIGH}).open()
    try:
        tables = []
        for host in HOSTS:  # one human and two AI seats each; the human leaves: the AI plays on
            t = await h.svc.create(G, CH, host, "P0", "high", {"players": 3, "deals": 50})
            for _ in range(2):
                await h.svc.add_ai(t.id, host, level="random")
            await h.svc.start(t.id, host)
            tables.append(t)
        timed = await h.svc.create(G, CH, DAN, "P0", "high", {"players": 1 + 1, "deals": 3})
        await h.svc.join(timed.id, HOST + 1, "P1")
        await h.svc.start(timed.id, DAN)  # two humans: only a turn timer moves it
        await asyncio.gather(*(_human_to_speak_before_ai(h, t, host) for t, host in zip(tables, HOSTS,
                                                                                          strict=True)))
        hold = _hold_ai_moves(monkeypatch)
        for t, host in zip(tables, HOSTS, strict=True):
            await h.svc.act(t.id, host, t.version, STAY)
            await h.svc.leave(t.id, host)  # the AI plays on; the table closes at the end of this deal
        versions = [t.version for t in tables]
        await _wait_for(lambda: len(hold) == len(tables), "every AI move to be held in its transaction")

        await asyncio.to_thread(pg_cluster.stop)  # ends the three transactions mid-flight
        hold.append(-1)  # the moves tried again once the server is back go through
        assert [t.version for t in tables] == versions, "an AI move committed before the server went down"
        assert all(t.status == "playing" and t.autoplay_seat() is not None for t in tables)
        # every driver hits the stopped server (and then refused connections) at least once
        await _wait_for(lambda: all(f"table {t.id}: AI move hit" in caplog.text for t in tables),
                        "every AI driver to hit the stopped server")
        clock.t = timed.deadline  # the timer fires while the server is down: re-armed, not dropped
        await h.svc.fire_due_timers()
        assert timed.version == 0 and h.svc.sessions[timed.id].alarm is not None
        await asyncio.sleep(0.3)  # the drivers keep retrying with backoff meanwhile
        assert all(d is not None and not d.done() for d in (h.svc.sessions[t.id].driver for t in tables))

        await asyncio.to_thread(pg_cluster.start)
        await h.idle()
        assert [t.status for t in tables] == ["finished"] * 3
        clock.t = h.svc.sessions[timed.id].alarm
        await h.svc.fire_due_timers()
        assert timed.version >= 1  # the timeout move went through the reconnected pool
        while timed.status == "playing":
            await h.svc.act(timed.id, timed.to_act_users()[0], timed.version, STAY)
        for t in [*tables, timed]:
            rows = await h.db.fetchall("SELECT version FROM actions WHERE table_id = ? ORDER BY version",
                                       (t.id,))
            assert [r[0] for r in rows] == list(range(t.version))  # nothing lost, nothing twice
            assert await h.escrow(t.id) == 0
        assert await h.total() == 0
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == []
        for t in tables:  # one warning per run of failures, not one per retry
            assert caplog.text.count(f"table {t.id}: AI move hit") == 1
        assert caplog.text.count(f"timer of table {timed.id} hit") == 1
    finally:
        await h.close()

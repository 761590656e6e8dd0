"""Self-healing: one transient store fault in the AI driver or a deadline never stalls a table."""

from __future__ import annotations

import logging
import sqlite3

import bot.store.tables as store_tables
from bot.tables import heal
from tests.tables.conftest import BOB, HOST
from tests.tables.helpers import STAY
from tests.tables.test_play import started


def fail_once(monkeypatch, when=lambda actor: True) -> list[str]:
    """Make the next matching ``append_action`` (inside its transaction) raise 'database is locked'."""
    real = store_tables.append_action
    failed: list[str] = []

    def flaky(conn, table_id, version, seat, action, actor, now):
        if not failed and when(actor):
            failed.append(actor)
            raise sqlite3.OperationalError("database is locked")
        return real(conn, table_id, version, seat, action, actor, now)

    monkeypatch.setattr(store_tables, "append_action", flaky)
    monkeypatch.setattr(heal, "FIRST_DELAY", 0.01)
    return failed


def problems(caplog) -> tuple[list[str], list[str]]:
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    return warnings, errors


async def test_ai_driver_survives_a_locked_database(h, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    failed = fail_once(monkeypatch, when=lambda actor: actor == "ai")
    t = await started(h, HOST, ai=2, deals=3)
    for _ in range(200):
        await h.idle()
        if t.status != "playing":
            break
        await h.svc.act(t.id, HOST, t.version, STAY)
    assert failed == ["ai"], "the fault was never injected"
    assert t.status == "finished"
    rows = await h.db.fetchall("SELECT version FROM actions WHERE table_id = ? ORDER BY version", (t.id,))
    assert [r[0] for r in rows] == list(range(t.version))  # nothing lost, nothing twice
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    warnings, errors = problems(caplog)
    assert errors == []
    assert [w for w in warnings if "database is locked" in w] == [
        f"table {t.id}: AI move hit OperationalError: database is locked; retrying with backoff"]


async def test_deadline_survives_a_locked_database(h, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    t = await started(h, HOST, BOB, deals=2)
    failed = fail_once(monkeypatch, when=lambda actor: actor == "timeout")
    h.clock.t = t.deadline
    await h.svc.fire_due_timers()
    assert failed == ["timeout"] and t.version == 0
    retry_at = h.svc.sessions[t.id].alarm
    assert h.clock.t < retry_at <= h.clock.t + 0.01  # re-armed with backoff, not dropped
    h.clock.t = retry_at
    await h.svc.fire_due_timers()
    assert t.version == 1
    assert any(e["type"] == "timeout" for e in h.events[-1][1])
    while t.status == "playing":
        await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    warnings, errors = problems(caplog)
    assert errors == []
    assert len([w for w in warnings if "database is locked" in w]) == 1


async def test_repeated_faults_warn_once_and_back_off(h, monkeypatch, caplog):
    caplog.set_level(logging.INFO)
    t = await started(h, HOST, BOB, deals=2)
    real = store_tables.append_action
    count = {"n": 0}

    def locked_three_times(conn, *args):
        if count["n"] < 3:
            count["n"] += 1
            raise sqlite3.OperationalError("disk I/O error")
        return real(conn, *args)

    monkeypatch.setattr(store_tables, "append_action", locked_three_times)
    start = h.clock.t = t.deadline
    waits = []
    while count["n"] < 3 or t.version == 0:
        await h.svc.fire_due_timers()
        if t.version:
            break
        waits.append(h.svc.sessions[t.id].alarm - h.clock.t)
        h.clock.t = h.svc.sessions[t.id].alarm
    assert waits == [0.5, 1.0, 2.0] and t.version == 1 and h.clock.t == start + 3.5
    warnings, errors = problems(caplog)
    assert errors == [] and len([w for w in warnings if "disk I/O error" in w]) == 1

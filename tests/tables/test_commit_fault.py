"""A failure after COMMIT (issue 26, item 9): the table is rebuilt from its log, never left behind it.

The fault is injected by wrapping ``Database.transaction``: the real transaction commits, then the
call raises (as a lost commit acknowledgement or a crash in the caller's code right after COMMIT
would). Before the fix the table kept its old state and version, and every later move failed with
an IntegrityError on the ``actions`` primary key until a restart.
"""

from __future__ import annotations

import logging

import pytest

from bot.store import tables as store
from bot.tables import TableError
from bot.tables.replay import SessionLog, rebuild
from tests.backends import BACKENDS
from tests.tables.conftest import BOB, HOST, Harness
from tests.tables.helpers import STAY, drive
from tests.tables.test_play import started

FOLD = {"type": "fold"}


class AfterCommit(Exception):
    """The injected failure."""


def fail_after_commit(monkeypatch, db, times: int = 1) -> list[int]:
    """Make the next ``times`` transactions that append an action raise right after their COMMIT."""
    real = db.transaction
    hits: list[int] = []

    async def flaky(fn, *args, **kwargs):
        result = await real(fn, *args, **kwargs)
        if len(hits) < times and "append_action" in getattr(fn, "__code__", fn.__call__).co_names:
            hits.append(1)
            raise AfterCommit("the connection dropped after COMMIT")
        return result

    monkeypatch.setattr(db, "transaction", flaky)
    return hits


async def assert_matches_log(h, t) -> None:
    row = await h.db.run(store.load_table, t.id)
    actions = await h.db.run(store.load_actions, t.id)
    assert t.version == row.version == len(actions)
    assert [s.to_json() for s in t.seats] == row.seats and t.status == row.status
    state = rebuild(SessionLog(t.rules, len(row.seats), t.options, row.seed, actions))
    for seat in (None, *range(len(row.seats))):
        assert t.state.view(seat) == state.view(seat)


async def test_a_failure_after_commit_rebuilds_the_table_from_its_log(h, monkeypatch, caplog):
    caplog.set_level(logging.WARNING)
    t = await started(h, HOST, BOB, deals=3)
    hits = fail_after_commit(monkeypatch, h.db)
    user, version = t.to_act_users()[0], t.version
    await h.svc.act(t.id, user, version, STAY)  # committed: the move counts, whatever came after
    assert hits == [1], "the fault was never injected"
    await assert_matches_log(h, t)
    assert t.version == version + 1
    # the next move works (before the fix: IntegrityError on every later move until a restart)
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await assert_matches_log(h, t)
    await drive(h, t)
    assert t.status == "finished"
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    assert any("after COMMIT" in r.getMessage() or "rebuilt from its log" in r.getMessage()
               for r in caplog.records if r.levelno == logging.WARNING)


async def test_the_final_move_failing_after_commit_still_ends_the_session(h, monkeypatch):
    t = await started(h, HOST, BOB, deals=1)
    while t.status == "playing":
        users = t.to_act_users()
        row = await h.db.run(store.load_table, t.id)
        actions = await h.db.run(store.load_actions, t.id)
        probe = rebuild(SessionLog(t.rules, len(row.seats), t.options, row.seed, actions))
        probe.apply(t.to_act()[0], STAY)
        if probe.is_over():
            fail_after_commit(monkeypatch, h.db)
        await h.svc.act(t.id, users[0], t.version, STAY)
    assert t.status == "finished" and t.results is not None
    await assert_matches_log(h, t)
    assert await h.escrow(t.id) == 0 and await h.total() == 0


async def test_a_failure_before_commit_changes_nothing(h, monkeypatch):
    t = await started(h, HOST, BOB, deals=2)
    real = h.db.transaction

    async def broken(fn, *args, **kwargs):
        raise AfterCommit("the database is gone")

    monkeypatch.setattr(h.db, "transaction", broken)
    version = t.version
    try:
        await h.svc.act(t.id, t.to_act_users()[0], version, STAY)
    except AfterCommit:
        pass
    else:
        raise AssertionError("the failure was swallowed")
    monkeypatch.setattr(h.db, "transaction", real)
    assert t.version == version
    await assert_matches_log(h, t)
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await assert_matches_log(h, t)


async def test_when_the_check_fails_too_the_next_change_catches_up_first(h, monkeypatch):
    """The commit's failure and the read that checks it both fail: the table is marked behind,
    the next click (chosen on the old table) is refused as stale, and the one after it works."""
    t = await started(h, HOST, BOB, deals=3)
    fail_after_commit(monkeypatch, h.db)
    real_run = h.db.run
    reads: list[int] = []

    async def down(fn, *args, **kwargs):
        if fn is store.load_table and not reads:
            reads.append(1)
            raise AfterCommit("still down")
        return await real_run(fn, *args, **kwargs)

    monkeypatch.setattr(h.db, "run", down)
    version = t.version
    try:
        await h.svc.act(t.id, t.to_act_users()[0], version, STAY)
    except AfterCommit:
        pass
    else:
        raise AssertionError("the failure was swallowed")
    assert reads == [1] and t.version == version  # memory is behind its log for now
    from bot.tables import TableError

    try:
        await h.svc.act(t.id, t.to_act_users()[0], version, STAY)
    except TableError:
        pass
    else:
        raise AssertionError("a move chosen on the stale table was applied")
    await assert_matches_log(h, t)
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await assert_matches_log(h, t)


async def test_a_deadline_after_an_unchecked_failure_plays_on_the_rebuilt_table(h, monkeypatch, caplog):
    """Marked behind, the table is rebuilt before its deadline fires: the timeout is played at the
    logged version (no IntegrityError, no ERROR), for the seat the log says is to act."""
    t = await started(h, HOST, BOB, deals=3)
    fail_after_commit(monkeypatch, h.db)
    real_run = h.db.run
    reads: list[int] = []

    async def down(fn, *args, **kwargs):
        if fn is store.load_table and not reads:
            reads.append(1)
            raise AfterCommit("still down")
        return await real_run(fn, *args, **kwargs)

    monkeypatch.setattr(h.db, "run", down)
    version = t.version
    try:
        await h.svc.act(t.id, t.to_act_users()[0], version, STAY)
    except AfterCommit:
        pass
    h.clock.t += h.config.turn_timeout * 3
    assert await h.svc.fire_due_timers() == 1  # the alarm of the move that failed
    await h.svc.fire_due_timers()  # (the deadline re-armed by the rebuild, if it was already due)
    await h.idle()
    await assert_matches_log(h, t)
    assert t.version >= version + 2  # the logged move, then at least one timeout
    actors = [r[0] for r in await h.db.fetchall(
        "SELECT actor FROM actions WHERE table_id = ? AND version > ? ORDER BY version", (t.id, version))]
    assert actors[0] == "timeout"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_another_owners_move_at_the_same_version_is_not_taken_for_ours(h):
    """Two services holding one table (two processes, while a shard changes hands): the other one
    commits a move at this version first. Ours collides with it in the log; the log's move is not
    taken for ours (the player would read "You played" a move they did not make): ours is refused
    as stale and the table in memory is the log's."""
    t = await started(h, HOST, BOB, deals=3)
    other = await Harness(h.path, h.clock, h.config, h.games).open()
    try:
        await other.svc.resume_all()
        user, version = t.to_act_users()[0], t.version
        await other.svc.act(t.id, user, version, FOLD)  # the other owner's move lands first
        with pytest.raises(TableError, match="out of date"):
            await h.svc.act(t.id, user, version, STAY)
        logged = await h.db.run(store.load_actions, t.id)
        assert logged[version].action == FOLD
        await assert_matches_log(h, t)
    finally:
        await other.close()

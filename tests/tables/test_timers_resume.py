"""Durable deadlines, away seats, and resuming every table from its log after a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time

import pytest

from bot.tables import TableService
from tests.backends import BACKENDS
from tests.tables.conftest import BOB, CAT, HOST, G
from tests.tables.helpers import STAY, drive, views
from tests.tables.test_play import started

USERS = [HOST, BOB, CAT, None]
pytestmark = pytest.mark.parametrize("backend", BACKENDS)  # durable deadlines and resume on both stores


async def test_timeout_plays_the_timeout_move(h):
    t = await started(h, HOST, BOB, deals=5)
    user = t.to_act_users()[0]
    seat = t.seat_of(user)
    assert t.deadline == h.clock.t + 120
    h.clock.t += 119
    assert await h.svc.fire_due_timers() == 0 and t.version == 0
    h.clock.t += 1
    await h.svc.fire_due_timers()
    assert t.version == 1
    assert h.events[-1][1][:2] == [{"type": "timeout", "seat": seat}, {"type": "fold", "seat": seat}]
    assert t.seats[seat].timeouts_in_row == 1 and not t.seats[seat].away
    row = await h.db.fetchone("SELECT actor FROM actions WHERE table_id = ? AND version = 0", (t.id,))
    assert row[0] == "timeout"
    # the next human got a fresh deadline
    assert t.deadline == h.clock.t + 120


async def test_acting_resets_the_timeout_count(h):
    t = await started(h, HOST, BOB, deals=20)
    first = t.to_act_users()[0]
    h.clock.t += 120
    await h.svc.fire_due_timers()
    assert t.seats[t.seat_of(first)].timeouts_in_row == 1
    # the other player acts until the first is to act again, who then acts in time: back to 0
    while t.to_act_users() != [first]:
        await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await h.svc.act(t.id, first, t.version, STAY)
    assert t.seats[t.seat_of(first)].timeouts_in_row == 0


async def test_two_timeouts_make_the_seat_away_and_the_ai_finishes(h):
    t = await started(h, HOST, BOB, deals=6)
    b = t.seat_of(BOB)
    timeouts = 0
    for _ in range(200):
        await h.idle()
        if t.status != "playing":
            break
        users = t.to_act_users()
        if users == [BOB]:
            h.clock.t = t.deadline
            await h.svc.fire_due_timers()
            timeouts += 1
        else:
            assert users == [HOST]
            await h.svc.act(t.id, HOST, t.version, STAY)
    assert timeouts == 2 and t.status == "finished"
    assert t.seats[b].away
    assert any({"type": "away", "seat": b, "reason": "timeout"} in evs for _, evs in h.events)
    actors = [r[0] for r in await h.db.fetchall(
        "SELECT actor FROM actions WHERE table_id = ? AND seat = ? ORDER BY version", (t.id, b))]
    assert actors[:2] == ["timeout", "timeout"] and set(actors[2:]) == {"ai"}
    assert await h.ledger.balance(G, BOB) == 1000 - t.buy_in + t.state.stacks[b]
    assert await h.escrow(t.id) == 0 and await h.total() == 0


async def test_resume_gives_same_version_and_views(h):
    t = await started(h, HOST, BOB, CAT, ai=1, deals=8)
    for _ in range(7):
        await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
        await h.idle()
    await h.svc.leave(t.id, CAT)
    await h.idle()
    before = (t.version, json.dumps(views(t, USERS)), [dataclasses.asdict(s) for s in t.seats], t.deadline)
    tid = t.id
    await h.reopen()
    resumed = await h.svc.resume_all()
    assert [x.id for x in resumed] == [tid]
    t2 = await h.svc.get(tid)
    assert t2 is not t
    after = (t2.version, json.dumps(views(t2, USERS)), [dataclasses.asdict(s) for s in t2.seats], t2.deadline)
    assert after == before
    assert await h.svc.resume_all() == []  # never resumed twice
    await drive(h, t2)
    assert t2.status == "finished" and await h.escrow(tid) == 0 and await h.total() == 0


async def test_downtime_never_counts_against_a_player(h):
    """A deadline that passed while the bot was down is re-armed to max(stored, now + turn_timeout)."""
    t = await started(h, HOST, BOB, deals=5)
    tid, deadline, user = t.id, t.deadline, t.to_act_users()[0]
    await h.reopen()
    h.clock.t = deadline + 3600  # the bot was down for an hour past the deadline
    (t2,) = await h.svc.resume_all()
    full_turn = h.clock.t + 120
    assert t2.deadline == full_turn and h.svc.sessions[tid].alarm == full_turn
    assert await h.svc.fire_due_timers() == 0 and t2.version == 0  # nothing timed out at restart
    h.clock.t = full_turn - 1
    assert await h.svc.fire_due_timers() == 0 and t2.version == 0
    h.clock.t = full_turn
    await h.svc.fire_due_timers()
    assert t2.version == 1
    assert {"type": "timeout", "seat": t2.seat_of(user)} in h.events[-1][1]


async def test_resume_keeps_a_later_stored_deadline(h, config):
    """Down for 10 s of a 120 s turn: the player gets a full turn from the restart, never less."""
    t = await started(h, HOST, BOB, deals=5)
    tid, deadline = t.id, t.deadline
    await h.reopen()
    h.svc.config = dataclasses.replace(config, turn_timeout=30)  # a stored deadline beyond now + timeout
    h.clock.t += 10
    (t2,) = await h.svc.resume_all()
    assert t2.deadline == deadline == h.svc.sessions[tid].alarm


async def test_ai_move_pending_at_shutdown_is_played_once_after_resume(h, config, tmp_path):
    slow = dataclasses.replace(config, ai_delay=3600)
    h.svc.config = slow
    t = await h.svc.create(G, 10, HOST, "Ann", "high", {"deals": 3})
    await h.svc.add_ai(t.id, HOST, level="random")
    await h.svc.add_ai(t.id, HOST, level="random")
    await h.svc.start(t.id, HOST)  # no h.idle(): the AI driver sleeps for an hour
    if t.autoplay_seat() is None:  # the host is first: act so an AI is to act
        await h.svc.act(t.id, HOST, t.version, STAY)
    assert t.autoplay_seat() is not None
    version, tid = t.version, t.id
    await h.reopen()  # the AI driver was sleeping: cancelled, nothing applied
    assert (await h.db.fetchone("SELECT version FROM tables WHERE id = ?", (tid,)))[0] == version
    (t2,) = await h.svc.resume_all()
    assert t2.version == version
    await drive(h, t2)
    assert t2.status == "finished"
    rows = await h.db.fetchall("SELECT version FROM actions WHERE table_id = ? ORDER BY version", (tid,))
    assert [r[0] for r in rows] == list(range(t2.version))
    assert await h.total() == 0 and await h.escrow(tid) == 0


async def test_scheduler_fires_by_itself(database, config):
    """The real scheduler task with the real clock and a very short timeout."""
    from tests.tables.conftest import Harness
    from tests.tables.fakegame import GAME

    cfg = dataclasses.replace(config, turn_timeout=0.05)
    h2 = await Harness(database, time.time, cfg, {"high": GAME}).open()
    try:
        t = await started(h2, HOST, BOB, deals=2)
        for _ in range(500):
            if t.version >= 2:
                break
            await asyncio.sleep(0.01)
        assert t.version >= 2
        assert any(e["type"] == "timeout" for _, evs in h2.events for e in evs)
    finally:
        await h2.close()


async def test_close_stops_tasks(h):
    t = await started(h, HOST, BOB, deals=3)
    assert isinstance(h.svc, TableService) and t.deadline is not None
    await h.svc.close()
    assert h.svc.timers._task is None

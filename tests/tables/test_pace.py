"""Paces (issue 28.2/28.3): each pace's deadline, the correspondence reminder (once, through a
restart), and the AI taking a correspondence seat only after the configured missed deadlines."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.tables.pace import table_pace
from bot.tables.reminders import REMINDED
from tests.backends import BACKENDS
from tests.tables.conftest import BOB, HOST
from tests.tables.helpers import STAY
from tests.tables.test_play import started

pytestmark = pytest.mark.parametrize("backend", BACKENDS)

HOUR = 3600.0


def reminders(h, table_id):
    return [evs for tid, evs in h.events
            if tid == table_id and any(ev.get("type") == "reminder" for ev in evs)]


@pytest.mark.parametrize("pace,seconds", [("fast", 30.0), ("normal", 120.0), ("slow", 600.0),
                                          ("correspondence", 48 * HOUR)])
async def test_each_pace_sets_the_deadline(h, pace, seconds):
    t = await started(h, HOST, BOB, deals=5, pace=pace)
    assert t.options["pace"] == pace
    assert t.deadline == h.clock.t + seconds
    assert table_pace(h.svc.config, t.options).seconds == seconds
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    h.clock.t += 1
    assert t.deadline == h.clock.t - 1 + seconds  # the next player's fresh deadline at this pace


async def test_default_pace_comes_from_the_config(h, config):
    h.svc.config = dataclasses.replace(config, default_pace="slow")
    t = await started(h, HOST, BOB, deals=5)
    assert t.options["pace"] == "slow" and t.deadline == h.clock.t + 600


async def test_correspondence_reminder_once_through_a_restart(h):
    t = await started(h, HOST, BOB, deals=5, pace="correspondence")
    tid, deadline, user = t.id, t.deadline, t.to_act_users()[0]
    seat = t.seat_of(user)
    remind = deadline - 6 * HOUR
    assert h.svc.sessions[tid].alarm == remind  # woken first for the reminder
    h.clock.t = remind - 1
    assert await h.svc.fire_due_timers() == 0
    h.clock.t = remind
    await h.svc.fire_due_timers()
    assert reminders(h, tid) == [[{"type": "reminder", "seats": [seat], "deadline": deadline}]]
    assert t.version == 0 and h.svc.sessions[tid].alarm == deadline  # then the deadline itself
    row = await h.db.fetchone("SELECT extra_messages FROM tables WHERE id = ?", (tid,))
    assert f'"{REMINDED}":{int(deadline)}' in row[0]  # stored at once, not with the next move
    await h.reopen()
    h.clock.t += 60
    (t2,) = await h.svc.resume_all()
    deadline = t2.deadline  # within the reminder's lead of the restart: pushed back to that lead
    assert deadline == h.clock.t + 6 * HOUR and h.svc.sessions[tid].alarm == deadline  # no 2nd reminder
    h.clock.t = deadline - 1
    assert await h.svc.fire_due_timers() == 0
    assert len(reminders(h, tid)) == 1  # the one before the restart, none after it
    h.clock.t = deadline
    await h.svc.fire_due_timers()
    assert t2.version == 1 and not t2.seats[seat].away  # the timeout move, the seat kept


async def test_a_reminder_owed_at_a_restart_is_sent_after_it(h):
    t = await started(h, HOST, BOB, deals=5, pace="correspondence")
    tid, deadline = t.id, t.deadline
    await h.reopen()  # down across the reminder's time, back before the deadline
    h.clock.t = deadline - HOUR
    (t2,) = await h.svc.resume_all()
    assert t2.deadline == h.clock.t + 6 * HOUR  # downtime never counts: the reminder's lead at least
    for _ in range(200):  # the reminder is owed at once (the scheduler's own task may send it)
        await h.svc.fire_due_timers()
        if reminders(h, tid) and h.svc.sessions[tid].alarm is not None:
            break
        await asyncio.sleep(0.01)
    assert len(reminders(h, tid)) == 1 and h.svc.sessions[tid].alarm == t2.deadline


async def test_a_reminder_sent_before_a_long_downtime_still_counts(h):
    t = await started(h, HOST, BOB, deals=5, pace="correspondence")
    tid, deadline = t.id, t.deadline
    h.clock.t = deadline - 6 * HOUR
    await h.svc.fire_due_timers()
    assert len(reminders(h, tid)) == 1
    await h.reopen()
    h.clock.t = deadline + 3 * 24 * HOUR  # three days down, past the deadline
    (t2,) = await h.svc.resume_all()
    assert t2.deadline == h.clock.t + 6 * HOUR and h.svc.sessions[tid].alarm == t2.deadline


async def test_correspondence_seat_goes_to_the_ai_only_after_three_missed_deadlines(h):
    t = await started(h, HOST, BOB, deals=20, pace="correspondence")
    b = t.seat_of(BOB)
    missed = 0
    for _ in range(400):
        await h.idle()
        if t.status != "playing" or t.seats[b].away:
            break
        if t.to_act_users() == [BOB]:
            h.clock.t = t.deadline
            await h.svc.fire_due_timers()
            missed += 1
            assert t.seats[b].away == (missed == 3)
        else:
            await h.svc.act(t.id, HOST, t.version, STAY)
    assert missed == 3 and t.seats[b].away


async def test_a_restart_does_not_restart_a_days_long_slow_turn(h, config):
    """An operator's slow pace of two days: a restart an hour into a turn keeps its deadline (the
    grace after a start is at most six hours), as at correspondence; a turn whose deadline passed
    while the bot was down gets those six hours."""
    h.svc.config = dataclasses.replace(config, pace_slow=48 * HOUR)
    t = await started(h, HOST, BOB, deals=5, pace="slow")
    tid, deadline = t.id, t.deadline
    assert deadline == h.clock.t + 48 * HOUR
    await h.reopen()
    h.svc.config = dataclasses.replace(config, pace_slow=48 * HOUR)
    h.clock.t += HOUR
    (t2,) = await h.svc.resume_all()
    assert t2.deadline == deadline and h.svc.sessions[tid].alarm == deadline  # not a new 48 hours
    await h.reopen()
    h.svc.config = dataclasses.replace(config, pace_slow=48 * HOUR)
    h.clock.t = deadline + 10 * HOUR  # down across the deadline
    (t3,) = await h.svc.resume_all()
    assert t3.deadline == h.clock.t + 6 * HOUR

"""Issue 19 point 2: one ``TableSession`` per running table, in one registry, dropped when it ends."""

from __future__ import annotations

import pytest

from bot.tables import TableError
from bot.tables import session as session_mod
from bot.tables.session import TableSession
from tests.tables.conftest import BOB, CAT, CH, HOST, G
from tests.tables.helpers import STAY, drive


async def test_a_session_holds_the_table_and_its_runtime(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3, "dealer": 0})  # Bob acts first
    s = h.svc.sessions[t.id]
    assert isinstance(s, TableSession) and s.table is t and s.id == t.id
    assert s.alarm == t.deadline == h.clock.t + h.config.lobby_expiry_hours * 3600  # the lobby expiry
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.add_ai(t.id, HOST, level="random")
    await h.svc.start(t.id, HOST)
    assert t.to_act_users() == [BOB]
    assert s.alarm == t.deadline == h.clock.t + h.config.turn_timeout  # now Bob's turn deadline
    assert not s.pending and not s.draining  # every batch was delivered


async def test_ending_a_table_drops_its_session_but_get_still_finds_it(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3, "deals": 2})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.join(t.id, CAT, "Cat")
    await h.svc.start(t.id, HOST)
    s = h.svc.sessions[t.id]
    await drive(h, t)
    assert t.status == "finished"
    assert t.id not in h.svc.sessions and h.svc.sessions == {}
    assert s.idle and s.alarm is None and s.driver is None  # nothing of it runs any more
    assert await h.svc.get(t.id) is t  # the final render and late clicks still find the table
    with pytest.raises(TableError, match="over"):
        await h.svc.act(t.id, HOST, t.version, STAY)
    await h.svc.set_dm_closed(t.id, BOB)  # a DM refused after the end is still recorded, in order
    assert t.seats[1].dm_closed and h.events[-1] == (t.id, [{"type": "dm_closed", "seat": 1, "closed": True}])


async def test_a_cancelled_lobby_leaves_the_registry(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3})
    await h.svc.end(t.id, HOST, is_admin=False)
    assert t.status == "cancelled" and t.id not in h.svc.sessions and h.svc.timers.armed() == {}
    assert await h.svc.get(t.id) is t


async def test_only_the_last_ended_tables_stay_in_memory(h, monkeypatch):
    monkeypatch.setattr(session_mod, "KEEP_CLOSED", 2)
    ids = []
    for _ in range(3):
        t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3})
        await h.svc.end(t.id, HOST, is_admin=False)
        ids.append(t.id)
    assert [await h.svc.get(i) is not None for i in ids] == [False, True, True]
    assert list(h.svc.tables) == ids[1:]

"""Play: acting, refusals that change nothing, AI seats, leaving, closing, payouts."""

from __future__ import annotations

import json

import pytest

from bot.tables import TableError
from tests.tables.conftest import BOB, CAT, CH, HOST, G
from tests.tables.helpers import STAY, drive, views


async def started(h, *humans, ai=0, **options):
    options.setdefault("players", len(humans) + ai)
    t = await h.svc.create(G, CH, humans[0], "P0", "high", options)
    for i, u in enumerate(humans[1:], 1):
        await h.svc.join(t.id, u, f"P{i}")
    for _ in range(ai):
        await h.svc.add_ai(t.id, humans[0], level="random")
    await h.svc.start(t.id, humans[0])
    await h.idle()
    return t


async def snapshot_db(h, t):
    rows = await h.db.fetchall("SELECT * FROM tables WHERE id = ?", (t.id,))
    acts = await h.db.fetchall("SELECT * FROM actions WHERE table_id = ?", (t.id,))
    ledger = await h.db.fetchall("SELECT * FROM ledger")
    return [tuple(r) for r in rows], [tuple(r) for r in acts], [tuple(r) for r in ledger]


async def test_stale_version_and_double_apply_refused(h):
    t = await started(h, HOST, BOB, CAT, deals=3)
    user = t.to_act_users()[0]
    v = t.version
    await h.svc.act(t.id, user, v, STAY)
    assert t.version == v + 1
    before = await snapshot_db(h, t)
    view = json.dumps(views(t, [HOST, BOB, CAT, None]))
    # the same click again (same version): refused, nothing applied
    with pytest.raises(TableError) as info:
        await h.svc.act(t.id, user, v, STAY)
    # no bot synced the commands here: the plain form
    assert str(info.value) == ("Those buttons are out of date: the table has moved on. Use the latest "
                               "message or `/hand`.")
    nxt = t.to_act_users()[0]
    with pytest.raises(TableError, match="out of date"):
        await h.svc.act(t.id, nxt, v, STAY)
    with pytest.raises(TableError, match="out of date"):
        await h.svc.act(t.id, nxt, v + 5, STAY)
    other = next(u for u in (HOST, BOB, CAT) if u != nxt)
    with pytest.raises(TableError, match="not your turn"):
        await h.svc.act(t.id, other, t.version, STAY)
    with pytest.raises(TableError, match="not seated"):
        await h.svc.act(t.id, 4242, t.version, STAY)
    assert await snapshot_db(h, t) == before
    assert json.dumps(views(t, [HOST, BOB, CAT, None])) == view


async def test_illegal_move_changes_nothing(h):
    t = await started(h, HOST, BOB, deals=2)
    user = t.to_act_users()[0]
    before = await snapshot_db(h, t)
    view = json.dumps(views(t, [HOST, BOB, None]))
    for bad in ({"type": "raise"}, {"type": "stay", "extra": 1}, {"type": 3}, {}):
        with pytest.raises(TableError) as info:
            await h.svc.act(t.id, user, t.version, bad)
        assert str(info.value).endswith(".") and "Traceback" not in str(info.value)
    assert t.version == 0
    assert await snapshot_db(h, t) == before
    assert json.dumps(views(t, [HOST, BOB, None])) == view


async def test_whole_session_with_ai_seats_pays_out(h):
    t = await started(h, HOST, ai=3, deals=6)
    assert len(t.seats) == 4
    await drive(h, t)
    assert t.status == "finished" and t.state.is_over()
    stacks = list(t.state.stacks)
    assert sum(stacks) == 4 * t.buy_in
    end = h.events[-1][1][-1]
    assert end["type"] == "table_end" and end["payouts"] == stacks
    assert end["results"] == [s - t.buy_in for s in stacks] == t.results
    assert await h.ledger.balance(G, HOST) == 1000 - t.buy_in + stacks[0]
    assert await h.escrow(t.id) == 0
    assert await h.ledger.account_balance(h.ledger.house(G)) == -1000 - 3 * t.buy_in + sum(stacks[1:])
    assert await h.total() == 0
    assert await h.action_count(t.id) == t.version
    actors = {r[0] for r in await h.db.fetchall("SELECT DISTINCT actor FROM actions")}
    assert actors == {"player", "ai"}
    stat = await h.db.fetchone("SELECT sessions, net FROM stats WHERE user_id = ?", (HOST,))
    assert tuple(stat) == (1, stacks[0] - t.buy_in)
    assert await h.svc.tables_in_channel(CH) == []
    with pytest.raises(TableError, match="over"):
        await h.svc.act(t.id, HOST, t.version, STAY)


async def test_leave_mid_session_still_pays_the_player(h):
    t = await started(h, HOST, BOB, ai=1, deals=4)
    await h.svc.leave(t.id, BOB)
    b = t.seat_of(BOB)
    assert t.seats[b].away and {"type": "away", "seat": b, "reason": "left"} in h.events[-1][1]
    with pytest.raises(TableError, match="join to take it back"):
        await h.svc.act(t.id, BOB, t.version, STAY)
    with pytest.raises(TableError, match="already left"):
        await h.svc.leave(t.id, BOB)
    await drive(h, t)
    assert t.status == "finished"
    final = t.state.stacks[b]
    assert await h.ledger.balance(G, BOB) == 1000 - t.buy_in + final
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    assert (await h.db.fetchone("SELECT sessions FROM stats WHERE user_id = ?", (BOB,)))[0] == 1


async def test_rejoin_takes_the_seat_back(h):
    t = await started(h, HOST, BOB, deals=10)
    await h.svc.leave(t.id, BOB)
    await h.idle()  # the AI plays Bob's turns; Ann must act now
    assert t.to_act_users() == [HOST]
    await h.svc.join(t.id, BOB, "Bob")
    b = t.seat_of(BOB)
    assert not t.seats[b].away and h.events[-1][1] == [{"type": "back", "seat": b}]
    with pytest.raises(TableError, match="already playing"):
        await h.svc.join(t.id, BOB, "Bob")
    back_at = t.version
    for _ in range(6):  # both humans act; the AI never plays for Bob again
        await h.idle()
        users = t.to_act_users()
        assert len(users) == 1
        await h.svc.act(t.id, users[0], t.version, STAY)
    rows = await h.db.fetchall("SELECT actor FROM actions WHERE table_id = ? AND version >= ?",
                               (t.id, back_at))
    assert {r[0] for r in rows} == {"player"}


async def test_end_now_voids_the_deal_and_refunds(h):
    t = await started(h, HOST, BOB, CAT, deals=5)
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    with pytest.raises(TableError, match="host or an admin"):
        await h.svc.end(t.id, BOB, is_admin=False)
    # The host (seated, so seeing their cards) may not void the deal: "now" waits for its end.
    await h.svc.end(t.id, HOST, is_admin=True, now=True)
    assert t.status == "playing" and t.closing
    # A server admin who is not seated may.
    events = await h.svc.end(t.id, 999, is_admin=True, now=True)
    assert events[-1]["type"] == "table_end"
    assert t.status == "finished" and t.results == [0, 0, 0]
    assert [await h.ledger.balance(G, u) for u in (HOST, BOB, CAT)] == [1000] * 3
    rows = await h.db.fetchall("SELECT seat, action, actor FROM actions WHERE table_id = ? AND version >= 1 "
                               "ORDER BY version", (t.id,))
    assert [tuple(r) for r in rows] == [(None, '{"now":false,"type":"close"}', "host"),
                                        (None, '{"now":true,"type":"close"}', "admin")]
    assert await h.total() == 0


async def test_end_at_end_of_deal(h):
    t = await started(h, HOST, BOB, deals=50)
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await h.svc.end(t.id, HOST, is_admin=False)
    assert t.closing and t.status == "playing"
    with pytest.raises(TableError, match="already closes"):
        await h.svc.end(t.id, HOST, is_admin=False)
    await drive(h, t)
    assert t.status == "finished" and t.state.deal == 1
    assert await h.escrow(t.id) == 0 and await h.total() == 0


async def test_listeners_see_batches_in_commit_order(h):
    t = await started(h, HOST, ai=2, deals=3)
    await drive(h, t)
    versions_seen = [e for tid, evs in h.events if tid == t.id for e in evs]
    assert versions_seen[0]["type"] == "lobby" and versions_seen[-1]["type"] == "table_end"
    kinds = [e["type"] for e in versions_seen]
    assert kinds.index("start") < kinds.index("deal_end") < kinds.index("session_end")


async def test_dm_closed_is_recorded_and_survives_a_restart(h):
    t = await started(h, HOST, BOB, deals=3)
    await h.svc.set_dm_closed(t.id, BOB, True)
    await h.svc.set_dm_closed(999, BOB, True)  # unknown table: ignored
    b = t.seat_of(BOB)
    assert t.seats[b].dm_closed and h.events[-1][1] == [{"type": "dm_closed", "seat": b, "closed": True}]
    await h.reopen()
    (t2,) = await h.svc.resume_all()
    assert t2.seats[b].dm_closed and t2.version == t.version

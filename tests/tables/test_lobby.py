"""Lobby: create, join, leave, add AI, start, end — with every refusal a clear TableError."""

from __future__ import annotations

import pytest

from bot.tables import TableError
from tests.tables.conftest import BOB, CAT, CH, DAN, HOST, G


async def test_create_pays_buy_in_and_notifies(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"ante": 2})
    assert t.status == "lobby" and t.buy_in == 200 and t.capacity == 3
    assert [s.user_id for s in t.seats] == [HOST]
    assert await h.ledger.balance(G, HOST) == 800
    assert await h.escrow(t.id) == 200
    assert h.events[-1] == (t.id, [{"type": "lobby", "what": "create", "seat": 0}])
    assert await h.svc.get(t.id) is t
    assert await h.svc.tables_in_channel(CH) == [t]
    assert await h.total() == 0


async def test_create_refusals(h):
    with pytest.raises(TableError, match="Unknown game"):
        await h.svc.create(G, CH, HOST, "Ann", "chess", {})
    with pytest.raises(TableError, match="ante"):
        await h.svc.create(G, CH, HOST, "Ann", "high", {"ante": 99})
    with pytest.raises(TableError, match="Not enough jetons"):
        await h.svc.create(G, CH, HOST, "Ann", "high", {"buy_in": 5000})
    assert await h.ledger.balance(G, HOST) == 1000
    assert (await h.db.fetchone("SELECT COUNT(*) FROM tables"))[0] == 0


async def test_config_default_options_apply(tmp_path, clock):
    from bot.config import Config
    from tests.tables.conftest import Harness
    from tests.tables.fakegame import GAME

    cfg = Config(ai_delay=0, default_options={"high": {"ante": 3}})
    h2 = await Harness(str(tmp_path / "c.db"), clock, cfg, {"high": GAME}).open()
    try:
        t = await h2.svc.create(G, CH, HOST, "Ann", "high", {"deals": 4})
        assert (t.options["ante"], t.options["deals"], t.buy_in) == (3, 4, 300)
    finally:
        await h2.close()


async def test_join_refusals(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"ante": 10})  # buy-in 1000
    with pytest.raises(TableError, match="already seated"):
        await h.svc.join(t.id, HOST, "Ann")
    with pytest.raises(TableError, match="no table #999"):
        await h.svc.join(999, BOB, "Bob")
    await h.ledger.transfer(h.ledger.wallet(G, BOB), h.ledger.house(G), 1, "spent")
    with pytest.raises(TableError, match="you have 999 jetons, the buy-in is 1000"):
        await h.svc.join(t.id, BOB, "Bob")
    assert await h.ledger.balance(G, BOB) == 999
    await h.svc.join(t.id, CAT, "Cat")
    await h.svc.add_ai(t.id, HOST)
    with pytest.raises(TableError, match="full"):
        await h.svc.join(t.id, DAN, "Dan")
    assert len(t.seats) == 3
    assert await h.escrow(t.id) == 3000
    assert await h.total() == 0


async def test_leave_refunds_and_host_passes(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.leave(t.id, BOB)
    assert await h.ledger.balance(G, BOB) == 1000 and len(t.seats) == 1
    with pytest.raises(TableError, match="not seated"):
        await h.svc.leave(t.id, BOB)
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.leave(t.id, HOST)
    assert t.host_id == BOB and t.status == "lobby"
    assert await h.ledger.balance(G, HOST) == 1000
    assert await h.total() == 0


async def test_host_leaving_empty_lobby_cancels(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.add_ai(t.id, HOST)
    await h.svc.leave(t.id, HOST)
    assert t.status == "cancelled"
    assert await h.ledger.balance(G, HOST) == 1000
    assert await h.escrow(t.id) == 0
    assert await h.ledger.account_balance(h.ledger.house(G)) == -1000
    assert await h.svc.tables_in_channel(CH) == []
    assert await h.total() == 0


async def test_add_ai_host_only(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.join(t.id, BOB, "Bob")
    with pytest.raises(TableError, match="Only the host"):
        await h.svc.add_ai(t.id, BOB)
    with pytest.raises(TableError, match="Unknown AI level"):
        await h.svc.add_ai(t.id, HOST, level="genius")
    await h.svc.add_ai(t.id, HOST, level="random")
    assert t.seats[2].ai and t.seats[2].user_id is None and t.seats[2].name == "AI 1"
    assert await h.escrow(t.id) == 300


async def test_start_refusals(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    with pytest.raises(TableError, match="at least 2 players; 1 seated"):
        await h.svc.start(t.id, HOST)
    await h.svc.join(t.id, BOB, "Bob")
    with pytest.raises(TableError, match="Only the host"):
        await h.svc.start(t.id, BOB)
    assert t.status == "lobby" and t.state is None
    await h.svc.start(t.id, HOST)
    assert t.status == "playing" and t.version == 0 and t.seed is not None
    assert t.options["players"] == 2  # started with the seats filled so far
    with pytest.raises(TableError, match="no longer in its lobby"):
        await h.svc.start(t.id, HOST)
    with pytest.raises(TableError, match="already started"):
        await h.svc.join(t.id, CAT, "Cat")
    row = await h.db.fetchone("SELECT status, seed, deadline FROM tables WHERE id = ?", (t.id,))
    assert row[0] == "playing" and row[1] == t.seed and row[2] == h.clock.t + 120


async def test_end_lobby_refunds_everyone(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.add_ai(t.id, HOST)
    with pytest.raises(TableError, match="host or an admin"):
        await h.svc.end(t.id, BOB, is_admin=False)
    await h.svc.end(t.id, CAT, is_admin=True)
    assert t.status == "cancelled"
    assert [await h.ledger.balance(G, u) for u in (HOST, BOB)] == [1000, 1000]
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    with pytest.raises(TableError, match="already closed"):
        await h.svc.end(t.id, HOST, is_admin=False)


async def test_listener_errors_never_break_the_table(h, caplog):
    async def broken(table, events):
        raise RuntimeError("listener bug")

    h.svc.listeners.insert(0, broken)
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.join(t.id, BOB, "Bob")
    assert len(t.seats) == 2
    assert "listener bug" in caplog.text
    assert [e for _, e in h.events][-1] == [{"type": "lobby", "what": "join", "seat": 1}]


async def test_set_message_persists(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.set_message(t.id, 555)
    await h.svc.set_message(t.id, 777, key="deal")
    row = await h.db.fetchone("SELECT message_id, extra_messages FROM tables WHERE id = ?", (t.id,))
    assert row[0] == 555 and '"deal":777' in row[1]
    await h.reopen()
    (t2,) = await h.svc.resume_all()
    assert t2.message_id == 555 and t2.extra_messages == {"deal": 777} and t2.status == "lobby"

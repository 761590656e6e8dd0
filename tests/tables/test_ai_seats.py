"""The life of an AI seat at a table: its name, its moves, its stand-in for an away human."""

from __future__ import annotations

from tests.tables.conftest import BOB, CH, HOST, G
from tests.tables.helpers import drive


async def test_an_ai_seat_added_after_one_was_removed_gets_a_name_of_its_own(h):
    """Narration and the seat list tell seats apart by name: two AIs are never both 'AI 2'."""
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 4})
    await h.svc.add_ai(t.id, HOST)
    await h.svc.add_ai(t.id, HOST)
    first = next(i for i, info in enumerate(t.seats) if info.name == "AI 1")
    await h.svc.remove_player(t.id, HOST, t.plan.places[first], None)
    await h.svc.add_ai(t.id, HOST)
    names = [info.name for info in t.seats]
    assert len(set(names)) == len(names), names


async def _ai_table(h, ais: int = 2):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": ais + 1, "deals": 2})
    for _ in range(ais):
        await h.svc.add_ai(t.id, HOST)
    return t


async def test_an_ai_move_the_rules_refuse_is_replaced_by_the_timeout_move(h, monkeypatch, caplog):
    import bot.tables.autoplay as autoplay

    monkeypatch.setattr(autoplay, "decide", lambda *a, **k: {"type": "bogus"})
    t = await _ai_table(h)
    await h.svc.start(t.id, HOST)
    await drive(h, t)
    assert t.status == "finished"
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert refused and all("'bogus'" in m for m in refused)
    assert await h.total() == 0


async def test_a_search_whose_worker_dies_twice_falls_back_and_the_table_goes_on(h, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    import bot.tables.autoplay as autoplay

    calls = []

    async def broken(fn, *args, **kwargs):
        calls.append(fn)
        raise BrokenProcessPool("worker died")

    monkeypatch.setattr(h.svc.ai, "run", broken)
    monkeypatch.setattr(autoplay, "searches", lambda policy: True)
    t = await _ai_table(h)
    await h.svc.start(t.id, HOST)
    await drive(h, t)
    assert t.status == "finished" and calls


async def test_a_player_back_during_the_search_of_their_seat_moves_once(h, monkeypatch):
    """Bob leaves on his turn; while the AI searches his move he comes back and plays: his move is
    the one logged, once, and the search's result is thrown away."""
    import asyncio

    import bot.tables.autoplay as autoplay

    searching, release = asyncio.Event(), asyncio.Event()

    async def slow(fn, *args, **kwargs):
        searching.set()
        await release.wait()
        return {"type": "fold"}

    monkeypatch.setattr(h.svc.ai, "run", slow)
    monkeypatch.setattr(autoplay, "searches", lambda policy: True)
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 2, "deals": 1, "dealer": 1})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.start(t.id, HOST)
    bob = t.seat_of(BOB)
    while t.to_act() != (bob,):
        await h.svc.act(t.id, t.to_act_users()[0], t.version, {"type": "stay"})
    await h.svc.leave(t.id, BOB)
    await asyncio.wait_for(searching.wait(), 5)
    version = t.version
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.act(t.id, BOB, version, {"type": "stay"})
    release.set()
    await h.idle()
    rows = await h.db.fetchall("SELECT seat, actor, action FROM actions WHERE table_id = ? AND version >= ?",
                               (t.id, version))
    assert [(r[0], r[1]) for r in rows][:1] == [(bob, "player")]
    assert sum(1 for r in rows if r[0] == bob) == 1


async def test_a_restart_during_a_search_plays_that_move_once_after_the_restart(h, monkeypatch):
    import asyncio

    import bot.tables.autoplay as autoplay

    searching = asyncio.Event()

    async def forever(fn, *args, **kwargs):
        searching.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(h.svc.ai, "run", forever)
    monkeypatch.setattr(autoplay, "searches", lambda policy: True)
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3, "deals": 1, "dealer": 0})
    await h.svc.add_ai(t.id, HOST)
    await h.svc.add_ai(t.id, HOST)
    await h.svc.start(t.id, HOST)
    await asyncio.wait_for(searching.wait(), 5)
    version = t.version
    monkeypatch.undo()
    await h.reopen()
    await h.svc.resume_all()
    t = await h.svc.get(t.id)
    await drive(h, t)
    sql = "SELECT version, seat FROM actions WHERE table_id = ? ORDER BY version"
    rows = await h.db.fetchall(sql, (t.id,))
    assert [r[0] for r in rows] == list(range(len(rows))) and len(rows) > version
    assert t.status == "finished" and await h.total() == 0


async def test_a_table_left_to_its_ai_seats_ends_and_pays_every_stack_to_an_account(h):
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 3, "deals": 50, "dealer": 0})
    await h.svc.add_ai(t.id, HOST)
    await h.svc.add_ai(t.id, HOST)
    await h.svc.start(t.id, HOST)
    await h.idle()
    await h.svc.act(t.id, HOST, t.version, {"type": "stay"})
    await h.svc.leave(t.id, HOST)
    await h.idle()
    assert t.status == "finished" and t.version < 50
    assert await h.escrow(t.id) == 0 and await h.total() == 0


async def test_a_seated_table_of_ai_seats_alone_ends(h):
    from bot.tables.model import SeatInfo

    seats = [SeatInfo(None, f"AI {i + 1}", ai=True) for i in range(3)]
    t = await h.svc.open_seated(G, CH, -1, "high", {"deals": 50}, seats)
    await h.idle()
    assert t.status == "finished" and t.version < 50
    assert await h.escrow(t.id) == 0 and await h.total() == 0

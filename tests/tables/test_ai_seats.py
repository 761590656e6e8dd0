"""The life of an AI seat at a table: its name, its moves, its stand-in for an away human."""

from __future__ import annotations

from tests.tables.conftest import CH, HOST, G


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

"""Abandoned and runaway tables: open-table caps, lobby expiry, unattended sessions, the deal cap."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rules import GAMES
from bot.tables import TableError
from tests.tables.conftest import BOB, CAT, CH, DAN, HOST, G, Harness
from tests.tables.helpers import STAY
from tests.tables.test_play import started


def limit(h, **changes) -> None:
    h.svc.config = dataclasses.replace(h.svc.config, **changes)


async def test_member_cap_counts_seats_played_not_seats_left(h):
    limit(h, tables_per_member=2)
    a = await h.svc.create(G, 11, HOST, "Ann", "high", {})
    await h.svc.create(G, 12, HOST, "Ann", "high", {})
    with pytest.raises(TableError) as info:
        await h.svc.create(G, 13, HOST, "Ann", "high", {})
    assert str(info.value) == "You already sit at 2 open tables (the limit is 2): finish or leave one first."
    other = await h.svc.create(G, 13, BOB, "Bob", "high", {})
    with pytest.raises(TableError, match="already sit at 2 open tables"):
        await h.svc.join(other.id, HOST, "Ann")  # joining counts too
    assert await h.ledger.balance(G, HOST) == 1000 - 2 * a.buy_in  # nothing paid for the refusals
    # a seat left mid-session is the AI's: it no longer counts against the member
    await h.svc.join(a.id, BOB, "Bob")
    await h.svc.start(a.id, HOST)
    await h.svc.leave(a.id, HOST)
    await h.svc.join(other.id, HOST, "Ann")
    assert other.seat_of(HOST) == 1
    assert await h.total() == 0


async def test_channel_and_guild_caps(h):
    limit(h, tables_per_channel=2, tables_per_guild=3)
    await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.create(G, CH, BOB, "Bob", "high", {})
    with pytest.raises(TableError) as info:
        await h.svc.create(G, CH, CAT, "Cat", "high", {})
    assert "This channel already has 2 open tables (the limit is 2)" in str(info.value)
    await h.svc.create(G, CH + 1, CAT, "Cat", "high", {})
    with pytest.raises(TableError, match="This server already has 3 open tables"):
        await h.svc.create(G, CH + 2, DAN, "Dan", "high", {})
    await h.svc.create(G + 1, CH + 3, DAN, "Dan", "high", {})  # another guild has its own count
    assert await h.ledger.balance(G, CAT) == 900 and await h.ledger.balance(G, DAN) == 1000


async def test_cancelled_lobby_frees_its_place(h):
    limit(h, tables_per_channel=1)
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    with pytest.raises(TableError, match="This channel already has 1"):
        await h.svc.create(G, CH, BOB, "Bob", "high", {})
    await h.svc.leave(t.id, HOST)
    assert (await h.svc.create(G, CH, BOB, "Bob", "high", {})).status == "lobby"


async def test_unstarted_lobby_expires_with_full_refund(h):
    limit(h, lobby_expiry_hours=2)
    t = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.add_ai(t.id, HOST, level="random")
    house_before = await h.ledger.account_balance(h.ledger.house(G))
    h.clock.t += 2 * 3600 - 1
    assert await h.svc.fire_due_timers() == 0 and t.status == "lobby"
    h.clock.t += 1
    await h.svc.fire_due_timers()
    assert t.status == "cancelled"
    assert h.events[-1] == (t.id, [{"type": "lobby", "what": "expire"}])
    assert await h.ledger.balance(G, HOST) == 1000 and await h.ledger.balance(G, BOB) == 1000
    assert await h.ledger.account_balance(h.ledger.house(G)) == house_before + t.buy_in
    assert await h.escrow(t.id) == 0 and await h.total() == 0
    row = await h.db.fetchone("SELECT status FROM tables WHERE id = ?", (t.id,))
    assert row[0] == "cancelled"


async def test_lobby_expiry_survives_a_restart_and_a_start_disarms_it(h):
    limit(h, lobby_expiry_hours=1, turn_timeout=10_000)
    waiting = await h.svc.create(G, CH, HOST, "Ann", "high", {})
    started_one = await h.svc.create(G, CH, BOB, "Bob", "high", {"players": 2})
    await h.svc.join(started_one.id, CAT, "Cat")
    await h.svc.start(started_one.id, BOB)
    await h.reopen()
    limit(h, lobby_expiry_hours=1, turn_timeout=10_000)
    assert {t.id for t in await h.svc.resume_all()} == {waiting.id, started_one.id}
    h.clock.t += 3600
    await h.svc.fire_due_timers()
    assert (await h.svc.get(waiting.id)).status == "cancelled"
    playing = await h.svc.get(started_one.id)
    assert playing.status == "playing" and playing.version == 0
    assert await h.ledger.balance(G, HOST) == 1000 and await h.escrow(waiting.id) == 0


async def test_session_nobody_attends_ends_with_the_deal(h):
    t = await started(h, HOST, BOB, ai=1, deals=20)
    # play into the first deal, then every human leaves
    await h.svc.act(t.id, t.to_act_users()[0], t.version, STAY)
    await h.idle()
    assert t.state.view(None)["deal"] == 0 and t.status == "playing"
    await h.svc.leave(t.id, HOST)
    assert not t.closing
    await h.svc.leave(t.id, BOB)
    assert any({"type": "auto_close", "reason": "unattended"} in evs for _, evs in h.events)
    assert t.closing and t.closed_by == "unattended"  # the table message says why (not "the host closed")
    await h.idle()
    assert t.status == "finished"
    assert t.state.deal == 1  # the deal in play was played out, none after it
    ends = [e for _, evs in h.events for e in evs if e["type"] == "deal_end"]
    assert len(ends) == 1
    row = await h.db.fetchone("SELECT seat, action, actor FROM actions WHERE table_id = ? AND seat IS NULL",
                              (t.id,))
    assert tuple(row) == (None, '{"now":false,"reason":"unattended","type":"close"}', "system")
    for user in (HOST, BOB):
        assert await h.ledger.balance(G, user) == 1000 - t.buy_in + t.state.stacks[t.seat_of(user)]
    assert await h.escrow(t.id) == 0 and await h.total() == 0


async def test_two_timeouts_of_the_last_human_end_the_session_with_the_deal(h):
    t = await started(h, HOST, ai=2, deals=20)
    for _ in range(100):
        await h.idle()
        if t.status != "playing" or t.seats[0].away:
            break
        h.clock.t = t.deadline
        await h.svc.fire_due_timers()
    await h.idle()
    assert t.seats[0].away and t.status == "finished"
    assert any({"type": "auto_close", "reason": "unattended"} in evs for _, evs in h.events)
    assert t.state.deal <= 2 and await h.total() == 0


async def test_a_human_present_keeps_the_session_going(h):
    t = await started(h, HOST, BOB, ai=1, deals=3)
    await h.svc.leave(t.id, BOB)
    assert not t.closing and not any(e["type"] == "auto_close" for _, evs in h.events for e in evs)


async def play_michigan_with_the_host(h: Harness, rotations: int):
    """Three-player Michigan, the host and two random AIs; the host plays his first legal move until
    the session stops being played (at most 2,000 moves). Returns the table."""
    t = await h.svc.create(G, CH, HOST, "Ann", "michigan", {"rotations": rotations, "players": 3})
    await h.svc.add_ai(t.id, HOST, level="random")
    await h.svc.add_ai(t.id, HOST, level="random")
    await h.svc.start(t.id, HOST)
    for _ in range(2000):
        await h.idle()
        if t.status != "playing":
            break
        await h.svc.act(t.id, HOST, t.version, t.state.legal_actions(t.seat_of(HOST))[0])
    return t


async def test_open_ended_michigan_gets_the_deal_cap(tmp_path, clock, config):
    """Michigan with rotations = 0 has no natural end: it closes once ``deal_cap`` deals are played."""
    cfg = dataclasses.replace(config, deal_cap=2, starting_grant=10_000)
    h = await Harness(str(tmp_path / "cap.db"), clock, cfg, {"michigan": GAMES["michigan"]}).open()
    try:
        t = await play_michigan_with_the_host(h, rotations=0)
        assert t.status == "finished", "the open-ended session never ended"
        assert t.state.view(None)["deals_played"] == 2
        assert any({"type": "auto_close", "reason": "deal_cap"} in evs for _, evs in h.events)
        assert await h.escrow(t.id) == 0 and await h.total() == 0
        # the deal cap is an open-ended session's nominal length: it counts (issue 26)
        row = await h.db.fetchone("SELECT rated FROM sessions WHERE table_id = ?", (t.id,))
        assert tuple(row) == (1,)
    finally:
        await h.close()


async def test_bounded_sessions_ignore_the_deal_cap(tmp_path, clock, config):
    """rotations = 1 ends by itself (3 deals for 3 players) even with a lower cap."""
    cfg = dataclasses.replace(config, deal_cap=1, starting_grant=10_000)
    h = await Harness(str(tmp_path / "cap.db"), clock, cfg, {"michigan": GAMES["michigan"]}).open()
    try:
        t = await play_michigan_with_the_host(h, rotations=1)
        assert t.status == "finished"
        assert not any(e["type"] == "auto_close" for _, evs in h.events for e in evs)
    finally:
        await h.close()


@pytest.mark.parametrize(("cap", "czech"), [
    (1, "Už sedíte u 1 otevřeného stolu (limit je 1): nejdřív některý dohrajte, nebo od něj odejděte."),
    (3, "Už sedíte u 3 otevřených stolů (limit je 3): nejdřív některý dohrajte, nebo od něj odejděte."),
])
async def test_the_member_cap_refusal_in_czech(h, cap, czech):
    """The refusal keeps its number and plural form until the reader's language is known."""
    from bot.i18n import translator

    limit(h, tables_per_member=cap)
    for i in range(cap):
        await h.svc.create(G, 20 + i, HOST, "Ann", "high", {})
    with pytest.raises(TableError) as info:
        await h.svc.create(G, 30, HOST, "Ann", "high", {})
    assert info.value.render(translator("cs")) == czech
    assert info.value.render(translator("fr")).startswith(f"Vous jouez déjà à {cap} table")


async def test_taking_back_a_seat_left_is_within_the_member_cap(h):
    """Leave three running tables, then come back to each: the cap (1) lets her back at one only."""
    limit(h, tables_per_member=1)
    tables = []
    for k, other in enumerate((BOB, CAT, DAN)):
        t = await h.svc.create(G, CH + k, HOST, "Ann", "high", {})
        await h.svc.join(t.id, other, f"P{k}")
        await h.svc.start(t.id, HOST)
        await h.svc.leave(t.id, HOST)
        tables.append(t)
    await h.svc.join(tables[0].id, HOST, "Ann")
    for t in tables[1:]:
        with pytest.raises(TableError, match=r"already sit at 1 open table \(the limit is 1\)"):
            await h.svc.join(t.id, HOST, "Ann")
        assert t.seats[t.seat_of(HOST)].away  # still the AI's
    assert not tables[0].seats[0].away

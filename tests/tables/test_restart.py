"""Robust restart: a malformed table row never stops start-up, and its escrow is never stranded."""

from __future__ import annotations

import dataclasses
import logging

from tests.tables.conftest import BOB, CAT, DAN, HOST, G
from tests.tables.helpers import STAY, drive
from tests.tables.test_play import started

EVE, FAY = 500, 600


async def test_each_table_resumes_on_its_own_and_broken_ones_are_voided(h, caplog):
    h.svc.config = dataclasses.replace(h.svc.config, tables_per_member=10)
    good = await started(h, HOST, BOB, deals=3)
    bad_seats = await started(h, CAT, DAN, ai=1, deals=3)
    gone_game = await started(h, EVE, FAY, deals=3)
    no_replay = await started(h, HOST, CAT, deals=5)
    for _ in range(3):  # a few moves in, so stacks moved at the table (not in the ledger)
        await h.svc.act(no_replay.id, no_replay.to_act_users()[0], no_replay.version, STAY)
    lobby = await h.svc.create(G, 77, DAN, "Dan", "high", {})
    await h.svc.join(lobby.id, EVE, "Eve")
    await h.reopen()
    await h.db.run(lambda c: c.execute("UPDATE tables SET seats = '[{\"user_id\": 3' WHERE id = ?",
                                       (bad_seats.id,)))
    await h.db.run(lambda c: c.execute("UPDATE tables SET game = 'poker' WHERE id = ?", (gone_game.id,)))
    await h.db.run(lambda c: c.execute("UPDATE actions SET action = '{\"type\": \"jump\"}' "
                                       "WHERE table_id = ? AND version = 1", (no_replay.id,)))
    await h.db.run(lambda c: c.execute("UPDATE tables SET options = 'not json' WHERE id = ?", (lobby.id,)))
    caplog.set_level(logging.INFO)
    house_before = await h.ledger.account_balance(h.ledger.house(G))

    resumed = await h.svc.resume_all()

    assert [t.id for t in resumed] == [good.id]
    broken = [bad_seats.id, gone_game.id, no_replay.id, lobby.id]
    rows = await h.db.fetchall(f"SELECT id, status FROM tables WHERE id IN ({','.join('?' * 4)}) ORDER BY id",
                               tuple(broken))
    assert [tuple(r) for r in rows] == [(i, "cancelled") for i in sorted(broken)]
    for tid in broken:
        assert await h.escrow(tid) == 0
    # every human got exactly the buy-in back; the AI seat's buy-in went back to the house
    for user in (CAT, DAN, EVE, FAY):
        assert await h.ledger.balance(G, user) == 1000, user
    assert await h.ledger.balance(G, HOST) == 1000 - good.buy_in
    assert await h.ledger.account_balance(h.ledger.house(G)) == house_before + bad_seats.buy_in
    assert await h.total() == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
    for tid in broken:
        assert len([w for w in warnings if w.startswith(f"table {tid}: cannot be resumed (")]) == 1
    assert any("poker" in w for w in warnings) and any("jump" in w for w in warnings)
    refunds = await h.db.fetchall("SELECT table_id, COUNT(*) FROM ledger WHERE reason = 'void refund' "
                                  "GROUP BY table_id ORDER BY table_id")
    assert [tuple(r) for r in refunds] == [(bad_seats.id, 3), (gone_game.id, 2), (no_replay.id, 2),
                                           (lobby.id, 2)]
    # the good table plays on, and nothing is voided twice on the next start
    t = await h.svc.get(good.id)
    await drive(h, t)
    assert t.status == "finished"
    await h.reopen()
    assert await h.svc.resume_all() == []
    assert await h.total() == 0


async def test_a_broken_table_does_not_hide_the_ones_after_it(h):
    first = await started(h, HOST, BOB, deals=3)
    second = await started(h, CAT, DAN, deals=3)
    await h.reopen()
    await h.db.run(lambda c: c.execute("UPDATE tables SET raw_options = '{' WHERE id = ?", (first.id,)))
    assert [t.id for t in await h.svc.resume_all()] == [second.id]

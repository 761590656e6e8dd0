"""A malformed table row never stops the bot from starting: the others resume, it is voided."""

from __future__ import annotations

import logging

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_bot_starts_with_a_broken_table_and_refunds_it(stub: DiscordStub, tapis: TapisRun,
                                                             players: list[User], caplog) -> None:
    alice, bob, carol, dave = players
    broken, _ = await open_table(stub, alice, [bob], ai=2)
    good, good_msg = await open_table(stub, carol, [dave], ai=2)
    await tapis.settle()
    await tapis.kill()
    _corrupt(tapis, broken)  # the row as a bad hand edit or a failed disk left it
    caplog.set_level(logging.WARNING)
    await tapis.restart()
    assert stub.connections == 2
    assert (await tapis.tables.get(good)).status == "playing"
    assert await tapis.tables.get(broken) is None
    status = await tapis.db.fetchone("SELECT status FROM tables WHERE id = ?", (broken,))
    assert status[0] == "cancelled"
    for user in (alice, bob):
        assert await tapis.ledger.balance(stub.guild.id, user.id) == 1000
    assert await tapis.ledger.accounts_total() == 0
    voided = [r.getMessage() for r in caplog.records if "cannot be resumed" in r.getMessage()]
    assert len(voided) == 1 and voided[0].startswith(f"table {broken}: cannot be resumed (undecodable row")
    assert all(r.levelno == logging.WARNING for r in caplog.records if "cannot be resumed" in r.getMessage())
    hand = await stub.click(good_msg, carol, "My hand")
    assert hand.ephemeral and "Your hand" in hand.text


def _corrupt(tapis: TapisRun, table_id: int) -> None:
    import sqlite3

    conn = sqlite3.connect(tapis.config.database)
    with conn:
        conn.execute("UPDATE tables SET seats = '[not json' WHERE id = ?", (table_id,))
    conn.close()

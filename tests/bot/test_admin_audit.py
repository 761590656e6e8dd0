"""/admin audit: besides the zero sum, it reports escrow held by tables that are not open."""

from __future__ import annotations

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_audit_reports_escrow_stranded_by_a_closed_table(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User]) -> None:
    alice, bob = players[:2]
    lobby = await tapis.tables.create(stub.guild.id, stub.channel.id, alice.id, "alice", "motz", {})
    await tapis.tables.join(lobby.id, bob.id, "bob")
    await tapis.settle()
    clean = await stub.slash("admin audit", alice, stub.channel)
    assert clean.ephemeral and clean.text.startswith("✅ balanced")
    assert "No escrow is held by a table that is not open." in clean.text

    # a table marked finished (a crash between two writes, a hand edit) that still holds the buy-ins
    await tapis.db.run(lambda c: c.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (lobby.id,)))
    held = 2 * lobby.buy_in
    report = await stub.slash("admin audit", alice, stub.channel)
    assert report.ephemeral and report.text.startswith("❌ NOT balanced")
    assert "sum of all accounts = 0" in report.text  # double entry alone would not notice
    assert f"Escrow held by 1 table that is not open: {held} jetons." in report.text
    assert f"table #{lobby.id} (finished): {held} jetons" in report.text
    assert await tapis.ledger.stranded_escrow() == [(lobby.id, held, "finished")]
    assert await tapis.ledger.stranded_escrow(stub.guild.id + 1) == []

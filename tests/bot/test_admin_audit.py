"""/admin: server managers only (checked in code), and an audit of this server's ledger alone —
its accounts' sum, each balance against its ledger rows, escrow held by tables that are not open."""

from __future__ import annotations

import pytest

from bot.store.ledger import Mismatch
from bot.store.ratings import current_season_sync
from bot.store.tournaments import pool
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


@pytest.mark.parametrize("backend", BACKENDS)
async def test_audit_reports_escrow_stranded_by_a_closed_table(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User]) -> None:
    alice, bob = players[:2]
    stub.guild.admins.add(alice.id)
    lobby = await tapis.tables.create(stub.guild.id, stub.channel.id, alice.id, "alice", "motz", {})
    await tapis.tables.join(lobby.id, bob.id, "bob")
    await tapis.settle()
    clean = await stub.slash("admin audit", alice, stub.channel)
    # the house, two wallets, the table's escrow
    assert clean.ephemeral and clean.text == (
        "✅ balanced: this server's accounts sum to 0, and each of its 4 accounts matches its ledger rows.\n"
        "No escrow is held by a table that is not open.")

    # a table marked finished (a crash between two writes, a hand edit) that still holds the buy-ins
    await tapis.db.run(lambda c: c.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (lobby.id,)))
    held = 2 * lobby.buy_in
    report = await stub.slash("admin audit", alice, stub.channel)
    assert report.ephemeral and report.text.splitlines() == [
        "❌ NOT balanced: this server's accounts sum to 0.",  # double entry alone would not notice
        f"Escrow held by 1 table that is not open: {held} jetons.",
        f"· table #{lobby.id} (finished): {held} jetons"]
    assert await tapis.ledger.stranded_escrow() == [(lobby.id, held, "finished")]
    assert await tapis.ledger.stranded_escrow(stub.guild.id + 1) == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_running_tournaments_pool_is_not_stranded(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """A tournament's prize pool (an escrow keyed by the negative event id) holds the buy-ins until
    its prizes: not stranded while the event is open (the audit flagged every one), stranded once
    it is over and still holds jetons."""
    alice, bob = players[:2]
    stub.guild.admins.add(alice.id)
    await stub.slash("tournament create", alice, stub.channel, game="motz", buy_in=50, starts_in=30)
    joined = await stub.slash("tournament join", bob, stub.channel)
    assert "registered in tournament" in joined.text, joined.text
    [(event,)] = await tapis.db.fetchall("SELECT id FROM tournaments")
    assert await tapis.ledger.account_balance(pool(event, stub.guild.id)) > 0
    clean = await stub.slash("admin audit", alice, stub.channel)
    assert clean.text.splitlines()[-1] == "No escrow is held by a table that is not open.", clean.text
    assert await tapis.ledger.stranded_escrow() == []

    held = await tapis.ledger.account_balance(pool(event, stub.guild.id))
    await tapis.db.run(lambda c: c.execute("UPDATE tournaments SET status = 'finished' WHERE id = ?",
                                           (event,)))
    report = await stub.slash("admin audit", alice, stub.channel)
    line = f"· tournament #{event}'s pool (finished): {held} jetons"
    assert report.text.splitlines()[-1] == line, report.text
    assert await tapis.ledger.stranded_escrow() == [(-event, held, "finished")]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_audit_finds_a_balance_its_ledger_rows_do_not_explain(stub: DiscordStub, tapis: TapisRun,
                                                                    players: list[User]) -> None:
    """A hand edit moving 7 jetons from bob's wallet to alice's keeps every sum at 0: only the
    reconciliation of each account with its rows sees it (read a few accounts per statement)."""
    alice, bob = players[:2]
    stub.guild.admins.add(alice.id)
    start = await tapis.ledger.balance(stub.guild.id, alice.id)
    await tapis.ledger.balance(stub.guild.id, bob.id)  # both wallets exist, with their grants
    assert (await tapis.ledger.reconcile(stub.guild.id)) == (3, [])

    def edit(conn: object) -> None:
        conn.execute("UPDATE accounts SET balance = balance + 7 WHERE id = ?",  # type: ignore[attr-defined]
                     (f"wallet:{stub.guild.id}:{alice.id}",))
        conn.execute("UPDATE accounts SET balance = balance - 7 WHERE id = ?",  # type: ignore[attr-defined]
                     (f"wallet:{stub.guild.id}:{bob.id}",))

    await tapis.db.transaction(edit)
    assert await tapis.ledger.accounts_total(stub.guild.id) == 0
    wrong = [Mismatch(f"wallet:{stub.guild.id}:{alice.id}", "wallet", alice.id, None, start + 7, start),
             Mismatch(f"wallet:{stub.guild.id}:{bob.id}", "wallet", bob.id, None, start - 7, start)]
    assert await tapis.ledger.reconcile(stub.guild.id, chunk=1) == (3, sorted(wrong, key=lambda m: m.key))
    report = await stub.slash("admin audit", alice, stub.channel)
    lines = report.text.splitlines()
    assert lines[0] == "❌ NOT balanced: this server's accounts sum to 0."
    assert lines[1] == "2 accounts' balances are not what their ledger rows add up to:"
    assert sorted(lines[2:4]) == sorted([f"· <@{alice.id}>'s wallet: balance {start + 7}, ledger {start}",
                                         f"· <@{bob.id}>'s wallet: balance {start - 7}, ledger {start}"])
    assert lines[4] == "No escrow is held by a table that is not open."


async def test_audit_reads_this_server_only(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Another server's broken ledger neither turns this server's verdict nor shows in it."""
    alice = players[0]
    stub.guild.admins.add(alice.id)
    other = stub.add_guild("Elsewhere")
    await tapis.ledger.balance(stub.guild.id, alice.id)
    await tapis.ledger.balance(other.id, alice.id)
    await tapis.db.transaction(lambda c: c.execute(
        "UPDATE accounts SET balance = balance + 1000 WHERE id = ?", (f"wallet:{other.id}:{alice.id}",)))
    assert await tapis.ledger.accounts_total() == 1000
    here = await stub.slash("admin audit", alice, stub.channel)
    assert here.text.startswith("✅ balanced: this server's accounts sum to 0, and each of its 2 accounts")
    assert "1000" not in here.text and "1,000" not in here.text
    checked, wrong = await tapis.ledger.reconcile(other.id)
    assert checked == 2 and [m.key for m in wrong] == [f"wallet:{other.id}:{alice.id}"]


async def test_admin_needs_the_permission_whatever_discord_shows(stub: DiscordStub, tapis: TapisRun,
                                                                  players: list[User]) -> None:
    """A server can let everyone see /admin (Integrations settings): the bot still refuses members."""
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    for command in ("admin tables", "admin audit", "admin season"):
        refused = await stub.slash(command, bob, stub.channel)
        assert refused.ephemeral
        # /admin is a group, which Discord cannot mention: the plain form, even after the sync
        assert refused.text == "⚠️ Only a server manager (Manage Server permission) can use `/admin`."
    assert await tapis.db.run(current_season_sync, stub.guild.id) == 1  # no season was started
    stub.guild.admins.add(bob.id)
    listed = await stub.slash("admin tables", bob, stub.channel)
    assert listed.ephemeral and listed.text.startswith("#") and f"<#{stub.channel.id}>" in listed.text

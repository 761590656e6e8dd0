"""A player who left a running table takes their seat back with /table join."""

from __future__ import annotations

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_taking_a_seat_back_says_so_and_no_buy_in(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    """Before, the answer was the lobby's "You joined table #N (buy-in 100 jetons)." though no
    buy-in is taken again: the seat (and its stack) was theirs all along."""
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, buy_in=100)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.messages(stub.channel)[-1]
    assert "joined" in (await stub.click(lobby, bob, "Join")).text
    await stub.click(lobby, alice, "Add AI")
    assert "starts" in (await stub.click(lobby, alice, "Start")).text
    left = await stub.slash("table leave", alice, stub.channel, table=table.id)
    assert "You left" in left.text, left.text
    before = await tapis.ledger.wallet_balance(stub.guild.id, alice.id)
    back = await stub.slash("table join", alice, stub.channel, table=table.id)
    assert "buy-in" not in back.text and "joined" not in back.text, back.text
    assert f"#{table.id}" in back.text and "back" in back.text, back.text
    assert not table.seats[table.seat_of(alice.id)].away
    assert await tapis.ledger.wallet_balance(stub.guild.id, alice.id) == before
    await tapis.settle()

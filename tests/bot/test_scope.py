"""A table named by number is reached only from its own channel (server admins excepted)."""

from __future__ import annotations

from tests.bot.test_hostile import refused
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_table_number_reaches_only_this_channel(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    alice, bob, carol, dave = players
    private = stub.add_channel(stub.guild, "private")  # a channel bob cannot see, say
    await stub.slash("table new", alice, private, game="motz", players=3)
    lobby = stub.messages(private)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    await stub.click(lobby, carol, "Join")
    before = await tapis.ledger.balance(stub.guild.id, bob.id)

    # From the general channel, the number alone does not reach it.
    tries = (("table join", bob), ("table status", bob), ("table start", alice), ("hand", carol))
    for command, user in tries:
        inter = await stub.slash(command, user, stub.channel, table=table_id)
        refused(inter, f"no table #{table_id} in this channel")
    table = await tapis.tables.get(table_id)
    assert [s.user_id for s in table.seats] == [alice.id, carol.id] and table.status == "lobby"
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == before

    # A server admin may look from anywhere.
    admin = stub.add_user("admin", stub.guild, admin=True)
    status = await stub.slash("table status", admin, stub.channel, table=table_id)
    assert status.ephemeral and f"table #{table_id}" in status.text

    # In its own channel, everything works as before.
    joined = await stub.slash("table join", dave, private, table=table_id)
    assert "joined" in joined.text, joined.text
    started = await stub.slash("table start", alice, private, table=table_id)
    assert "starts" in started.text, started.text
    await tapis.settle()
    hand = await stub.slash("hand", carol, private, table=table_id)
    assert hand.ephemeral and "Your hand" in hand.text
    # Leaving concerns only one's own seat: it works from anywhere.
    left = await stub.slash("table leave", dave, stub.channel, table=table_id)
    assert "AI plays your seat" in left.text, left.text

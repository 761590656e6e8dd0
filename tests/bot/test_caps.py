"""Open-table caps through Discord: the fourth lobby of a member is refused ephemerally, nothing paid."""

from __future__ import annotations

from tests.bot.test_hostile import refused
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_member_cap_refusal_reaches_the_member(stub: DiscordStub, tapis: TapisRun,
                                                     players: list[User]) -> None:
    alice = players[0]
    channels = [stub.add_channel(stub.guild, f"room-{i}") for i in range(4)]
    for channel in channels[:3]:
        opened = await stub.slash("table new", alice, channel, game="motz", buy_in=100)
        assert not opened.ephemeral
    balance = await tapis.ledger.balance(stub.guild.id, alice.id)
    fourth = await stub.slash("table new", alice, channels[3], game="motz", buy_in=100)
    refused(fourth, "You already sit at 3 open tables (the limit is 3)")
    assert not stub.messages(channels[3])
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == balance == 1000 - 300
    await tapis.settle()
    assert await tapis.ledger.accounts_total() == 0

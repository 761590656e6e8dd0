"""Open-table caps through Discord: the fourth lobby of a member is refused ephemerally, nothing paid;
coming back to a seat left mid-session is within the cap too."""

from __future__ import annotations

from dataclasses import replace

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


async def test_coming_back_to_a_seat_left_mid_session_is_within_the_member_cap(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """A seat left mid-session does not count (the AI plays it), but taking it back does: with a cap
    of one, a member who left three running tables takes back one of them, never two."""
    tapis.tables.config = replace(tapis.tables.config, tables_per_member=1)
    alice, *others = players
    ids = []
    for k, other in enumerate(others):
        channel = stub.add_channel(stub.guild, f"room-{k}")
        opened = await stub.slash("table new", alice, channel, game="motz", players=3, buy_in=100)
        assert not opened.ephemeral, opened.text
        await tapis.settle()
        [table] = await tapis.tables.tables_in_channel(channel.id)
        lobby = stub.messages(channel)[-1]
        assert "joined" in (await stub.click(lobby, other, "Join")).text
        await stub.click(lobby, alice, "Add AI")
        assert "starts" in (await stub.click(lobby, alice, "Start")).text
        left = await stub.slash("table leave", alice, channel, table=table.id)
        assert "You left" in left.text, left.text
        ids.append((table.id, channel))
    (first, room), *rest = ids
    back = await stub.slash("table join", alice, room, table=first)
    assert "You are back" in back.text, back.text
    for table_id, channel in rest:
        refused(await stub.slash("table join", alice, channel, table=table_id),
                "You already sit at 1 open table (the limit is 1)")
        table = await tapis.tables.get(table_id)
        assert table is not None and table.seats[table.seat_of(alice.id)].away  # still the AI's
    tables = [await tapis.tables.get(table_id) for table_id, _ in ids]
    mine = [t for t in tables if t is not None and t.status == "playing"
            and not t.seats[t.seat_of(alice.id)].away]
    assert [t.id for t in mine] == [first]
    await tapis.settle()

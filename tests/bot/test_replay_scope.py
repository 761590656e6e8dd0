"""/replay and /history reach a table only from a channel the member can see (issue 26, item 3):
a ``#staff-only`` table is neither replayable nor readable from ``#general`` by a member who cannot
see #staff-only (``bot/views/scope.py`` states the rule); its players, members the channel lets in
and server admins still reach it. History ids past 64 bits are refused like forged ones (item 11)."""

from __future__ import annotations

import pytest

from tests.backends import BACKENDS
from tests.bot.test_history import finish_by_ai
from tests.bot.test_replay import no_cooldown, replay
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def staff_tables(stub: DiscordStub, tapis: TapisRun, alice: User, carol: User) -> tuple:
    """#staff-only (alice and carol may view it): a finished Marias session of alice's, and a
    running one with a deal under way."""
    staff = await stub.add_private_channel(stub.guild, "staff-only", [alice, carol])
    done = await tapis.tables.create(stub.guild.id, staff.id, alice.id, alice.name, "marias", {})
    for _ in range(2):
        await tapis.tables.add_ai(done.id, alice.id)
    await tapis.tables.start(done.id, alice.id)
    await finish_by_ai(stub, tapis, [alice], done.id)
    live = await tapis.tables.create(stub.guild.id, staff.id, carol.id, carol.name, "motz", {})
    for _ in range(2):
        await tapis.tables.add_ai(live.id, carol.id)
    await tapis.tables.start(live.id, carol.id)
    await tapis.settle()
    table = await tapis.tables.get(live.id)
    if table.to_act_users():
        seat = table.seat_of(carol.id)
        await tapis.tables.act(live.id, carol.id, table.version, table.state.legal_actions(seat)[0])
        await tapis.settle()
    return staff, done.id, live.id


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_staff_only_table_is_out_of_reach_from_general(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User]) -> None:
    alice, bob, carol, dave = players
    no_cooldown(tapis)
    staff, done, live = await staff_tables(stub, tapis, alice, carol)

    # bob cannot see #staff-only: from #general neither table exists for him.
    for table_id in (done, live):
        inter = await replay(stub, bob, stub.channel, table=table_id, deal=1)
        assert inter.ephemeral and f"There is no table #{table_id} in this server." in inter.text
        assert not inter.last.attachments
    listed = await stub.slash("history", bob, stub.channel, user=alice)
    assert f"**#{done}**" not in listed.text and "No finished session yet." in listed.text
    forged = await stub.choose(listed.last, bob, [str(done)], custom_id=f"tapis:0:0:hopen:{alice.id}.any.99")
    assert forged.ephemeral and f"Table #{done} has no finished session" in forged.text

    # carol may view #staff-only (a member overwrite): she reaches both from #general.
    inter = await replay(stub, carol, stub.channel, table=done, deal=1)
    assert inter.last.attachments and "spectators" in inter.text
    listed = await stub.slash("history", carol, stub.channel, user=alice)
    assert f"**#{done}**" in listed.text
    await stub.choose(listed.last, carol, [str(done)])
    assert f"Table #{done}" in listed.last.text and "Deal 1" in listed.last.text
    # alice sat at it: her own replay, revealed, from anywhere; a server admin reaches it too.
    mine = await replay(stub, alice, stub.channel, table=done, deal=1)
    assert "every hand revealed" in mine.text
    admin = stub.add_user("admin", stub.guild, admin=True)
    assert (await replay(stub, admin, stub.channel, table=live, deal=1)).last.attachments
    # dave is let in later: the rule follows the channel's permissions as Discord reports them.
    staff.overwrites.append({"id": str(dave.id), "type": 1, "allow": str(0x400), "deny": "0"})
    await stub.dispatch("CHANNEL_UPDATE", staff.payload(len(stub.guild.channels) - 1))
    assert (await replay(stub, dave, stub.channel, table=live, deal=1)).last.attachments


async def test_history_ids_past_64_bits_are_refused(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    alice = players[0]
    listed = await stub.slash("history", alice, stub.channel)
    page = listed.last
    huge = str(2**64 + 7)
    nineteen = "9" * 19  # 19 digits, past 2**63 - 1
    forged = [
        await stub.click(page, alice, custom_id=f"tapis:0:0:hist:{huge}.any.1"),
        await stub.click(page, alice, custom_id=f"tapis:0:0:hist:{alice.id}.any.{huge}"),
        await stub.choose(page, alice, [nineteen], custom_id=f"tapis:0:0:hopen:{alice.id}.any.1"),
        await stub.choose(page, alice, ["1"], custom_id=f"tapis:{huge}:1:hdeal:{alice.id}.any.1"),
        await stub.choose(page, alice, [huge], custom_id=f"tapis:0:0:hopen:{alice.id}.any.1"),
    ]
    for inter in forged:
        assert inter.ephemeral and "This control is not valid." in inter.text, inter.text
    inter = await replay(stub, alice, stub.channel, table=2**63, deal=1)
    assert f"There is no table #{2**63} in this server." in inter.text
    inter = await replay(stub, alice, stub.channel, table=2**64 + 7, deal=1)  # a float through orjson
    assert "There is no table #" in inter.text
    for options in ({"format": "bmp"}, {"deal": 1.5}):
        odd = await replay(stub, alice, stub.channel, **{"table": 1, "deal": 1, **options})
        assert "Invalid value" in odd.text

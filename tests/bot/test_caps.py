"""Open-table caps through Discord: the fourth lobby of a member is refused ephemerally, nothing paid;
coming back to a seat left mid-session is within the cap too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.gate import MemberWindow
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


async def test_opening_and_ending_lobbies_in_a_loop_is_limited(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The caps count open tables only: a member who opened a lobby and ended it, again and again
    (inviting someone each time), had each one cost database transactions, a thread and a mention of
    the invitee, without end. Past ``OPENS_PER_MEMBER`` lobbies in ``OPENS_WINDOW`` the next is
    refused (ephemeral, in their language, nothing paid, no mention), on any server; other members
    are not held; the window moves on."""
    cog = tapis.bot.get_cog("Tables")
    now = [1_000_000.0]
    monkeypatch.setattr(cog, "opens", MemberWindow(3, 600.0, keep=4, clock=lambda: now[0]))
    alice, bob, carol, _ = players
    for _ in range(3):  # open a lobby inviting bob, end it
        opened = await stub.slash("table new", alice, stub.channel, game="motz", invite=bob)
        assert not opened.ephemeral, opened.text
        await tapis.settle()
        [table] = await tapis.tables.tables_in_channel(stub.channel.id)
        assert "closed" in (await stub.slash("table end", alice, stub.channel, table=table.id)).text
        await tapis.settle()
        now[0] += 10.0
    posted = len(stub.messages(stub.channel))
    fourth = await stub.slash("table new", alice, stub.channel, game="motz", invite=bob)
    refused(fourth, "You may open at most 3 tables in 10 minutes: you can open another <t:1000600:R>.")
    elsewhere = stub.add_guild("Elsewhere")
    elsewhere.members.append(alice)
    away = await stub.slash("table new", alice, elsewhere.channels[0], game="motz")
    refused(away, "You may open at most 3 tables")  # the count is the member's, on every server
    await stub.slash("language", alice, stub.channel, language="fr")
    refused(await stub.slash("table new", alice, stub.channel, game="motz"), "au plus 3 tables en 10 minutes")
    assert len(stub.messages(stub.channel)) == posted  # no lobby, no mention of bob
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000
    assert not (await stub.slash("table new", carol, stub.channel, game="motz")).ephemeral  # others open
    now[0] = 1_000_600.0  # the first lobby left the window
    assert not (await stub.slash("table new", alice, stub.channel, game="motz")).ephemeral
    for member in range(100, 110):  # members admitted each keep a few times: at most ``keep`` of them
        cog.opens.note(member)
    assert len(cog.opens.times) <= 4
    await tapis.settle()
    assert await tapis.ledger.accounts_total() == 0


async def test_play_again_is_within_the_opening_rate(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A lobby that plays a session again may be opened anew once the one before was cancelled: ending
    it and clicking Play again, in a loop, opened lobbies past ``/table new``'s rate. Each counts."""
    from tests.bot.test_rematch import finished_motz

    cog = tapis.bot.get_cog("Tables")
    monkeypatch.setattr(cog, "opens", MemberWindow(2, 600.0))
    alice, bob = players[:2]
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    final = stub.message(table.message_id)
    for _ in range(2):  # bob clicks Play again and ends the lobby it opened, twice
        assert not (await stub.click(final, bob, "Play again")).ephemeral
        await tapis.settle()
        [lobby] = await tapis.tables.tables_in_channel(stub.channel.id)
        assert "closed" in (await stub.slash("table end", bob, stub.channel, table=lobby.id)).text
        await tapis.settle()
    balance = await tapis.ledger.balance(stub.guild.id, bob.id)
    fourth = await stub.click(final, bob, "Play again")
    refused(fourth, "You may open at most 2 tables in 10 minutes")
    assert fourth.text == (await stub.slash("table new", bob, stub.channel, game="motz")).text
    await tapis.settle()
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []  # nothing opened, nothing paid
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == balance
    assert await tapis.ledger.accounts_total() == 0


async def test_a_host_inviting_the_same_member_again_and_again_is_limited(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each invitation mentions the invitee: within the opening rate alone, a host who opened and ended
    lobbies inviting the same member pinged them 10 times in 10 minutes, without end. A host invites
    one member at most ``INVITES_PER_PAIR`` times an hour; the next lobby inviting them is refused
    (ephemeral, in the host's language, nothing paid, no mention); other invitees and other hosts are
    not held; the window moves on."""
    from bot.cogs.table import INVITES_PER_PAIR, INVITES_WINDOW

    cog = tapis.bot.get_cog("Tables")
    now = [2_000_000.0]
    monkeypatch.setattr(cog, "invites", MemberWindow(INVITES_PER_PAIR, INVITES_WINDOW, clock=lambda: now[0]))
    alice, bob, carol, dave = players

    def mentions(user: User) -> int:
        return sum(1 for m in stub.messages(stub.channel)
                   if "invites you" in m.text and f"<@{user.id}>" in m.text)

    async def open_and_end(host: User, **invites: User) -> None:
        opened = await stub.slash("table new", host, stub.channel, game="motz", **invites)
        assert not opened.ephemeral, opened.text
        await tapis.settle()
        [table] = [t for t in await tapis.tables.tables_in_channel(stub.channel.id) if t.host_id == host.id]
        assert "closed" in (await stub.slash("table end", host, stub.channel, table=table.id)).text
        await tapis.settle()
        now[0] += 60.0

    for _ in range(INVITES_PER_PAIR):
        await open_and_end(alice, invite=bob)
    assert mentions(bob) == INVITES_PER_PAIR
    posted = len(stub.messages(stub.channel))
    again = await stub.slash("table new", alice, stub.channel, game="motz", invite=carol, invite2=bob)
    refused(again, f"You have invited bob {INVITES_PER_PAIR} times within an hour: you can invite them again "
                   f"<t:{2_000_000 + int(INVITES_WINDOW)}:R>.")
    await stub.slash("language", alice, stub.channel, language="fr")
    refused(await stub.slash("table new", alice, stub.channel, game="motz", invite=bob),
            f"Vous avez invité bob {INVITES_PER_PAIR} fois en une heure")
    await stub.slash("language", alice, stub.channel, language="en")
    assert len(stub.messages(stub.channel)) == posted and mentions(bob) == INVITES_PER_PAIR  # no mention
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000
    await open_and_end(alice, invite=carol)  # another member, or no invitation: as before
    await open_and_end(alice)
    await open_and_end(dave, invite=bob)  # another host
    assert mentions(bob) == INVITES_PER_PAIR + 1
    now[0] = 2_000_000.0 + INVITES_WINDOW  # the first invitation left the window
    await open_and_end(alice, invite=bob)
    assert mentions(bob) == INVITES_PER_PAIR + 2
    assert await tapis.ledger.accounts_total() == 0


async def test_play_again_in_a_loop_calls_a_former_player_back_within_the_invitation_rate(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """Play again mentions the former players whose seats it keeps, and a lobby it opened may be ended
    and opened anew: in a loop, each time a mention of the same member, within the opening rate only.
    The call counts as one of the opener's invitations: past ``INVITES_PER_PAIR`` an hour the lobby
    still opens with the seat kept, without the mention, and the opener is told."""
    from bot.cogs.table import INVITES_PER_PAIR, INVITES_WINDOW
    from tests.bot.test_rematch import calling, finished_motz

    cog = tapis.bot.get_cog("Tables")
    now = [3_000_000.0]
    monkeypatch.setattr(cog, "invites", MemberWindow(INVITES_PER_PAIR, INVITES_WINDOW, clock=lambda: now[0]))
    alice, bob = players[:2]
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    final = stub.message(table.message_id)
    since = len(stub.calls)
    for _ in range(INVITES_PER_PAIR):  # alice plays again and ends the lobby it opened
        assert not (await stub.click(final, alice, "Play again")).ephemeral
        await tapis.settle()
        [lobby] = await tapis.tables.tables_in_channel(stub.channel.id)
        assert "closed" in (await stub.slash("table end", alice, stub.channel, table=lobby.id)).text
        await tapis.settle()
        now[0] += 60.0
    assert len(calling(stub, since, bob)) == INVITES_PER_PAIR
    opened = await stub.click(final, alice, "Play again")
    await tapis.settle()
    [lobby] = await tapis.tables.tables_in_channel(stub.channel.id)  # opened
    assert lobby.plan.invited == {bob.id: table.seat_of(bob.id)}  # his seat is kept all the same
    assert len(calling(stub, since, bob)) == INVITES_PER_PAIR  # without a mention
    note = opened.last
    assert note.ephemeral and (f"Seats are kept for bob without a mention: you have invited them "
                               f"{INVITES_PER_PAIR} times within an hour.") in note.text, note.text
    again = await stub.slash("table new", alice, stub.channel, game="motz", invite=bob)
    refused(again, "You have invited bob")  # one count for both ways of calling him
    joined = await stub.click(final, bob, "Play again")  # bob sits down as before
    assert joined.ephemeral and f"#{lobby.id}" in joined.text, joined.text
    assert await tapis.ledger.accounts_total() == 0

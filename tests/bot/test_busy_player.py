"""A player at several tables at once (the busy player's read-through): ``/hand`` and ``/hint`` without
a table number, and the member cap counted across servers."""

from __future__ import annotations

from dataclasses import replace

from tests.bot.test_hostile import refused
from tests.bot.test_languages_session import open_lobby
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.tapis import TapisRun


async def test_hand_and_hint_without_a_number_pick_the_table_waiting_for_you_or_ask(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Two running tables in one channel, the same two players at both: without a number, ``/hand`` and
    ``/hint`` took the most recent one, even when the player's turn was at the other. Now the table
    waiting for them is taken; when that leaves several (their turn at both, or at neither) they are
    asked to give the number, both tables named."""
    alice, bob, _, _ = players
    first, _ = await open_table(stub, alice, [bob])
    second, _ = await open_table(stub, bob, [alice])
    await tapis.settle()
    tables = {t: await tapis.tables.get(t) for t in (first, second)}
    for user in (alice, bob):
        turn = [t for t, table in tables.items() if user.id in table.to_act_users()]
        hand = await stub.slash("hand", user, stub.channel)
        hint = await stub.slash("hint", user, stub.channel)
        assert hand.ephemeral and hint.ephemeral
        if len(turn) == 1:
            [mine] = turn
            other = second if mine == first else first
            assert f"#{mine}" in hand.text and "Your hand" in hand.text, hand.text
            assert f"#{other}" not in hand.text, hand.text
            assert f"#{mine}" in hint.text and f"#{other}" not in hint.text, hint.text
        else:
            for answer in (hand, hint):
                assert "Your hand" not in answer.text, answer.text
                assert f"#{first}" in answer.text and f"#{second}" in answer.text, answer.text
                assert "table:" in answer.text, answer.text
    await tapis.settle()


async def test_member_cap_names_the_tables_in_other_servers_and_table_mine_counts_them(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The member cap counts open tables on every server, ``/table mine`` lists one server's: a member
    at the cap with a table in another server read "You already sit at 2 open tables" here, where
    ``/table mine`` showed one, and nothing said where the other was. Now the refusal says how many are
    in other servers, and ``/table mine`` says it lists this server's and counts the others."""
    tapis.tables.config = replace(tapis.tables.config, tables_per_member=2)
    alice = players[0]
    elsewhere = stub.add_guild("Elsewhere")
    elsewhere.members.append(alice)
    there = elsewhere.channels[0]
    assert not (await stub.slash("table new", alice, there, game="motz")).ephemeral
    assert not (await stub.slash("table new", alice, stub.channel, game="motz")).ephemeral
    await tapis.settle()
    room = stub.add_channel(stub.guild, "room")
    third = await stub.slash("table new", alice, room, game="motz")
    refused(third, "You already sit at 2 open tables, 1 of them in other servers (the limit is 2")
    mine = await stub.slash("table mine", alice, stub.channel)
    assert "this server" in mine.text.splitlines()[0], mine.text
    assert "1 open table in other servers" in mine.text, mine.text
    [here] = await tapis.tables.tables_in_guild(stub.guild.id)
    assert f"#{here.id}" in mine.text
    await tapis.settle()


def _live_prompts(stub: DiscordStub, user: User, table_id: int) -> list[int]:
    """The ids of ``user``'s DMs for ``table_id`` that still read as their turn with moves to click."""
    return [m.id for m in stub.dms(user)
            if f"#{table_id}" in m.text and "Your turn" in m.text
            and any(c.startswith(f"tapis:{table_id}:") for c in m.custom_ids())]


async def test_an_older_prompt_of_a_table_stops_looking_current_once_a_newer_one_is_posted(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """A prompt the player left unanswered (the timeout move played for them) kept its "Your turn", its
    deadline and its buttons when the next prompt of the same table was posted below it: in a DM list
    holding several tables' hands, two messages of one table both read as waiting for them, and the
    older one's moves were refused as stale. Now the older one is edited to say it is out of date."""
    alice, bob, carol, _ = players
    table_id, _ = await open_lobby(stub, alice, [bob, carol], 0, "motz", options="pace=slow")
    await run.settle()
    table = await run.tables.get(table_id)
    by_id = {u.id: u for u in (alice, bob, carol)}
    mover = by_id[table.to_act_users()[0]]
    [first] = _live_prompts(stub, mover, table_id)
    for _ in range(12):  # deadlines pass (each seat misses at most one: the AI does not take it)
        table = await run.tables.get(table_id)
        if table.status != "playing" or len(_live_prompts(stub, mover, table_id)) > 1 \
                or any(m.id > first and "Your turn" in m.text for m in stub.dms(mover)):
            break
        clock.t = table.deadline + 1
        await run.tables.fire_due_timers()
        await run.settle()
    newer = [m for m in stub.dms(mover)
             if m.id > first and f"#{table_id}" in m.text and "Your turn" in m.text]
    assert newer, "the mover was not prompted again"
    assert _live_prompts(stub, mover, table_id) == [newer[-1].id]
    old = stub.message(first)
    assert "out of date" in old.text and not old.custom_ids(), old.text
    await run.settle()


async def test_hint_off_turn_names_the_table(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """``/hint`` when it is not the player's turn said only "It is not your turn": a player at several
    tables read it without knowing which table was meant. Now it names the table."""
    alice, bob, _, _ = players
    table_id, _ = await open_table(stub, alice, [bob], options="hints=on")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    [waiting] = [u for u in (alice, bob) if u.id not in table.to_act_users()]
    answer = await stub.slash("hint", waiting, stub.channel)
    assert answer.ephemeral and "not your turn" in answer.text and f"#{table_id}" in answer.text, answer.text
    await tapis.settle()


async def test_table_leave_without_a_number_leaves_only_your_own_table_and_never_guesses(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """``/table leave`` without a number left the channel's most recent table: a player at two tables
    there left whichever was opened last, the other untouched by choice of no one; and a player at one
    table, under a newer lobby of someone else, was told they do not sit at that lobby. Now it leaves
    the one table they play there, and asks for the number when they play several."""
    alice, bob, carol, _ = players
    first, _ = await open_table(stub, alice, [bob])
    second, _ = await open_table(stub, alice, [carol])
    await tapis.settle()
    asked = await stub.slash("table leave", alice, stub.channel)
    assert asked.ephemeral and f"#{first}" in asked.text and f"#{second}" in asked.text, asked.text
    for table_id in (first, second):  # neither was left
        table = await tapis.tables.get(table_id)
        assert not table.seats[table.seat_of(alice.id)].away
    left = await stub.slash("table leave", bob, stub.channel)  # bob plays only the first
    assert "You left" in left.text, left.text
    table = await tapis.tables.get(first)
    assert table.seats[table.seat_of(bob.id)].away
    await tapis.settle()


async def test_joining_a_lobby_at_the_cap_says_how_many_tables_are_in_other_servers(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Join pressed at the member cap, with a table in another server: the refusal said only "You
    already sit at 1 open table" here, where the member sits at none. Now it says it is elsewhere."""
    tapis.tables.config = replace(tapis.tables.config, tables_per_member=1)
    alice, bob = players[0], players[1]
    elsewhere = stub.add_guild("Elsewhere")
    elsewhere.members.append(alice)
    assert not (await stub.slash("table new", alice, elsewhere.channels[0], game="motz")).ephemeral
    await stub.slash("table new", bob, stub.channel, game="motz")
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    refused(await stub.click(lobby, alice, "Join"),
            "You already sit at 1 open table, 1 of them in other servers (the limit is 1")
    await tapis.settle()

"""Issue 28 items 2 and 3 through the stand-in: the clock on the table message and in the DM of the
player to act (a Discord timestamp, advanced after a move), and a correspondence table whose one
reminder DM is sent once, before and across a restart."""

from __future__ import annotations

import json
import random

import pytest

from tests.bot.test_languages_session import open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun

HOUR = 3600.0
REMINDER = "Reminder:"


def stamp(at: float) -> str:
    return f"<t:{int(at)}:R>"


def latest_dm(stub: DiscordStub, user: User):
    dms = stub.dms(user)
    assert dms, f"no DM to {user.name}"
    return dms[-1]


async def test_the_clock_is_on_the_table_and_the_dm_and_moves_on(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    alice, bob, carol, _ = players
    table_id, lobby = await open_lobby(stub, alice, [bob, carol], 0, "motz", options="pace=slow")
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.options["pace"] == "slow"
    first = table.deadline
    assert first == pytest.approx(clock.t + 600)
    by_id = {u.id: u for u in (alice, bob, carol)}
    mover = by_id[table.to_act_users()[0]]
    shown = stub.message(table.message_id).text
    assert stamp(first) in shown and "timeout move" in shown and "2 missed deadlines" in shown
    assert stamp(first) in latest_dm(stub, mover).text and "Your deadline" in latest_dm(stub, mover).text
    others = [u for u in by_id.values() if u is not mover]
    assert all(stamp(first) not in m.text for u in others for m in stub.dms(u))  # not their turn
    clock.t += 100
    await play_once(stub, run, table_id, mover, random.Random(1))
    await run.settle()
    table = await run.tables.get(table_id)
    second = table.deadline
    assert second == pytest.approx(clock.t + 600) and second > first
    nxt = by_id[table.to_act_users()[0]]
    shown = stub.message(table.message_id).text
    assert stamp(second) in shown and stamp(first) not in shown
    assert stamp(second) in latest_dm(stub, nxt).text


async def test_a_correspondence_reminder_is_sent_once_across_a_restart(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    alice, bob, _, _ = players
    table_id, lobby = await open_lobby(stub, alice, [bob], 1, "motz", options="pace=correspondence")
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing"
    by_id = {u.id: u for u in (alice, bob)}
    deadline = table.deadline
    assert deadline == pytest.approx(clock.t + 48 * HOUR)
    mover = by_id[table.to_act_users()[0]]

    def reminders() -> list[str]:
        """Every reminder DM posted to the mover (as sent: a later edit may mark it out of date)."""
        dm = stub.dm_channels.get(mover.id)
        return [json.dumps(c.json, ensure_ascii=False) for c in stub.calls
                if c.method == "POST" and dm is not None and c.path == f"/channels/{dm.id}/messages"
                and REMINDER in json.dumps(c.json, ensure_ascii=False)]

    clock.t = deadline - 6 * HOUR - 1
    await run.tables.fire_due_timers()
    await run.settle()
    assert reminders() == []
    clock.t = deadline - 6 * HOUR
    await run.tables.fire_due_timers()
    await run.settle()
    assert len(reminders()) == 1 and stamp(deadline) in reminders()[0]
    assert latest_dm(stub, mover).items(), "the reminder carries the moves"
    version = (await run.tables.get(table_id)).version
    await run.stop()
    clock.t += 60
    await run.restart()
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing" and table.version == version
    await run.tables.fire_due_timers()
    await run.settle()
    assert len(reminders()) == 1  # not sent again by the new process
    clock.t = table.deadline
    await run.tables.fire_due_timers()
    await run.settle()
    table = await run.tables.get(table_id)
    assert table.version > version and not table.seats[table.seat_of(mover.id)].away  # seat kept
    assert len(reminders()) == 1


async def test_no_reminder_for_a_player_who_turned_reminders_off(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    alice, bob, _, _ = players
    for user in (alice, bob):  # /preferences reminders: off (issue 29), whoever is to act
        saved = await stub.slash("preferences", user, stub.channel, reminders=False)
        assert saved.ephemeral
    table_id, _ = await open_lobby(stub, alice, [bob], 1, "motz", options="pace=correspondence")
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing"
    mover = {u.id: u for u in (alice, bob)}[table.to_act_users()[0]]
    sent_before = len(stub.dms(mover))
    clock.t = table.deadline - 6 * HOUR
    await run.tables.fire_due_timers()
    await run.settle()
    assert not any(REMINDER in m.text for m in stub.dms(mover))
    assert len(stub.dms(mover)) == sent_before  # no DM at all for the reminder


async def test_table_mine_lists_my_tables_with_turn_deadline_and_link(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    alice, bob, carol, dave = players
    playing, _ = await open_lobby(stub, alice, [bob], 1, "motz", options="pace=correspondence")
    await stub.slash("table new", carol, stub.channel, game="mus")
    await run.settle()
    lobby_id = max(t.id for t in await run.tables.open_tables())
    await stub.click(stub.messages(stub.channel)[-1], alice, custom_id=f"tapis:{lobby_id}:0:join")
    await run.settle()
    table = await run.tables.get(playing)
    inter = await stub.slash("table mine", alice, stub.channel)
    text = inter.text
    assert inter.ephemeral
    link = f"https://discord.com/channels/{stub.guild.id}/{stub.channel.id}/{table.message_id}"
    assert f"#{playing}" in text and link in text and stamp(table.deadline) in text
    assert f"#{lobby_id}" in text and "in the lobby" in text
    mover = table.to_act_users()[0]
    first_line = text.splitlines()[1]  # under the line saying these are this server's
    assert (("your turn" in first_line) == (mover == alice.id))
    nothing = await stub.slash("table mine", dave, stub.channel)
    assert "not seated" in nothing.text


def test_table_mine_is_cut_with_a_count_within_2000_characters() -> None:
    from bot.i18n import english
    from bot.rules import GAMES
    from bot.tables.model import SeatInfo, Table
    from bot.views.mine import LIMIT, mine_text

    tables = [Table(id=i, guild_id=1, channel_id=2, message_id=10**17 + i, host_id=5, game="mus",
                    rules=GAMES["mus"], options={}, seed=None, status="lobby",
                    seats=[SeatInfo(5, "x" * 32)]) for i in range(1, 200)]
    text = mine_text(tables, 5, english())
    assert len(text) <= LIMIT
    shown = text.count("https://discord.com/channels/")
    assert 0 < shown < 199 and text.endswith(f"… and {199 - shown} more tables.")
    assert len(mine_text(tables[:3], 5, english()).splitlines()) == 4  # the heading, three tables


async def test_an_unknown_pace_is_refused_in_the_readers_language(
        stub: DiscordStub, run: TapisRun, players: list[User]) -> None:
    alice = players[0]
    alice.locale = "fr"
    inter = await stub.slash("table new", alice, stub.channel, game="motz", players=3, options="pace=blitz")
    assert inter.ephemeral and "pace" in inter.text and "correspondence" in inter.text
    assert "must be one of" not in inter.text  # French, not English
    assert await run.tables.open_tables() == []


def channel_posts(stub: DiscordStub, channel_id: int) -> list[dict]:
    """The JSON of every message the bot posted to a channel (as sent)."""
    return [c.json for c in stub.calls
            if c.method == "POST" and c.path == f"/channels/{channel_id}/messages" and c.json is not None]


@pytest.mark.parametrize("unreachable", ["closed DMs", "hands in the channel"])
async def test_a_player_no_dm_reaches_is_reminded_in_the_channel_and_nobody_else_is_pinged(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock, unreachable: str) -> None:
    alice, bob, _, _ = players
    for user in (alice, bob):  # whoever is to act: the DM cannot reach them
        if unreachable == "closed DMs":
            stub.close_dms(user)
        else:
            saved = await stub.slash("preferences", user, stub.channel, hands="channel")
            assert saved.ephemeral
    table_id, _ = await open_lobby(stub, alice, [bob], 1, "motz", options="pace=correspondence")
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing"
    mover = table.to_act_users()[0]
    before = len(channel_posts(stub, stub.channel.id))
    clock.t = table.deadline - 6 * HOUR
    await run.tables.fire_due_timers()
    await run.settle()
    posts = channel_posts(stub, stub.channel.id)[before:]
    assert len(posts) == 1, posts
    [post] = posts
    link = f"https://discord.com/channels/{stub.guild.id}/{stub.channel.id}/{table.message_id}"
    assert post["content"].startswith(f"⏰ <@{mover}>, it is still your turn at **Motz #{table_id}**")
    assert stamp(table.deadline) in post["content"] and link in post["content"]
    assert [int(u) for u in post["allowed_mentions"]["users"]] == [mover]  # the mover, nobody else
    assert not post["allowed_mentions"].get("parse") and not post["allowed_mentions"].get("roles")
    clock.t += 60  # the timer again before the deadline: no second reminder
    await run.tables.fire_due_timers()
    await run.settle()
    assert len(channel_posts(stub, stub.channel.id)) == before + 1

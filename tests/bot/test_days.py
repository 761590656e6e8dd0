"""Play over days through the stand-in: a correspondence table's deadline and reminder across
restarts (the held clock moved by hours)."""

from __future__ import annotations

import json

import pytest

from bot.tables.model import Table
from tests.bot.test_languages_session import open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.tapis import TapisRun

HOUR = 3600.0


def reminder_posts(stub: DiscordStub, user: User) -> list[str]:
    """Every reminder DM posted to ``user`` (as sent)."""
    dm = stub.dm_channels.get(user.id)
    return [json.dumps(c.json, ensure_ascii=False) for c in stub.calls
            if c.method == "POST" and dm is not None and c.path == f"/channels/{dm.id}/messages"
            and "Reminder:" in json.dumps(c.json, ensure_ascii=False)]


async def playing(stub: DiscordStub, run: TapisRun, players: list[User], pace: str = "correspondence",
                  ) -> tuple[int, Table, User]:
    """A Motz table of alice, bob and an AI at ``pace``, started: its id, the table, who is to act."""
    alice, bob, _, _ = players
    table_id, _ = await open_lobby(stub, alice, [bob], 1, "motz", options=f"pace={pace}")
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing"
    return table_id, table, {u.id: u for u in (alice, bob)}[table.to_act_users()[0]]


async def test_a_restart_keeps_a_correspondence_deadline_instead_of_restarting_it(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, _ = await playing(stub, run, players)
    deadline = table.deadline
    assert deadline == pytest.approx(clock.t + 48 * HOUR)
    for _ in range(3):  # a deploy every 12 hours: the deadline still comes
        await run.stop()
        clock.t += 12 * HOUR
        await run.restart()
        await run.settle()
        table = await run.tables.get(table_id)
        assert table is not None and table.deadline == deadline


async def test_a_correspondence_deadline_missed_while_the_bot_was_down_gets_the_reminders_lead(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, mover = await playing(stub, run, players)
    version, deadline = table.version, table.deadline
    await run.stop()
    clock.t = deadline + HOUR  # down across the deadline (and the reminder's time)
    await run.restart()
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.version == version  # downtime does not count against them
    assert table.deadline == pytest.approx(clock.t + 6 * HOUR)  # the reminder's lead, not 48 hours
    await run.tables.fire_due_timers()
    await run.settle()
    assert len(reminder_posts(stub, mover)) == 1  # reminded at once


async def test_a_reminder_owed_at_a_restart_is_not_sent_again_by_the_next_restart(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, mover = await playing(stub, run, players)
    deadline = table.deadline
    await run.stop()
    clock.t = deadline - HOUR  # down across the reminder's time: the deadline moves to a grace
    await run.restart()
    await run.settle()
    await run.tables.fire_due_timers()
    await run.settle()
    moved = (await run.tables.get(table_id)).deadline
    assert moved > deadline and len(reminder_posts(stub, mover)) == 1
    await run.stop()
    clock.t += 60  # a second deploy a minute later
    await run.restart()
    await run.settle()
    await run.tables.fire_due_timers()
    await run.settle()
    assert (await run.tables.get(table_id)).deadline >= moved
    assert len(reminder_posts(stub, mover)) == 1  # the reminder of the moved deadline is not sent twice


async def test_a_deadline_moved_at_a_restart_is_the_one_in_the_dm_of_the_player_to_act(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, mover = await playing(stub, run, players, "slow")
    old = table.deadline
    assert f"<t:{int(old)}:R>" in stub.dms(mover)[-1].text
    await run.stop()
    clock.t = old + 60  # down across the deadline: a full turn from the start instead
    await run.restart()
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.deadline > old
    assert f"<t:{int(table.deadline)}:R>" in stub.message(table.message_id).text
    dm = stub.dms(mover)[-1].text
    assert f"<t:{int(table.deadline)}:R>" in dm and f"<t:{int(old)}:R>" not in dm  # not a passed deadline


async def test_play_again_opens_a_new_lobby_once_the_last_one_expired(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    from tests.bot.test_rematch import finished_motz

    alice, bob, _, _ = players
    table = await finished_motz(stub, run, alice, bob, "")
    final = stub.message(table.message_id)
    opened = await stub.click(final, bob, "Play again")
    await run.settle()
    assert not opened.ephemeral, opened.text
    [again] = await run.tables.tables_in_channel(stub.channel.id)
    assert again.status == "lobby"
    clock.t = again.deadline + 1  # nobody started it: it expires, buy-ins refunded
    await run.tables.fire_due_timers()
    await run.settle()
    assert again.status == "cancelled"
    reopened = await stub.click(final, alice, "Play again")  # days later: not "already played again"
    await run.settle()
    assert not reopened.ephemeral, reopened.text
    [fresh] = await run.tables.tables_in_channel(stub.channel.id)
    assert fresh.id != again.id and fresh.status == "lobby" and fresh.host_id == alice.id

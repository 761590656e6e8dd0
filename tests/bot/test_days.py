"""Play over days through the stand-in: a correspondence table's deadline and reminder across
restarts (the held clock moved by hours)."""

from __future__ import annotations

import json
import random

import pytest

from bot.tables.model import Table
from tests.bot.test_languages_session import open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.play import play_once
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


async def miss_until_away(stub: DiscordStub, run: TapisRun, table_id: int, user: User, others: list[User],
                          clock: Clock) -> Table:
    """``user`` lets every deadline of theirs pass until the AI takes their seat (a week on holiday);
    ``others`` play their turns a few hours after them."""
    rng, by_id = random.Random(3), {u.id: u for u in others}
    for _ in range(40):
        table = await run.tables.get(table_id)
        assert table is not None and table.status == "playing" and table.deadline is not None
        if table.seats[table.seat_of(user.id)].away:
            return table
        if user.id not in table.to_act_users():
            clock.t += 3 * HOUR
            await play_once(stub, run, table_id, by_id[table.to_act_users()[0]], rng)
            await run.settle()
            continue
        clock.t = table.deadline
        await run.tables.fire_due_timers()
        await run.settle()
    raise AssertionError(f"{user.name}'s seat never went to the AI")


async def test_a_player_whose_seat_the_ai_took_is_told_once_and_how_to_take_it_back(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Before, a player away for a week heard nothing: their last DM still showed their move buttons
    and a deadline long passed, and /hand said "Waiting for bob." without a word about the AI."""
    table_id, _, mover = await playing(stub, run, players)
    before = len(stub.dms(mover))
    others = [u for u in players[:2] if u is not mover]
    table = await miss_until_away(stub, run, table_id, mover, others, clock)
    told = [m for m in stub.dms(mover)[before:] if "AI plays your seat" in m.text]
    assert len(told) == 1, [m.text for m in stub.dms(mover)[before:]]
    assert "</table join:" in told[0].text  # how to come back: the command, or the one button
    assert [c.get("label") for c in told[0].items()] == ["Take my seat back"]  # no dead move buttons
    hand = await stub.slash("hand", mover, stub.channel, table=table.id)
    assert "AI plays your seat" in hand.text and "</table join:" in hand.text, hand.text
    take_back = told[0].button("Take my seat back")["custom_id"]
    back = await stub.click(told[0], mover, "Take my seat back")  # from the DM, where /table join is not
    assert "back" in back.text and not table.seats[table.seat_of(mover.id)].away, back.text
    await run.settle()
    assert "AI plays your seat" not in (await stub.slash("hand", mover, stub.channel, table=table.id)).text
    # a second click (the DM is retired once a newer one is posted: the button as it was) changes nothing
    again = await stub.click(told[0], mover, custom_id=take_back)
    assert "back at table" not in again.text


async def test_the_dm_and_table_status_lead_back_to_the_table_message_however_far_up_it_is(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Days later the table message is far up the channel: before, neither a player's DM (nor the
    final one, above Play again) nor /table status linked to it."""
    table_id, table, mover = await playing(stub, run, players)
    link = f"https://discord.com/channels/{stub.guild.id}/{stub.channel.id}/{table.message_id}"
    assert stub.dms(mover)[-1].embeds[0].get("url") == link  # its title jumps to the table message
    clock.t += 30 * HOUR
    status = await stub.slash("table status", mover, stub.channel, table=table_id)
    assert status.ephemeral and status.last.embeds[0].get("url") == link, status.last.embeds


async def test_a_correspondence_deadline_shows_its_date_and_time_not_only_in_2_days(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Before, a deadline two days off read only "in 2 days" (Discord rounds it to the day): a player
    in another time zone could not tell whether it ended in their morning or their night."""
    table_id, table, mover = await playing(stub, run, players)
    dated = f"<t:{int(table.deadline)}:f> (<t:{int(table.deadline)}:R>)"
    assert dated in stub.dms(mover)[-1].text and dated in stub.message(table.message_id).text


async def test_a_deadline_minutes_away_stays_relative(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, mover = await playing(stub, run, players, "slow")
    assert f"<t:{int(table.deadline)}:R>" in stub.dms(mover)[-1].text
    assert ":f>" not in stub.dms(mover)[-1].text and ":f>" not in stub.message(table.message_id).text


async def test_a_player_who_opens_their_dms_again_gets_them_back_at_the_next_reminder(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Before, DMs found closed once stayed closed for the whole session (days at correspondence):
    no prompt, no reminder by DM, and the table message's "has closed DMs" notice, forever."""
    alice, bob, _, _ = players
    for user in (alice, bob):
        stub.close_dms(user)
    table_id, table, mover = await playing(stub, run, players)
    seat = table.seat_of(mover.id)
    assert table.seats[seat].dm_closed and "closed DMs" in stub.message(table.message_id).text
    stub.closed_dms.discard(mover.id)  # the next day they open their DMs again
    clock.t = table.deadline - 6 * HOUR
    await run.tables.fire_due_timers()
    await run.settle()
    assert len(reminder_posts(stub, mover)) == 1  # the reminder reached them by DM
    table = await run.tables.get(table_id)
    assert not table.seats[seat].dm_closed
    assert f"{mover.name} has closed DMs" not in stub.message(table.message_id).text
    await play_once(stub, run, table_id, mover, random.Random(1))  # from that DM
    await run.settle()
    while table.status == "playing" and mover.id not in table.to_act_users():
        other = {u.id: u for u in (alice, bob)}[table.to_act_users()[0]]
        await play_once(stub, run, table_id, other, random.Random(2), via="hand")
        await run.settle()
    if table.status == "playing":  # their next turn comes by DM again
        assert stub.dms(mover)[-1].items() and f"version {table.version}" in stub.dms(mover)[-1].text


async def test_a_correspondence_lobby_waits_a_day_for_a_friend_asleep_in_another_time_zone(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Before, every lobby closed after ``lobby_expiry_hours`` (6): a correspondence table opened in
    Europe's evening was cancelled before a friend in Asia woke up to join it."""
    alice, bob, _, _ = players
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, options="pace=correspondence")
    await run.settle()
    [lobby] = await run.tables.tables_in_channel(stub.channel.id)
    assert lobby.deadline == pytest.approx(clock.t + 48 * HOUR)  # a full turn of its pace
    assert f"<t:{int(lobby.deadline)}:R>" in stub.messages(stub.channel)[-1].text
    clock.t += 9 * HOUR  # bob wakes up
    await run.tables.fire_due_timers()
    await run.settle()
    assert lobby.status == "lobby"
    joined = await stub.click(stub.message(lobby.message_id), bob, "Join")
    assert "joined" in joined.text, joined.text
    clock.t = lobby.deadline + 1  # nobody starts it: it still expires, buy-ins refunded
    await run.tables.fire_due_timers()
    await run.settle()
    assert lobby.status == "cancelled" and await run.ledger.accounts_total() == 0


async def test_a_lobby_at_a_fast_pace_keeps_the_operators_expiry(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    await stub.slash("table new", players[0], stub.channel, game="motz", players=3, options="pace=slow")
    await run.settle()
    [lobby] = await run.tables.tables_in_channel(stub.channel.id)
    assert lobby.deadline == pytest.approx(clock.t + 6 * HOUR)


async def test_the_final_dm_of_a_session_that_ended_days_later_gives_the_results(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """Before, the final DM said only "The session is over" and the player's own stack: who won, and
    by how much, was on the table message far up the channel."""
    from tests.bot.test_rematch import finished_motz

    alice, bob, _, _ = players
    table = await finished_motz(stub, run, alice, bob, "rotations=1 max_extra_deals=0 pace=correspondence")
    assert table.results is not None
    for user in (alice, bob):
        final = stub.dms(user)[-1].text
        assert "The session is over." in final and "Results: alice " in final, final
        net = table.results[table.seat_of(bob.id)]
        assert f"bob {'+' if net > 0 else '−' if net < 0 else ''}{abs(net)}" in final, final  # a true minus



async def test_an_away_seat_to_act_is_not_told_to_choose_a_move_it_has_no_button_for(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    """The hand of a seat the AI took, built while the AI is about to move for it: no "Your turn.
    Choose a move below." over no buttons, but the note saying the AI plays it."""
    from dataclasses import replace as copy

    from bot.i18n import english
    from bot.outbox.hand import hand_message

    table_id, table, mover = await playing(stub, run, players)
    seat = table.seat_of(mover.id)
    away = copy(table, seats=[copy(info, away=info.user_id == mover.id) for info in table.seats])
    assert run.bot is not None and seat in away.to_act()
    embed, view = hand_message(run.bot, away, seat, english())
    turn = next(f.value for f in embed.fields if f.name == "Turn")
    assert "AI plays your seat" in turn and "Your turn" not in turn, turn
    assert view is not None and [getattr(i, "label", None) for i in view.children] == ["Take my seat back"]


async def test_table_mine_dates_a_correspondence_deadline_too(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock) -> None:
    table_id, table, mover = await playing(stub, run, players)
    mine = await stub.slash("table mine", mover, stub.channel)
    assert f"<t:{int(table.deadline)}:f> (<t:{int(table.deadline)}:R>)" in mine.text, mine.text


async def test_a_forged_take_back_click_is_no_way_into_a_lobby(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    """The away hand's button may come from a DM (outside the table's server): forged on a lobby, it
    must not seat anyone, as Join would (no buy-in taken, nobody seated)."""
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    lobby = stub.message(table.message_id)
    before = await tapis.ledger.balance(stub.guild.id, bob.id)
    forged = await stub.click(lobby, bob, custom_id=f"tapis:{table.id}:{table.version}:back")
    assert forged.ephemeral, forged.text
    assert table.seat_of(bob.id) is None and await tapis.ledger.balance(stub.guild.id, bob.id) == before

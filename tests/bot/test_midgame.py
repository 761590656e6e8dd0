"""A table whose channel changes under it while it is played (through the stand-in, answering as
Discord would): a permission taken away (403/50013), a thread locked, the bot removed from the
server, the channel deleted with the table in its thread. The game is never lost, no jeton is lost,
the players are told where it goes on, and no request is repeated against a refusal."""

from __future__ import annotations

import json
import logging
import random
import types
from collections.abc import AsyncIterator

import pytest

from bot.store import tables as store
from tests.bot.test_languages_session import open_lobby
from tests.bot.test_lost import eventually
from tests.bot.test_session import open_table
from tests.bot.test_threads import open_in_thread, play_to_the_end, threaded_run
from tests.discord_stub import Channel, DiscordStub, User
from tests.discord_stub.fixtures import Clock
from tests.discord_stub.play import play_once, play_session
from tests.discord_stub.tapis import TapisRun

SHORT = "rotations=1 max_extra_deals=0"
LOST = "can no longer show this table in its channel"
#: A table seed whose first Motz deal outlasts the moves of the reminder test.
DEAL_SEED = 1


@pytest.fixture
async def threaded(stub: DiscordStub, database: str) -> AsyncIterator[TapisRun]:
    """Tapis with a thread per table."""
    async with threaded_run(stub, database) as r:
        yield r


async def some_moves(stub: DiscordStub, run: TapisRun, table_id: int, users: list[User], n: int,
                     via: str = "dm") -> None:
    """``n`` moves of the humans (the deal under way when the channel changes)."""
    by_id, rng = {u.id: u for u in users}, random.Random(1)
    for _ in range(n):
        await run.settle()
        table = await run.tables.get(table_id)
        assert table is not None and table.status == "playing"
        await play_once(stub, run, table_id, by_id[table.to_act_users()[0]], rng, via)
    await run.settle()


async def closing(run: TapisRun, table_id: int) -> None:
    """Wait until the table is closing (the bot reads gateway events on its own time)."""
    table = await run.tables.get(table_id)
    assert table is not None
    await eventually(lambda: table.closing or table.status != "playing", "the table closing")
    await run.settle()


def told(stub: DiscordStub, since: int, user: User) -> bool:
    """Whether a DM shown to ``user`` since call ``since`` (a new one, or their clicked one edited
    through its interaction) said the table's channel is out of reach."""
    dm = f"/channels/{stub.dm_channel(user).id}/"
    for call in stub.calls[since:]:
        if LOST not in json.dumps(call.json, ensure_ascii=False) or call.status >= 400:
            continue
        inter = stub.by_token.get(call.path.split("/")[3]) if call.path.startswith("/webhooks/") else None
        if call.path.startswith(dm) or (inter is not None and inter.user.id == user.id):
            return True
    return False


def requests_to(stub: DiscordStub, since: int, *channels: int) -> list[str]:
    """The requests sent since call ``since`` to any of ``channels`` (their messages, the channel)."""
    prefixes = tuple(f"/channels/{c}" for c in channels)
    return [f"{c.method} {c.path} {c.status}" for c in stub.calls[since:] if c.path.startswith(prefixes)]


async def permission_taken_away(stub: DiscordStub, tapis: TapisRun, host: User,
                                guests: list[User]) -> tuple[Channel, int]:
    """A table opened in a channel of its own, then Attach Files taken away there (403/50013)."""
    room = stub.add_channel(stub.guild, "room")
    stub.channel = room  # type: ignore[attr-defined]  # open_table works in stub.channel
    table_id, _ = await open_table(stub, host, guests, options=SHORT)
    await tapis.settle()
    stub.lose_channel(room, 403, code=50013)
    return room, table_id


async def test_a_permission_taken_away_mid_session_closes_the_table_after_one_refusal(
        stub: DiscordStub, tapis: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    """Attach Files (or Embed Links, Send Messages) removed: Discord answers the table message's edits
    403/50013. One refused edit, then none; the players are told by DM; the table closes at the end of
    the deal with every jeton where it belongs."""
    alice, bob, carol, _ = players
    room, table_id = await permission_taken_away(stub, tapis, alice, [bob, carol])
    since = len(stub.calls)
    caplog.clear()
    humans = {u.id: u for u in (alice, bob, carol)}
    moves = await play_session(stub, tapis, table_id, humans, random.Random(5))
    table = await tapis.tables.get(table_id)
    assert moves > 1 and table is not None and table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    assert [a.action for a in actions if a.seat is None] == [{"type": "close", "now": False,
                                                              "reason": "lost_channel"}]
    refused = requests_to(stub, since, room.id)
    assert len(refused) == 1 and refused[0].endswith(" 403"), refused  # one refused edit, then no more
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING
                and "unreachable" in r.getMessage()]) == 1
    for user in (alice, bob, carol):  # each was told, in a DM, where the game goes on
        assert told(stub, since, user), user.name
    assert await tapis.ledger.accounts_total() == 0
    assert sum([await tapis.ledger.balance(stub.guild.id, u.id) for u in (alice, bob, carol)]) > 0


async def test_a_restart_remembers_the_channel_out_of_reach(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The close logged when the channel was lost says why: after a restart mid-deal the new process
    sends nothing more to that channel (not even one refused edit), no player is told twice at the
    start, the hands still say where the game goes on, and the table ends with every jeton in its
    place."""
    alice, bob, carol, _ = players
    room, table_id = await permission_taken_away(stub, tapis, alice, [bob, carol])
    humans = {u.id: u for u in (alice, bob, carol)}
    await some_moves(stub, tapis, table_id, [alice, bob, carol], 1)
    await closing(tapis, table_id)
    assert requests_to(stub, 0, room.id)  # the refused edit that found the channel out of reach
    await tapis.stop()
    since = len(stub.calls)
    await tapis.restart()
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and table.closed_by == "lost_channel"
    for user in (alice, bob, carol):  # their hands shown again at the start say it, once each
        notes = [c for c in stub.calls[since:] if c.path.startswith(f"/channels/{stub.dm_channel(user).id}/")
                 and LOST in json.dumps(c.json, ensure_ascii=False)]
        assert len(notes) <= 1, user.name
    moves = await play_session(stub, tapis, table_id, humans, random.Random(5))
    table = await tapis.tables.get(table_id)
    assert moves >= 1 and table is not None and table.status == "finished"
    assert any(told(stub, since, u) for u in (alice, bob, carol))  # their hands say it still
    assert requests_to(stub, since, room.id) == []  # known out of reach: no request refused again
    assert await tapis.ledger.accounts_total() == 0


async def test_a_player_who_chose_hands_in_the_channel_gets_them_by_dm_once_it_is_lost(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """``/preferences hands: channel`` shows a hand under the table's My hand button; once Tapis can
    no longer reach that channel the button goes with it, so that player's hand comes by DM, saying
    where the game goes on (it reached them only through My hand, if at all)."""
    alice, bob, carol, _ = players
    await stub.slash("preferences", bob, stub.channel, hands="channel")
    room, table_id = await permission_taken_away(stub, tapis, alice, [bob, carol])
    assert stub.dms(bob) == []  # his choice: no DM while the channel is there
    await some_moves(stub, tapis, table_id, [alice, bob, carol], 1)
    await closing(tapis, table_id)
    assert told(stub, 0, bob)  # his hand, by DM, saying the channel is lost
    table = await tapis.tables.get(table_id)
    assert table is not None and table.status == "playing"


async def test_a_permission_taken_away_in_the_thread_brings_the_table_back_to_the_channel(
        stub: DiscordStub, threaded: TapisRun, players: list[User]) -> None:
    """Send Messages in Threads removed: the thread refuses the table message (403/50013); the table
    comes back to its channel line and is played to its natural end there."""
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, threaded, alice, bob)
    thread = stub.channels[line.id]
    stub.lose_channel(thread, 403, code=50013)
    since = len(stub.calls)
    await play_to_the_end(stub, threaded, table_id, [alice, bob])
    table = await threaded.tables.get(table_id)
    assert table is not None and table.message_id == line.id and not table.extra_messages["thread"]
    actions = await threaded.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
    assert not [a for a in actions if a.seat is None]  # not closed early: it went on in the channel
    final = stub.message(line.id)
    assert "The session is over." in final.text and "thread could not be used" in final.text
    assert len(requests_to(stub, since, thread.id)) == 1  # one refused edit in the thread


async def test_a_locked_thread_brings_the_table_back_to_the_channel(
        stub: DiscordStub, threaded: TapisRun, players: list[User]) -> None:
    """A moderator locks (and so archives) the table's thread: it may not be reopened without Manage
    Threads (403/50013); the table comes back to the channel."""
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, threaded, alice, bob)
    thread = stub.channels[line.id]
    stub.lock_thread(thread)
    assert threaded.bot is not None
    threaded.bot.presenter.table_tokens.life = 0  # Start's token is older than 14 minutes: the channel's
    await play_to_the_end(stub, threaded, table_id, [alice, bob])
    table = await threaded.tables.get(table_id)
    assert table is not None and table.message_id == line.id and not table.extra_messages["thread"]
    assert thread.locked and thread.archived  # still as the moderator left it
    assert "The session is over." in stub.message(line.id).text


async def test_the_bot_removed_from_the_server_sends_nothing_there_and_closes_its_tables(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """GUILD_DELETE (kicked): no request to the server's channels at all; play goes on by DM, the
    table closes at the end of the deal, a lobby is cancelled and refunded."""
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol], options=SHORT)
    await stub.slash("table new", dave, stub.channel, game="motz", players=3, buy_in=200)
    await tapis.settle()
    assert await tapis.ledger.balance(stub.guild.id, dave.id) == 800
    await some_moves(stub, tapis, table_id, [alice, bob, carol], 2)
    since = len(stub.calls)
    await stub.remove_bot(stub.guild)
    await closing(tapis, table_id)
    humans = {u.id: u for u in (alice, bob, carol)}
    await play_session(stub, tapis, table_id, humans, random.Random(3))
    table = await tapis.tables.get(table_id)
    assert table is not None and table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    assert [a.action for a in actions if a.seat is None] == [{"type": "close", "now": False,
                                                              "reason": "lost_channel"}]
    assert requests_to(stub, since, stub.channel.id) == []
    assert await tapis.ledger.balance(stub.guild.id, dave.id) == 1000  # the lobby refunded
    assert all(told(stub, since, u) for u in (alice, bob, carol))
    [why] = [m.text for m in stub.dms(dave)]  # the lobby's host is told why, by DM
    assert why == (f"Table #{table_id + 1} (Motz) was cancelled before it started: Tapis can no longer "
                   "reach its channel. Your buy-in of 200 jetons is back in your wallet."), why
    assert await tapis.ledger.accounts_total() == 0


async def test_the_channel_deleted_under_a_table_in_its_thread_gets_no_request_at_the_end(
        stub: DiscordStub, threaded: TapisRun, players: list[User]) -> None:
    """The channel (and its threads with it) deleted: its line is not edited nor its thread archived
    at the end of the session: both are gone."""
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, threaded, alice, bob)
    thread = stub.channels[line.id]
    await some_moves(stub, threaded, table_id, [alice, bob], 2)
    stub.lose_channel(stub.channel)
    stub.lose_channel(thread)
    since = len(stub.calls)
    await stub.dispatch("CHANNEL_DELETE", stub.channel.payload())
    await closing(threaded, table_id)
    await play_session(stub, threaded, table_id, {u.id: u for u in (alice, bob)}, random.Random(4))
    await threaded.settle()
    table = await threaded.tables.get(table_id)
    assert table is not None and table.status == "finished"
    assert requests_to(stub, since, stub.channel.id, thread.id) == []
    assert await threaded.ledger.accounts_total() == 0


async def test_no_channel_reminder_is_posted_where_the_table_is_out_of_reach(
        stub: DiscordStub, run: TapisRun, players: list[User], clock: Clock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A correspondence player no DM reaches is reminded in the channel, but not once the channel
    refuses the table (403/50013): that post would only be refused too."""
    from bot.tables import lobby

    # the deal is still under way after these moves (a random deal ended sooner once in a while)
    monkeypatch.setattr(lobby, "secrets", types.SimpleNamespace(randbits=lambda bits: DEAL_SEED))
    alice, bob, _, _ = players
    for user in (alice, bob):
        stub.close_dms(user)
    table_id, _ = await open_lobby(stub, alice, [bob], 1, "motz", options="pace=correspondence")
    await some_moves(stub, run, table_id, [alice, bob], 8, via="hand")
    stub.lose_channel(stub.channel, 403, code=50013)
    await some_moves(stub, run, table_id, [alice, bob], 1, via="hand")  # its edit is refused
    await closing(run, table_id)
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing" and table.deadline is not None
    since = len(stub.calls)
    clock.t = table.deadline - 6 * 3600.0  # a correspondence reminder is due
    await run.tables.fire_due_timers()
    await run.settle()
    assert requests_to(stub, since, stub.channel.id) == []


async def test_a_table_message_deleted_by_hand_is_posted_again_once(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """A moderator deletes the table message: the next edit finds it gone (404/10008) and posts it
    again, once; the game goes on there (checked right as it was)."""
    alice, bob, carol, _ = players
    table_id, lobby = await open_table(stub, alice, [bob, carol], options=SHORT)
    await tapis.settle()
    lobby.deleted = True
    await play_session(stub, tapis, table_id, {u.id: u for u in (alice, bob, carol)}, random.Random(6))
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and table.status == "finished" and table.message_id != lobby.id
    again = [m for m in stub.messages(stub.channel) if not m.deleted]
    assert [m.id for m in again] == [table.message_id]
    assert "The session is over." in again[0].text


async def test_a_thread_archived_for_inactivity_is_reopened_and_the_table_stays_there(
        stub: DiscordStub, threaded: TapisRun, players: list[User]) -> None:
    """Discord archives the table's thread after a long pause (unlocked): the refused edit (50083)
    reopens it, once, and the table goes on in its thread (checked right as it was)."""
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, threaded, alice, bob)
    thread = stub.channels[line.id]
    thread.archived = True
    assert threaded.bot is not None
    threaded.bot.presenter.table_tokens.life = 0  # Start's token is spent: the channel's edits
    since = len(stub.calls)
    await some_moves(stub, threaded, table_id, [alice, bob], 1)
    table = await threaded.tables.get(table_id)
    assert table is not None and table.extra_messages["thread"] == thread.id and not thread.archived
    reopen = [c.json for c in stub.calls[since:] if c.method == "PATCH" and c.route == "/channels/{cid}"]
    assert reopen == [{"archived": False}]
    assert table.message_id != line.id and f"version {table.version}" in stub.message(table.message_id).text

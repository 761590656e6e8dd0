"""What a stop or a crash must not lose: the prompt of the player to act, and the end of a session.

- A move commits, the process dies before the next player's DM went out: after the restart that
  player gets their moves at the table's version (``Presenter.prime``: a seat to act whose latest DM
  is older is prompted again); nobody else is sent anything, and a seat whose DM is up to date gets
  no second one.
- A clean stop lets the queued DMs go out first (``Presenter.close`` drains for a bounded time).
- A session ends and the process stops before its end is shown: after the restart the table message
  shows the result with Play again, the players get their final DMs, a thread's channel line shows
  the result and the thread is archived (``bot.tables.resume.resume_finished``); once shown, a
  further restart shows nothing again.
"""

from __future__ import annotations

import random

import pytest

from bot.store import tables as store
from bot.tables.model import FINAL_SHOWN
from tests.backends import BACKENDS
from tests.bot.test_session import open_table
from tests.bot.test_threads import open_in_thread, threaded_run
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import latest_dm_with_moves, move_controls, play_once
from tests.discord_stub.tapis import TapisRun

MESSAGE_ROUTE = "/channels/{cid}/messages/{mid}"


async def _commit_until_another_human_is_to_act(tapis: TapisRun, table_id: int) -> tuple[int, int]:
    """Moves through the service (nothing answered on Discord) until the player to act changes:
    (the player now to act, the table's version)."""
    table = await tapis.tables.get(table_id)
    assert table is not None and table.state is not None
    while True:
        mover = table.to_act_users()[0]
        action = table.state.legal_actions(table.seat_of(mover))[0]
        await tapis.tables.act(table_id, mover, table.version, action)  # committed; its DM is queued
        nxt = table.to_act_users()[0]
        if nxt != mover:
            return nxt, table.version
        await tapis.settle()


def _dm_count(stub: DiscordStub, users: list[User]) -> dict[int, int]:
    return {u.id: len(stub.dms(u)) for u in users}


async def _stop_without_settling(tapis: TapisRun) -> None:
    """A clean stop as ``python -m bot`` does it, with work still queued (no settling first)."""
    bot = tapis.bot
    assert bot is not None and tapis.db is not None
    await bot.close()
    await bot.tables.close()
    await tapis.db.close()
    tapis.bot = tapis.db = None


async def _marias_of_three(stub: DiscordStub, players: list[User]) -> tuple[list[User], dict[int, User], int]:
    """A Marias table of three humans (alice hosts): the humans, by id, and the table."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="marias")
    return [alice, bob, carol], {u.id: u for u in (alice, bob, carol)}, table_id


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_player_to_act_is_prompted_after_a_crash(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    humans, by_id, table_id = await _marias_of_three(stub, players)
    await tapis.settle()
    nxt, version = await _commit_until_another_human_is_to_act(tapis, table_id)
    await tapis.kill()  # the process dies before the DM worker ran
    assert latest_dm_with_moves(stub, by_id[nxt], table_id, version) is None
    before = _dm_count(stub, humans)
    await tapis.restart()
    await tapis.settle()
    dm = latest_dm_with_moves(stub, by_id[nxt], table_id, version)
    assert dm is not None, "the player to act was never sent their moves"
    assert stub.dms(by_id[nxt])[-1].id == dm.id
    after = _dm_count(stub, humans)
    assert {uid: after[uid] - before[uid] for uid in after} == {u.id: int(u.id == nxt) for u in humans}
    # and they can play from it
    table = await tapis.tables.get(table_id)
    assert table is not None
    control = move_controls(dm, table_id, version)[0]
    await stub.click(dm, by_id[nxt], custom_id=control["custom_id"])
    await tapis.settle()
    assert table.version == version + 1


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_player_already_prompted_is_not_prompted_again_after_a_crash(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    humans, by_id, table_id = await _marias_of_three(stub, players)
    rng = random.Random(2)
    for _ in range(4):  # moves clicked in the DMs, each answered in place, the next player prompted
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        assert table is not None
        await play_once(stub, tapis, table_id, by_id[table.to_act_users()[0]], rng)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None
    version, user = table.version, by_id[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, user, table_id, version)
    assert dm is not None
    await tapis.kill()  # after the prompt went out: the crash lost nothing
    before = _dm_count(stub, humans)
    await tapis.restart()
    await tapis.settle()
    assert _dm_count(stub, humans) == before
    assert move_controls(stub.message(dm.id), table_id, version), "the prompt was superseded"


async def test_a_clean_stop_sends_the_queued_prompt_and_the_restart_sends_it_no_more(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    humans, by_id, table_id = await _marias_of_three(stub, players)
    await tapis.settle()
    nxt, version = await _commit_until_another_human_is_to_act(tapis, table_id)
    await _stop_without_settling(tapis)
    dm = latest_dm_with_moves(stub, by_id[nxt], table_id, version)
    assert dm is not None, "the stop dropped the queued prompt"
    before = _dm_count(stub, humans)
    await tapis.restart()
    await tapis.settle()
    assert _dm_count(stub, humans) == before  # up to date: nobody is sent it again
    assert latest_dm_with_moves(stub, by_id[nxt], table_id, version) == dm


async def _final_marker(tapis: TapisRun, table_id: int) -> object:
    assert tapis.db is not None
    row = await tapis.db.run(store.load_table, table_id)
    assert row is not None and row.status == "finished"
    return row.extra_messages.get(FINAL_SHOWN)


def _shows_the_end(message: Message) -> bool:
    return any(c["custom_id"].endswith(":again") for c in message.items())


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_session_ended_just_before_a_crash_shows_its_end_after_the_restart(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, _, _ = players
    table_id, msg = await open_table(stub, alice, [bob], ai=1, game="michigan")
    await tapis.settle()
    admin = stub.add_user("admin", stub.guild, admin=True)
    assert tapis.bot is not None
    await tapis.bot.tables.end(table_id, admin.id, True, now=True)  # the commit path of a last move
    await tapis.kill()  # before the presenter showed anything
    assert not _shows_the_end(stub.message(msg.id))
    before = _dm_count(stub, [alice, bob])
    await tapis.restart()
    await tapis.settle()
    message = stub.message(msg.id)
    assert _shows_the_end(message), message.text
    assert "waiting for" not in message.text and "Deadline" not in message.text
    ids = {c["custom_id"].split(":")[3] for c in message.items()}
    assert "hand" not in ids and "leave" not in ids
    for user in (alice, bob):  # the final DMs: one each, their hand without moves
        assert len(stub.dms(user)) == before[user.id] + 1
        final = stub.dms(user)[-1]
        assert f"#{table_id}" in final.text
        assert not [c for c in final.items() if c.get("custom_id", "").split(":")[3:4] in (["mv"], ["sel"])]
    assert await _final_marker(tapis, table_id) == (await tapis.tables.get(table_id)).version  # type: ignore[union-attr]
    # shown once: another restart shows nothing again
    await tapis.stop()
    calls = len(stub.calls)
    await tapis.restart()
    await tapis.settle()
    assert not [c for c in stub.calls[calls:] if c.method in ("POST", "PATCH") and "messages" in c.route]


async def test_a_session_in_a_thread_ended_before_a_stop_closes_its_thread_after_the_restart(
        stub: DiscordStub, database: str, players: list[User]) -> None:
    alice, bob, _, _ = players
    async with threaded_run(stub, database) as run:
        table_id, line = await open_in_thread(stub, run, alice, bob)
        thread = stub.channels[line.id]
        admin = stub.add_user("admin", stub.guild, admin=True)
        assert run.bot is not None
        await run.bot.tables.end(table_id, admin.id, True, now=True)
        await run.kill()
        assert "being played" in stub.message(line.id).content and not thread.archived
        await run.restart()
        await run.settle()
        table = await run.tables.get(table_id)
        assert table is not None and table.message_id is not None
        assert _shows_the_end(stub.message(table.message_id))
        assert "is over" in stub.message(line.id).content
        assert thread.archived

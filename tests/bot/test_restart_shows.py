"""What a stop or a crash must not lose: the prompt of the player to act.

- A move commits, the process dies before the next player's DM went out: after the restart that
  player gets their moves at the table's version (``Presenter.prime``: a seat to act whose latest DM
  is older is prompted again); nobody else is sent anything, and a seat whose DM is up to date gets
  no second one.
- A clean stop lets the queued DMs go out first (``Presenter.close`` drains for a bounded time).
"""

from __future__ import annotations

import random

import pytest

from tests.backends import BACKENDS
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import latest_dm_with_moves, move_controls, play_once
from tests.discord_stub.tapis import TapisRun


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


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_player_to_act_is_prompted_after_a_crash(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    humans = [alice, bob, carol]
    by_id = {u.id: u for u in humans}
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="marias")
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
    alice, bob, carol, _ = players
    humans = [alice, bob, carol]
    by_id = {u.id: u for u in humans}
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="marias")
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
    alice, bob, carol, _ = players
    humans = [alice, bob, carol]
    by_id = {u.id: u for u in humans}
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=0, game="marias")
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

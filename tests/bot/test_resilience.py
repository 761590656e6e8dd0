"""Crashes, closed DMs and rate limits: the game goes on and nothing is applied twice."""

from __future__ import annotations

import random
import threading

import pytest
from discord.gateway import KeepAliveHandler

from bot.store import tables as store
from tests.backends import BACKENDS
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import latest_dm_with_moves, move_controls, play_once, play_session
from tests.discord_stub.tapis import TapisRun


@pytest.mark.parametrize("backend", BACKENDS)
async def test_kill_and_resume(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    humans = {u.id: u for u in (alice, bob, carol)}
    table_id, table_msg = await open_table(stub, alice, [bob, carol])
    rng = random.Random(3)
    for _ in range(3):
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        await play_once(stub, tapis, table_id, humans[table.to_act_users()[0]], rng)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    version, deal = table.version, table.state.view(None).get("deal")
    user = humans[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, user, table_id, version)
    assert dm is not None
    old_process_messages = {m.id for m in stub.store.values()}

    await tapis.kill()
    await tapis.restart()
    assert stub.connections == 2
    table = await tapis.tables.get(table_id)
    assert table.version == version and table.state.view(None).get("deal") == deal
    assert table.message_id == table_msg.id

    # A button the previous process posted still works in the new one, exactly once.
    control = move_controls(dm, table_id, version)[0]
    assert dm.id in old_process_messages
    inter = await stub.click(dm, user, custom_id=control["custom_id"])
    assert inter.callback_type == 7, inter.text
    again = await stub.click(dm, user, custom_id=control["custom_id"])
    assert again.callback_type == 4 and "out of date" in again.text
    hand = await stub.click(table_msg, user, "My hand")
    assert hand.ephemeral and "Your hand" in hand.text

    await play_session(stub, tapis, table_id, humans, rng)
    table = await tapis.tables.get(table_id)
    assert table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    assert [a.version for a in actions] == list(range(len(actions))) and len(actions) == table.version
    assert await tapis.ledger.accounts_total() == 0


async def test_closed_dms_and_rate_limits(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    humans = {u.id: u for u in (alice, bob, carol)}
    tapis.bot.presenter.table_tokens.life = 0.0  # table edits through the channel (its 429 below)
    stub.close_dms(carol)
    stub.inject_429("POST", "/channels/{cid}/messages", retry_after=0.05, count=2)
    stub.inject_429("PATCH", "/channels/{cid}/messages/{mid}", retry_after=0.05, count=1)
    table_id, table_msg = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    assert "carol has closed DMs" in table_msg.text and "My hand" in table_msg.text
    assert stub.dms(alice) and stub.dms(bob) and not stub.dms(carol)
    table = await tapis.tables.get(table_id)
    assert table.seats[table.seat_of(carol.id)].dm_closed
    statuses = [c.status for c in stub.calls if c.route.startswith("/channels/")]
    assert statuses.count(429) == 3 and statuses.count(403) >= 1

    await play_session(stub, tapis, table_id, humans, random.Random(5))
    table = await tapis.tables.get(table_id)
    assert table.status == "finished"
    assert await tapis.ledger.accounts_total() == 0
    assert not stub.dms(carol)


async def test_kill_stops_the_heartbeat_thread(stub: DiscordStub, tapis: TapisRun) -> None:
    """A crash-style kill leaves no gateway keep-alive thread to beat on a closed loop later."""
    await tapis.kill()
    beating = [t for t in threading.enumerate() if isinstance(t, KeepAliveHandler)]
    for thread in beating:
        thread.join(timeout=2)
    assert not [t for t in beating if t.is_alive()]

"""The answer path: slow work is deferred in time, concurrent clicks apply once, background waits."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.outbox import respond
from bot.store import tables as store
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import click_control, latest_dm_with_moves, move_controls
from tests.discord_stub.tapis import TapisRun


async def slow_service(tapis: TapisRun, monkeypatch: pytest.MonkeyPatch, delay: float) -> None:
    """Every ``act`` takes ``delay`` seconds more, and the bot defers after 0.05 s."""
    act = tapis.tables.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(delay)
        return await act(*args, **kwargs)

    monkeypatch.setattr(respond, "DEFER_AFTER", 0.05)
    monkeypatch.setattr(tapis.tables, "act", slow_act)


async def next_mover(stub: DiscordStub, tapis: TapisRun, table_id: int,
                     players: list[User]) -> tuple[User, Any, dict[str, Any], int]:
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    user = {u.id: u for u in players}[table.to_act_users()[0]]
    dm = latest_dm_with_moves(stub, user, table_id, table.version)
    assert dm is not None
    return user, dm, move_controls(dm, table_id, table.version)[0], table.version


async def played_once(tapis: TapisRun, table_id: int, version: int) -> None:
    """Exactly one action was logged at ``version``, and it was a player's."""
    await tapis.settle()
    actions = await tapis.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
    assert [a.actor for a in actions if a.version == version] == ["player"]
    assert [a.version for a in actions] == list(range(len(actions)))


async def test_slow_move_is_deferred_then_shown(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol])
    user, dm, control, version = await next_mover(stub, tapis, table_id, players)
    await slow_service(tapis, monkeypatch, 0.3)
    inter = await click_control(stub, dm, user, control, random.Random(1))
    assert inter.callback_type == 6  # deferred update: answered before the slow work is done
    await stub.wait_for(lambda: "You played" in stub.message(dm.id).text, what="the move shown")
    await played_once(tapis, table_id, version)


async def test_concurrent_clicks_apply_once(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol])
    user, dm, control, version = await next_mover(stub, tapis, table_id, players)
    await slow_service(tapis, monkeypatch, 0.2)
    data = {"custom_id": control["custom_id"], "component_type": control["type"]}
    if control["type"] == 3:
        data["values"] = [control["options"][0]["value"]]
    clicks = await asyncio.gather(*(stub._send_interaction(3, dict(data), user, stub.channels[dm.channel_id],
                                                           message=dm, wait=True) for _ in range(2)))
    await stub.wait_for(lambda: any(c.followups for c in clicks) and "You played" in stub.message(dm.id).text,
                        what="both outcomes")
    await played_once(tapis, table_id, version)
    refused = [c for c in clicks if c.followups and c.followups[-1].ephemeral and "⚠" in c.followups[-1].text]
    assert len(refused) == 1, [(c.callback_type, c.text) for c in clicks]
    assert all(c.callback_type == 6 for c in clicks)

"""/hint through the Discord stand-in: only on tables that allow it, only to the player to move."""

from __future__ import annotations

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_hint_for_the_player_to_move_only(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob], ai=1, options="hints=on")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.options["hints"] is True
    [seat] = table.state.to_act()
    users = {table.seat_of(u.id): u for u in (alice, bob)}
    assert seat in users, "the AI should have moved already"
    mover, waiter = users[seat], next(u for s, u in users.items() if s != seat)
    labels = [table.rules.label(a) for a in table.state.legal_actions(seat)]
    version = table.version

    advice = await stub.slash("hint", mover, stub.channel)
    # On a busy machine the search outlasts the answer window: the bot defers, then edits the answer.
    await stub.wait_for(lambda: advice.text, what="the advice")
    assert advice.ephemeral
    assert advice.text.startswith("The strong AI would play **"), advice.text
    best = advice.text.split("**")[1]
    assert best in labels
    assert "% of simulated deals" in advice.text
    assert (await tapis.tables.get(table_id)).version == version  # a hint plays nothing

    not_yours = await stub.slash("hint", waiter, stub.channel)
    assert not_yours.ephemeral and "not your turn" in not_yours.text
    stranger = await stub.slash("hint", carol, stub.channel, table=table_id)
    assert stranger.ephemeral and "not seated" in stranger.text
    assert not [m for m in stub.messages(stub.channel) if "strong AI" in m.text]  # never in public


async def test_hints_are_off_by_default(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    table_id, _ = await open_table(stub, alice, [bob], ai=1)
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table.options["hints"] is False
    [seat] = table.state.to_act()
    mover = alice if table.seat_of(alice.id) == seat else bob
    refused = await stub.slash("hint", mover, stub.channel)
    assert refused.ephemeral and "Hints are off" in refused.text

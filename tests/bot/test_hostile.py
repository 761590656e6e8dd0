"""Hostile and mistaken input: each gets a clear ephemeral refusal and changes nothing."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.store import tables as store
from tests.bot.test_session import GAME, open_table
from tests.discord_stub import DiscordStub, Interaction, Message, User
from tests.discord_stub.play import latest_dm_with_moves, move_controls
from tests.discord_stub.tapis import TapisRun


def refused(inter: Interaction, *words: str) -> None:
    assert inter.callback_type == 4 and inter.ephemeral, (inter.callback_type, inter.text)
    text = inter.text.lower()
    assert all(w.lower() in text for w in words), inter.text


async def snapshot(run: TapisRun, stub: DiscordStub, table_id: int, users: list[User]) -> tuple:
    table = await run.tables.get(table_id)
    actions = await run.db.run(store.load_actions, table_id)  # type: ignore[union-attr]
    balances = [await run.ledger.balance(stub.guild.id, u.id) for u in users]
    return table.version, len(actions), balances, await run.ledger.accounts_total()


async def whose_turn(run: TapisRun, stub: DiscordStub, table_id: int,
                     users: list[User]) -> tuple[User, Message]:
    table = await run.tables.get(table_id)
    uid = table.to_act_users()[0]
    user = next(u for u in users if u.id == uid)
    dm = latest_dm_with_moves(stub, user, table_id, table.version)
    assert dm is not None
    return user, dm


async def test_clicks_that_must_not_apply(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    humans = [alice, bob, carol]
    table_id, table_msg = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    user, dm = await whose_turn(tapis, stub, table_id, humans)
    other = next(u for u in humans if u is not user)
    control = move_controls(dm, table_id, (await tapis.tables.get(table_id)).version)[0]
    before = await snapshot(tapis, stub, table_id, humans)
    stale = ("Those buttons are out of date: the table has moved on. Use the latest message or "
             f"{stub.mention('hand')}.")  # /hand as a mention: the bot synced its commands

    refused(await stub.click(dm, other, custom_id=control["custom_id"]), "another player")
    refused(await stub.click(dm, dave, custom_id=control["custom_id"]), "not seated")
    version, seat = before[0], (await tapis.tables.get(table_id)).seat_of(user.id)
    forged = [
        (f"tapis:{table_id}:{version}:mv:{seat}.999", "not one of your moves"),
        (f"tapis:{table_id}:{version}:mv:{seat}", "not valid"),
        (f"tapis:{table_id}:{version}:fold", "not valid"),
        (f"tapis:{table_id + 1000}:0:join", "does not exist"),
        ("tapis:not-an-id", "not valid"),
        (f"tapis:{table_id}:{version + 5}:mv:{seat}.0", stale),  # one wording, handler or service
    ]
    for cid, words in forged:
        refused(await stub.click(dm, user, custom_id=cid), words)
    select_id = f"tapis:{table_id}:{version}:sel:{seat}.0"
    refused(await stub.choose(dm, user, ["999"], custom_id=select_id), "not one of your moves")
    refused(await stub.choose(dm, user, ["-1"], custom_id=select_id), "not one of your moves")
    refused(await stub.choose(dm, user, ["0", "1"], custom_id=select_id), "not one of your moves")
    refused(await stub.click(table_msg, user, custom_id=f"tapis:{table_id}:{version}:ai"), "lobby")
    assert await snapshot(tapis, stub, table_id, humans) == before

    # The same click twice at the same time: exactly one is applied.
    first, second = await asyncio.gather(
        stub.click(dm, user, custom_id=control["custom_id"]),
        stub.click(dm, user, custom_id=control["custom_id"]))
    assert sorted([first.callback_type, second.callback_type]) == [4, 7]
    refused(first if first.callback_type == 4 else second, stale)
    await tapis.settle()
    actions = await tapis.db.run(store.load_actions, table_id)
    assert [a.seat for a in actions if a.version == version] == [seat]
    assert len(actions) == (await tapis.tables.get(table_id)).version

    # Replaying the old click later: refused, nothing applied.
    after = await snapshot(tapis, stub, table_id, humans)
    refused(await stub.click(dm, user, custom_id=control["custom_id"]), stale)
    assert await snapshot(tapis, stub, table_id, humans) == after
    assert after[3] == 0


async def test_lobby_refusals(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    await stub.slash("table new", alice, stub.channel, game=GAME, players=4, buy_in=600)
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    await stub.click(lobby, bob, "Join")
    before = await snapshot(tapis, stub, table_id, players)
    refused(await stub.click(lobby, bob, "Join"), "already seated")
    refused(await stub.slash("table join", bob, stub.channel), "already seated")
    refused(await stub.click(lobby, alice, "Start"), "at least")
    refused(await stub.click(lobby, bob, "Add AI"), "host")
    refused(await stub.slash("table end", bob, stub.channel), "host")
    assert await snapshot(tapis, stub, table_id, players) == before

    await stub.slash("table new", carol, stub.channel, game=GAME, players=4, buy_in=600)
    second = stub.messages(stub.channel)[-1]
    refused(await stub.click(second, bob, "Join"), "not enough jetons", "400")
    refused(await stub.slash("table new", bob, stub.channel, game=GAME, buy_in=5000), "not enough jetons")
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == 400
    refused(await stub.slash("table new", dave, stub.channel, game=GAME, options="wrong=1"), "no option")
    refused(await stub.slash("table new", dave, stub.channel, game=GAME, options="garbage"), "key=value")
    refused(await stub.slash("table new", dave, stub.channel, game=GAME, players=2), "at least")
    assert await tapis.ledger.balance(stub.guild.id, dave.id) == 1000
    assert await tapis.ledger.accounts_total() == 0


async def test_many_simultaneous_debits(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    # 50 lobbies in one channel, joined by one member: far above the default open-table caps
    tapis.tables.config = replace(tapis.tables.config, tables_per_member=60, tables_per_channel=60,
                                  tables_per_guild=60)
    hosts = [stub.add_user(f"host{i}", stub.guild) for i in range(10)]
    for host in hosts:
        for _ in range(5):
            await stub.slash("table new", host, stub.channel, game=GAME, players=4, buy_in=100)
    lobbies = stub.messages(stub.channel)
    assert len(lobbies) == 50
    dave = players[3]
    clicks = [stub.click(lobby, dave, "Join") for lobby in lobbies]
    dailies = [stub.slash("daily", dave, stub.channel) for _ in range(5)]
    results = await asyncio.gather(*clicks, *dailies)
    joined = [r for r in results[:50] if "joined" in r.text]
    granted = [r for r in results[50:] if "+100" in r.text]
    assert len(granted) == 1
    assert all(r.ephemeral for r in results)
    balance = await tapis.ledger.balance(stub.guild.id, dave.id)
    assert balance >= 0
    assert balance + 100 * len(joined) == 1100
    assert len(joined) >= 10
    assert await tapis.ledger.accounts_total() == 0

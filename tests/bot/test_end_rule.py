"""/table end now: only a server admin who is not seated may void a deal; everyone else waits for its end."""

from __future__ import annotations

import random

from bot.store import tables as store
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun


async def test_only_an_unseated_admin_ends_now(stub: DiscordStub, tapis: TapisRun,
                                               players: list[User]) -> None:
    alice, bob, carol, _ = players
    erin = stub.add_user("erin", stub.guild, admin=True)  # an admin who plays at this table
    frank = stub.add_user("frank", stub.guild, admin=True)  # an admin who does not
    table_id, _ = await open_table(stub, alice, [bob, erin], ai=1)
    humans = {u.id: u for u in (alice, bob, erin)}
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    await play_once(stub, tapis, table_id, humans[table.to_act_users()[0]], random.Random(2))
    await tapis.settle()
    deal = table.state.view(None)["deal"]

    # A seated admin sees their cards: "now" becomes the end of the deal, and the reply says so.
    seated = await stub.slash("table end", erin, stub.channel, now=True)
    assert seated.ephemeral and "end of this deal" in seated.text and "admin who is not seated" in seated.text
    await tapis.settle()
    assert table.status == "playing" and table.closing and table.state.view(None)["deal"] == deal
    actions = await tapis.db.run(store.load_actions, table_id)
    assert actions[-1].seat is None and actions[-1].action == {"type": "close", "now": False}

    # The host's "now" does not void it either: the table already closes at the end of the deal.
    host = await stub.slash("table end", alice, stub.channel, now=True)
    assert host.ephemeral and "end of the current deal" in host.text, host.text
    assert table.status == "playing" and len(await tapis.db.run(store.load_actions, table_id)) == len(actions)
    # Someone who is neither host nor admin is refused, as before.
    refused = await stub.slash("table end", carol, stub.channel, now=True)
    assert refused.ephemeral and "host or an admin" in refused.text
    assert table.status == "playing"

    # A server admin who is not seated may void the deal at once.
    admin = await stub.slash("table end", frank, stub.channel, now=True)
    assert admin.ephemeral and f"Table #{table_id} is closed." == admin.text
    await tapis.settle()
    assert table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    assert actions[-1].action == {"type": "close", "now": True} and actions[-1].actor == "admin"
    assert await tapis.ledger.accounts_total() == 0


async def test_host_cancels_the_lobby_as_before(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, buy_in=300)
    lobby = stub.messages(stub.channel)[-1]
    await stub.click(lobby, bob, "Join")
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == 700
    done = await stub.slash("table end", alice, stub.channel, now=True)
    assert done.ephemeral and "is closed" in done.text
    await tapis.settle()
    assert [await tapis.ledger.balance(stub.guild.id, u.id) for u in (alice, bob)] == [1000, 1000]
    assert "cancelled" in lobby.text and not lobby.components


async def test_host_now_before_anything_closed(stub: DiscordStub, tapis: TapisRun,
                                               players: list[User]) -> None:
    """The host of a fresh table (no close yet) asking "now" gets the end of the deal, not a void."""
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol], ai=1)
    humans = {u.id: u for u in (alice, bob, carol)}
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    await play_once(stub, tapis, table_id, humans[table.to_act_users()[0]], random.Random(4))
    await tapis.settle()
    host = await stub.slash("table end", alice, stub.channel, now=True)
    assert host.ephemeral and "end of this deal" in host.text, host.text
    await tapis.settle()
    assert table.status == "playing" and table.closing

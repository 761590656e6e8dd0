"""Opening a table, the lobby buttons, starting, and the first DMs."""

from __future__ import annotations

import time

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

GAME = "michigan"


async def test_new_join_start_dm(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    inter = await stub.slash("table new", alice, stub.channel, game=GAME, players=4)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    assert "alice" in lobby.text and not inter.ephemeral
    table_id = (await tapis.tables.tables_in_channel(stub.channel.id))[0].id
    assert (await tapis.tables.get(table_id)).message_id == lobby.id

    joined = await stub.click(lobby, bob, "Join")
    assert joined.ephemeral and "joined" in joined.text
    await stub.slash("table join", carol, stub.channel)
    refused = await stub.click(lobby, bob, "Start")
    assert refused.ephemeral and "host" in refused.text.lower()
    await stub.click(lobby, alice, "Add AI")
    await stub.click(lobby, alice, "Start")
    await tapis.settle()
    assert "bob" in lobby.text and "AI 1" in lobby.text
    assert lobby.button("My hand")
    for user in (alice, bob, carol):
        dms = stub.dms(user)
        assert dms, f"{user.name} got no DM"
        assert "Casino" in dms[0].text and "#general" in dms[0].text


async def test_add_strong_ai_button(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    refused = await stub.click(lobby, bob, "Add strong AI")
    assert refused.ephemeral and "host" in refused.text.lower()
    added = await stub.click(lobby, alice, "Add strong AI")
    assert added.ephemeral and "(strong)" in added.text
    await stub.click(lobby, alice, "Add AI")
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert [(s.ai, s.level) for s in table.seats[1:]] == [(True, "strong"), (True, "easy")]


async def test_add_expert_ai_button(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    refused = await stub.click(lobby, bob, "Add expert AI")
    assert refused.ephemeral and "host" in refused.text.lower()
    added = await stub.click(lobby, alice, "Add expert AI")
    assert added.ephemeral and "(expert)" in added.text
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert [(s.ai, s.level) for s in table.seats[1:]] == [(True, "expert")]


async def test_the_lobby_shows_options_in_the_tables_language(stub: DiscordStub, tapis: TapisRun,
                                                              players: list[User]) -> None:
    """Issue 27: options read ``hints: off``, ``mus_corrido: on`` (not Python's ``hints=False``)."""
    alice = players[0]
    await stub.slash("table new", alice, stub.channel, game="mus", options="mus_corrido=true hints=false")
    await tapis.settle()
    english = stub.messages(stub.channel)[-1]
    assert "hints: off" in english.text and "mus_corrido: on" in english.text, english.text
    assert "False" not in english.text and "True" not in english.text
    opened = await stub.slash("table new", players[1], stub.channel, game="mus", language="fr",
                              options="hints=true stake=1000")
    await tapis.settle()
    french = opened.last
    assert "hints : activé" in french.text and "stake : 1\u202f000" in french.text, french.text


async def test_the_lobby_shows_when_it_closes_until_the_game_starts(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, _, _ = players
    await stub.slash("table new", alice, stub.channel, game=GAME, players=3)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    table = (await tapis.tables.tables_in_channel(stub.channel.id))[0]
    closes = f"<t:{int(table.deadline)}:R>"
    assert table.deadline >= time.time() + 0.5 * 3600  # the configured expiry, hours away
    assert closes in lobby.text and "lobby closes" in lobby.text and "refunded" in lobby.text
    await stub.click(lobby, bob, "Join")
    await tapis.settle()
    assert closes in lobby.text  # still shown after a join (the message was edited)
    await stub.click(lobby, alice, "Add AI")
    await stub.click(lobby, alice, "Start")
    await tapis.settle()
    assert "lobby closes" not in lobby.text

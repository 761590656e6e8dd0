"""A member who comes by once a game has started and tries to sit down (/table join) is told what
they may do instead, in their language: watch it, or open a table of their own with /table new
(it said "wait for the next one", and no next one is announced to anyone who did not play)."""

from __future__ import annotations

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_joining_a_game_under_way_points_to_table_new(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    alice, bob, _, _ = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "es"
    table_id, _ = await open_table(stub, alice, [bob], ai=1)
    await tapis.settle()
    for options in ({}, {"table": table_id}):
        refused = await stub.slash("table join", eve, stub.channel, **options)
        assert refused.ephemeral and "ya ha empezado" in refused.text, refused.text
        assert "table new" in refused.text and "abre tu propia mesa" in refused.text, refused.text
    table = await tapis.tables.get(table_id)
    assert eve.id not in [s.user_id for s in table.seats]


async def test_the_table_message_says_how_long_the_session_lasts(stub: DiscordStub, tapis: TapisRun,
                                                                 players: list[User]) -> None:
    """Someone who comes by mid-session reads how long it lasts (the lobby's options are gone once
    it starts; "deals played: 2" or Mus's points said nothing of the end), in /table status too."""
    alice, bob, _, _ = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "fr"
    table_id, message = await open_table(stub, alice, [bob], ai=2, game="mus", options="target=30 best_of=3")
    await tapis.settle()
    assert "Session length: matches: 1, best_of: 3, target: 30" in message.text, message.text
    status = await stub.slash("table status", eve, stub.channel, table=table_id)
    assert status.ephemeral and "Durée de la séance" in status.text and "target" in status.text, status.text


async def test_joining_a_table_that_is_over_points_to_table_new(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    """/table join naming a table whose session ended (or whose lobby was cancelled), or a click on
    the Join of its old lobby message, said only "This table is closed"."""
    alice, bob, carol, _ = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "cs"
    await stub.slash("table new", carol, stub.channel, game="motz", players=3)
    lobby = stub.messages(stub.channel)[-1]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    ended = await stub.slash("table end", carol, stub.channel, table=table_id)
    assert not ended.text.startswith("⚠️"), ended.text
    await tapis.settle()
    for refused in (await stub.slash("table join", eve, stub.channel, table=table_id),
                    await stub.click(lobby, eve, custom_id=f"tapis:{table_id}:0:join")):
        assert refused.ephemeral and "zavřený" in refused.text, refused.text
        assert "table new" in refused.text and "založte si vlastní stůl" in refused.text, refused.text

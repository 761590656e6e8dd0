"""Issue 28.4: Play again on a finished session's final message; what the server's /settings ask of it."""

from __future__ import annotations

import random

import pytest

from bot.store.ledger import house, wallet
from bot.tables import Table
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import snowflake
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun


async def test_play_again_with_three_humans_and_an_ai_one_short_of_jetons(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    await stub.slash("table new", alice, stub.channel, game="mus", options="target=30", language="fr",
                     buy_in=100)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await stub.choose(lobby, carol, ["1"], custom_id=lobby.selects()[0]["custom_id"])  # carol: seat 2
    await tapis.settle()
    await stub.click(lobby, alice, "Ajouter une IA forte")  # seat 3, strong
    await stub.click(lobby, bob, "Rejoindre")  # seat 4
    await stub.click(lobby, alice, "Commencer")
    names = [s.name for s in table.seats]
    assert names == ["alice", "carol", "AI 1", "bob"]
    await play_session(stub, tapis, table.id, {u.id: u for u in (alice, bob, carol)}, random.Random(11))
    await tapis.settle()
    assert table.status == "finished"
    final = stub.message(table.message_id)
    assert [b["label"] for b in final.items() if b.get("type") == 2] == ["Rejouer"]

    # carol cannot pay the buy-in any more
    balance = await tapis.ledger.balance(stub.guild.id, carol.id)
    await tapis.ledger.transfer(wallet(stub.guild.id, carol.id), house(stub.guild.id), balance - 10, "test")
    stranger = await stub.click(final, dave, "Rejouer")
    assert stranger.ephemeral and "Only the players of table" in stranger.text, stranger.text
    short = await stub.click(final, carol, "Rejouer")
    assert short.ephemeral and "Not enough jetons" in short.text, short.text
    assert await tapis.ledger.balance(stub.guild.id, carol.id) == 10
    before = await tapis.ledger.balance(stub.guild.id, alice.id)
    opened = await stub.click(final, alice, "Rejouer")
    await tapis.settle()
    assert not opened.ephemeral, opened.text
    [again] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert again.id != table.id and again.status == "lobby" and again.host_id == alice.id
    assert again.game == "mus" and again.raw_options == table.raw_options
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == before - again.buy_in
    assert [(s.name, s.ai, s.level) for s in again.seats] == [("alice", False, "easy"),
                                                              ("AI 1", True, "strong")]
    assert again.plan.places == [0, 2] and again.plan.invited == {carol.id: 1, bob.id: 3}
    new_lobby = stub.message(again.message_id)
    assert "Table #" in new_lobby.text or "table" in new_lobby.text.lower()
    assert new_lobby.button("Rejoindre"), "the new lobby is in the table's language"
    twice = await stub.click(final, alice, "Rejouer")
    assert twice.ephemeral and "already seated" in twice.text, twice.text
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == before - again.buy_in
    joined = await stub.click(final, bob, "Rejouer")
    assert joined.ephemeral and f"table #{again.id}" in joined.text, joined.text
    short = await stub.click(final, carol, "Rejouer")
    assert short.ephemeral and "Not enough jetons" in short.text, short.text
    assert [s.name for s in again.seats] == ["alice", "AI 1", "bob"] and again.plan.places == [0, 2, 3]
    assert again.plan.invited == {carol.id: 1}
    # carol gets her jetons: her seat is still kept for her (seat 2: partner of bob)
    await tapis.ledger.transfer(house(stub.guild.id), wallet(stub.guild.id, carol.id), 500, "test")
    await stub.click(final, carol, "Rejouer")
    assert [s.name for s in again.seats] == ["alice", "carol", "AI 1", "bob"]
    await stub.click(new_lobby, alice, "Commencer")
    assert again.status == "playing" and [s.name for s in again.seats] == ["alice", "carol", "AI 1", "bob"]
    late = await stub.click(final, bob, "Rejouer")
    assert late.ephemeral and f"already played again at table #{again.id}" in late.text, late.text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_play_again_refuses_an_unfinished_table_and_survives_a_restart(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    custom_id = f"tapis:{table.id}:0:again"
    early = await stub.click(lobby, alice, custom_id=custom_id)
    assert early.ephemeral and "not over" in early.text, early.text
    await stub.click(lobby, bob, "Join")
    await stub.click(lobby, alice, "Add AI")
    await stub.click(lobby, alice, "Start")
    await play_session(stub, tapis, table.id, {alice.id: alice, bob.id: bob}, random.Random(2))
    await tapis.settle()
    await tapis.stop()
    await tapis.restart()  # the finished table is read back from its row
    final = stub.message(table.message_id)
    opened = await stub.click(final, bob, "Play again")
    await tapis.settle()
    assert not opened.ephemeral
    [again] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert again.host_id == bob.id and again.plan.invited == {alice.id: table.seat_of(alice.id)}
    await tapis.stop()
    await tapis.restart()
    joined = await stub.click(final, alice, "Play again")
    assert joined.ephemeral and f"table #{again.id}" in joined.text, joined.text
    twice = await stub.click(final, alice, "Play again")
    assert twice.ephemeral and "already seated" in twice.text


async def finished_motz(stub: DiscordStub, tapis: TapisRun, host: User, other: User, options: str) -> Table:
    """A Motz table of ``host``, ``other`` and an easy AI, played to its end through Discord."""
    await stub.slash("table new", host, stub.channel, game="motz", players=3, options=options)
    await tapis.settle()
    lobby = stub.messages(stub.channel)[-1]
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await stub.click(lobby, other, "Join")
    await stub.click(lobby, host, "Add AI")
    await stub.click(lobby, host, "Start")
    await play_session(stub, tapis, table.id, {host.id: host, other.id: other}, random.Random(2))
    await tapis.settle()
    assert table.status == "finished"
    return table


async def test_play_again_is_refused_where_table_new_is(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    """Who opens a table where is the server's rule: a Play again click that would open the lobby
    is refused, in ``/table new``'s words, where ``/table new`` is (nothing opened, nothing paid); a
    member the rule lets open it opens it, and then anyone of the table joins it."""
    alice, bob, carol, _ = players
    boss = stub.add_user("boss", stub.guild, admin=True)
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    final = stub.message(table.message_id)
    wallet_of_bob = await tapis.ledger.balance(stub.guild.id, bob.id)

    games = await stub.add_private_channel(stub.guild, "games", [alice, bob, carol, boss])
    await stub.slash("settings set", boss, stub.channel, key="channels", value=f"<#{games.id}>")
    new = await stub.slash("table new", bob, stub.channel, game="motz")
    again = await stub.click(final, bob, "Play again")
    assert new.ephemeral and "cannot be opened in this channel" in new.text, new.text
    assert again.ephemeral and again.text == new.text, again.text

    await stub.slash("settings reset", boss, stub.channel, key="channels")
    dealer = snowflake()
    stub.guild.roles[dealer] = "Dealer"
    stub.guild.member_roles[alice.id] = [dealer]
    role = stub.guild.payload()["roles"][-1]
    await stub.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(stub.guild.id), "role": role})
    await stub.idle()
    await stub.slash("settings set", boss, stub.channel, key="opener_role", value=f"<@&{dealer}>")
    new = await stub.slash("table new", bob, stub.channel, game="motz")
    again = await stub.click(final, bob, "Play again")
    assert new.ephemeral and f"Only members with the role <@&{dealer}>" in new.text, new.text
    assert again.ephemeral and again.text == new.text, again.text
    await tapis.settle()
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []  # no lobby opened
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == wallet_of_bob
    assert table.plan.rematch is None  # not marked played again: it still may be

    opened = await stub.click(final, alice, "Play again")  # she has the role
    await tapis.settle()
    assert not opened.ephemeral, opened.text
    [lobby] = [t for t in await tapis.tables.tables_in_channel(stub.channel.id) if t.id != table.id]
    joined = await stub.click(final, bob, "Play again")  # joining is not opening: no role needed
    assert joined.ephemeral and f"table #{lobby.id}" in joined.text, joined.text
    assert [s.name for s in lobby.seats] == ["alice", "bob", "AI 1"]  # the seats as they were


async def test_play_again_follows_the_servers_settings_of_today(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    """A table played with hints and an easy AI, at the server's default ante and pace; then the
    server forbids hints, lets only strong AI players sit, plays unrated and changes its defaults:
    the lobby Play again opens has hints off, no easy AI seat, only the strong AI's button, the
    server's defaults of today and ``rated`` off, and its opener is told what changed; the options
    the host chose stay."""
    alice, bob = players[:2]
    boss = stub.add_user("boss", stub.guild, admin=True)
    for key, value in (("options.motz", "ante=2"), ("pace", "slow")):
        await stub.slash("settings set", boss, stub.channel, key=key, value=value)
    table = await finished_motz(stub, tapis, alice, bob, "hints=on rotations=1 max_extra_deals=0")
    assert table.options["hints"] is True and table.options["ante"] == 2 and table.options["pace"] == "slow"
    assert [s.level for s in table.seats if s.ai] == ["easy"]
    changes = (("hints", "off"), ("ai_levels", "strong"), ("rated", "off"), ("options.motz", "ante=3"),
               ("pace", "fast"))
    for key, value in changes:
        await stub.slash("settings set", boss, stub.channel, key=key, value=value)

    opened = await stub.click(stub.message(table.message_id), bob, "Play again")
    await tapis.settle()
    [again] = [t for t in await tapis.tables.tables_in_channel(stub.channel.id) if t.id != table.id]
    assert again.status == "lobby" and again.host_id == bob.id
    assert again.options["hints"] is False and again.options["rated"] is False
    assert again.options["ante"] == 3 and again.options["pace"] == "fast"  # the server's defaults of today
    assert again.options["rotations"] == 1 and again.capacity == 3  # the host's own choices
    assert [s.name for s in again.seats] == ["bob"]  # the easy AI's seat is left free
    assert again.plan.ai_levels == ("strong",) and again.plan.invited == {alice.id: table.seat_of(alice.id)}
    lobby = stub.message(again.message_id)
    assert [c for c in lobby.custom_ids() if ":ai" in c] == [f"tapis:{again.id}:0:ai:strong"]
    note = opened.last
    assert note.ephemeral and "does not allow hints" in note.text and f"Hints are off at table #{again.id}" \
        in note.text, note.text
    assert "does not let easy AI players sit (allowed: strong)" in note.text
    assert f"Their seats at table #{again.id} are free" in note.text
    easy = await stub.click(lobby, bob, custom_id=f"tapis:{again.id}:0:ai")  # forged: the easy AI
    assert easy.ephemeral and "does not let easy AI players sit" in easy.text, easy.text


def test_the_openers_note_names_the_levels_in_their_language() -> None:
    """The note Play again's opener gets names the AI levels as the reader's language does."""
    from types import SimpleNamespace as NS

    from bot.i18n import translator
    from bot.views.seating import adapted

    old = NS(raw_options={"hints": False}, seats=[NS(ai=False, level=None), NS(ai=True, level="easy")])
    table = NS(id=7, options={"hints": False}, plan=NS(ai_levels=("strong", "expert")))
    [refused, free] = adapted(old, table, translator("fr"))  # type: ignore[arg-type]
    assert "facile" in refused and "forte, experte" in refused and "easy" not in refused, refused
    assert "#7" in free
    assert "easy AI players sit (allowed: strong, expert)" in adapted(old, table, translator("en"))[0]  # type: ignore[arg-type]


def calling(stub: DiscordStub, since: int, user: User) -> list:
    """The channel messages posted since call ``since`` that mention ``user``."""
    return [c for c in stub.calls[since:] if c.method == "POST" and c.route == "/channels/{cid}/messages"
            and isinstance(c.json, dict) and f"<@{user.id}>" in str(c.json.get("content"))]


async def test_play_again_calls_the_former_players_back_once_and_only_them(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """The lobby's "kept for" lines are in an embed, which notifies nobody: a former player who had
    left the channel never knew a seat was kept for them. Play again now posts one message in the
    table's language mentioning the former players whose seats are kept, and pinging only them."""
    alice, bob = players[:2]
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    await tapis.bot.languages.set_table(table.id, "fr")
    final = stub.message(table.message_id)
    since = len(stub.calls)
    opened = await stub.click(final, alice, custom_id=f"tapis:{table.id}:{table.version}:again")
    await tapis.settle()
    assert not opened.ephemeral, opened.text
    [again] = await tapis.tables.tables_in_channel(stub.channel.id)
    posts = calling(stub, since, bob)
    assert len(posts) == 1, posts
    [call] = posts
    assert f"table n°{again.id}" in call.json["content"] and "Rejoindre" in call.json["content"], call.json
    mentions = call.json["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [bob.id], mentions  # bob only
    joined = await stub.click(final, bob, custom_id=f"tapis:{table.id}:{table.version}:again")
    assert joined.ephemeral and f"#{again.id}" in joined.text, joined.text
    assert len(calling(stub, since, bob)) == 1  # his joining calls nobody again

"""/settings (issue 29) through the real discord.py client and the stand-in, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.ai import LEVELS
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import snowflake
from tests.discord_stub.tapis import TapisRun


def _admin(stub: DiscordStub, name: str = "boss") -> User:
    return stub.add_user(name, stub.guild, admin=True)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_server_language_makes_the_next_table_czech(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    boss, alice = _admin(stub), players[0]
    before = await stub.slash("table new", alice, stub.channel, game="marias")
    await tapis.settle()
    changed = await stub.slash("settings set", boss, stub.channel, key="language", value="cs")
    assert changed.ephemeral and "Čeština" in changed.text and "next table" in changed.text, changed.text
    after = await stub.slash("table new", players[1], stub.channel, game="marias")
    await tapis.settle()
    first, second = sorted(await tapis.tables.tables_in_channel(stub.channel.id), key=lambda t: t.id)
    assert tapis.bot.languages.cached_table(first.id) == "en"  # a change applies from the next table
    assert tapis.bot.languages.cached_table(second.id) == "cs"
    assert "Mariáš" in after.last.text and "Mariáš" not in before.last.text
    await tapis.stop()
    await tapis.restart()  # settings survive a restart
    server = await tapis.bot.settings.for_guild(stub.guild.id)
    assert server.language == "cs"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_tables_refused_outside_the_allowed_channels(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    boss, alice = _admin(stub), players[0]
    games = await stub.add_private_channel(stub.guild, "games", [*players, boss])
    answer = await stub.slash("settings set", boss, stub.channel, key="channels", value=f"<#{games.id}>")
    assert f"<#{games.id}>" in answer.text, answer.text
    refused = await stub.slash("table new", alice, stub.channel, game="motz")
    assert refused.ephemeral and "cannot be opened in this channel" in refused.text, refused.text
    assert f"<#{games.id}>" in refused.text
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000  # nothing was paid
    opened = await stub.slash("table new", alice, games, game="motz")
    assert not opened.ephemeral
    await tapis.settle()
    assert len(await tapis.tables.tables_in_channel(games.id)) == 1
    thread = stub.add_thread(games, "a thread of #games")  # a thread of an allowed channel is allowed
    in_thread = await stub.slash("table new", players[3], thread, game="motz")
    assert not in_thread.ephemeral, in_thread.text
    await stub.dispatch("CHANNEL_DELETE", games.payload())  # the only allowed channel is deleted
    await stub.idle()
    gone = await stub.slash("table new", players[2], stub.channel, game="motz")
    assert gone.ephemeral and "no longer exist" in gone.text and f"<#{games.id}>" not in gone.text, gone.text
    await stub.slash("settings reset", boss, stub.channel, key="channels")
    again = await stub.slash("table new", players[1], stub.channel, game="motz")
    assert not again.ephemeral  # anywhere again


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_servers_grants_are_its_own(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    boss, alice, bob = _admin(stub), players[0], players[1]
    await stub.slash("settings set", boss, stub.channel, key="daily_grant", value="250")
    await stub.slash("settings set", boss, stub.channel, key="starting_grant", value="400")
    daily = await stub.slash("daily", alice, stub.channel)
    assert "+250" in daily.text and "**650**" in daily.text, daily.text  # 400 to start, then 250
    await stub.slash("settings set", boss, stub.channel, key="daily_cooldown_hours", value="1.5")
    assert (await tapis.bot.settings.for_guild(stub.guild.id)).daily_cooldown_hours == 1.5
    # another server keeps the operator's grants
    other = stub.add_guild("Elsewhere")
    bob_there = stub.add_user("bob2", other)
    assert await tapis.ledger.balance(other.id, bob_there.id) == 1000
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == 400
    assert await tapis.ledger.accounts_total() == 0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_non_admin_refused_and_the_log_lists_changes(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User]) -> None:
    boss, other_boss, alice = _admin(stub), _admin(stub, "deputy"), players[0]
    group = tapis.bot.tree.get_command("settings")
    assert group is not None and group.default_permissions is not None
    assert group.default_permissions.value == 1 << 5  # Discord hides it: Manage Server
    for command, options in (("settings set", {"key": "rated", "value": "off"}), ("settings show", {}),
                             ("settings reset", {"key": "rated"}), ("settings log", {})):
        refused = await stub.slash(command, alice, stub.channel, **options)
        words = "Only members with the Manage Server permission may see or change Tapis's settings."
        assert refused.ephemeral and refused.text.endswith(words), refused.text
    assert await tapis.bot.settings.stored(stub.guild.id) == {}
    await stub.slash("settings set", boss, stub.channel, key="tables_per_member", value="2")
    await stub.slash("settings set", other_boss, stub.channel, key="tables_per_member", value="1")
    await stub.slash("settings reset", boss, stub.channel, key="tables_per_member")
    log = await stub.slash("settings log", boss, stub.channel)
    lines = log.text.splitlines()
    assert "page 1 of 1" in lines[0]
    assert f"<@{boss.id}> **tables_per_member**: 1 → default" in lines[1], lines
    assert f"<@{other_boss.id}> **tables_per_member**: 2 → 1" in lines[2]
    assert f"<@{boss.id}> **tables_per_member**: default → 2" in lines[3]
    assert all(line.startswith("<t:") for line in lines[1:])
    shown = await stub.slash("settings show", boss, stub.channel)
    assert "**tables_per_member**: 3 · default" in shown.last.embeds[0]["description"]


async def test_the_log_is_paginated_within_2000_characters(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    boss = _admin(stub)
    for n in range(23):
        await tapis.bot.settings.set(stub.guild.id, "options.mus", {"stake": n + 1}, boss.id)
    first = await stub.slash("settings log", boss, stub.channel)
    third = await stub.slash("settings log", boss, stub.channel, page=3)
    assert "page 1 of 3" in first.text and len(first.text) <= 2000
    assert "stake=23" in first.text.splitlines()[1]
    assert len(third.text.splitlines()) == 4 and "stake=1\n" not in third.text
    assert third.text.splitlines()[-1].endswith("stake=1")
    beyond = await stub.slash("settings log", boss, stub.channel, page=9)
    assert "only 3 pages" in beyond.text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_bad_values_are_refused_with_the_reason(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    boss = _admin(stub)
    elsewhere = stub.add_guild("Elsewhere")
    cases = [
        ({"key": "colour", "value": "red"}, "There is no setting `colour`"),
        ({"key": "x" * 5000, "value": "1"}, "There is no setting"),
        ({"key": "daily_grant", "value": "20000"}, "from 0 to 10000 (the bounds this bot's operator set)"),
        ({"key": "daily_grant", "value": "lots"}, "must be a whole number"),
        ({"key": "daily_grant", "value": "2.5"}, "must be a whole number"),
        ({"key": "daily_cooldown_hours", "value": "0.5"}, "from 1 to 168"),
        ({"key": "tables_per_guild", "value": "51"}, "from 1 to 50"),
        ({"key": "starting_grant", "value": "9" * 5000}, "too long: at most 300 characters"),
        ({"key": "options.mus", "value": "stake=0"}, "stake"),
        ({"key": "options.mus", "value": "colour=red"}, "has no option"),
        ({"key": "rated", "value": "maybe"}, "on or off"),
        ({"key": "ai_levels", "value": "easy godlike"}, "among " + ", ".join(LEVELS)),
        ({"key": "pace", "value": "sprint"}, "fast, normal, slow, correspondence"),
        ({"key": "language", "value": "klingon"}, "Unknown language"),
        ({"key": "channels", "value": f"<#{elsewhere.channels[0].id}>"}, "not a text channel or category"),
        ({"key": "channels", "value": "123456789012345678"}, "not a text channel or category"),
        ({"key": "channels", "value": "#general"}, "mentions or ids"),
        ({"key": "opener_role", "value": "<@&123456789012345678>"}, "not a role of this server"),
        ({"key": "opener_role", "value": f"<@&{stub.guild.id}>"}, "@everyone"),
    ]
    for options, expected in cases:
        answer = await stub.slash("settings set", boss, stub.channel, **options)
        assert answer.ephemeral and expected in answer.text, (options["key"][:20], answer.text)
        assert len(answer.text) < 600
    assert await tapis.bot.settings.stored(stub.guild.id) == {}
    log = await stub.slash("settings log", boss, stub.channel)
    assert "No setting has been changed" in log.text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_game_defaults_hints_rated_and_ai_levels(stub: DiscordStub, tapis: TapisRun,
                                                       players: list[User]) -> None:
    boss, alice, bob = _admin(stub), players[0], players[1]
    answer = await stub.slash("settings set", boss, stub.channel, key="options.mus", value="stake=3")
    assert "stake=3" in answer.text
    await stub.slash("settings set", boss, stub.channel, key="hints", value="off")
    await stub.slash("settings set", boss, stub.channel, key="rated", value="off")
    await stub.slash("settings set", boss, stub.channel, key="ai_levels", value="easy")
    refused = await stub.slash("table new", alice, stub.channel, game="mus", options="hints=on")
    assert refused.ephemeral and "does not allow hints" in refused.text
    lobby = await stub.slash("table new", alice, stub.channel, game="mus")
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    assert table.options["stake"] == 3 and table.options["rated"] is False
    ai_buttons = [c for c in lobby.last.custom_ids() if ":ai" in c]
    assert ai_buttons == [f"tapis:{table.id}:0:ai"], ai_buttons  # only the easy AI's button is offered
    strong = await stub.click(lobby.last, bob, custom_id=f"tapis:{table.id}:0:ai:strong")  # forged
    assert strong.ephemeral and "does not let strong AI players sit" in strong.text, strong.text
    await tapis.settle()
    assert len(table.seats) == 1
    hosted = await stub.slash("table new", bob, stub.channel, game="mus", options="stake=5")
    assert not hosted.ephemeral  # the host's own choice beats the server's default
    await tapis.settle()
    assert (await tapis.tables.tables_in_channel(stub.channel.id))[-1].options["stake"] == 5


@pytest.mark.parametrize("backend", BACKENDS)
async def test_two_admins_at_once_both_logged_the_later_wins(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User]) -> None:
    one, two = _admin(stub, "one"), _admin(stub, "two")
    await asyncio.gather(stub.slash("settings set", one, stub.channel, key="daily_grant", value="7"),
                         stub.slash("settings set", two, stub.channel, key="daily_grant", value="9"))
    changes, total = await tapis.bot.settings.log(stub.guild.id, 10)
    assert total == 2 and {c.user_id for c in changes} == {one.id, two.id}
    latest = changes[0]  # newest first: the later commit is the value kept
    assert (await tapis.bot.settings.for_guild(stub.guild.id)).daily_grant == latest.new
    assert {c.new for c in changes} == {7, 9}


async def test_the_opener_role_and_the_server_caps(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    boss, alice = _admin(stub), players[0]
    await stub.slash("settings set", boss, stub.channel, key="tables_per_channel", value="1")
    await stub.slash("table new", alice, stub.channel, game="motz")
    await tapis.settle()
    second = await stub.slash("table new", players[1], stub.channel, game="motz")
    assert second.ephemeral and "the limit is 1" in second.text, second.text
    # a role that may open tables: stored by id; a member without it is refused, an admin is not
    await tapis.bot.settings.set(stub.guild.id, "tables_per_channel", 10, boss.id)
    await tapis.bot.settings.set(stub.guild.id, "opener_role", 123456789012345678, boss.id)
    refused = await stub.slash("table new", players[2], stub.channel, game="motz")
    assert refused.ephemeral and "no longer exists" in refused.text, refused.text
    allowed = await stub.slash("table new", boss, stub.channel, game="motz")
    assert not allowed.ephemeral


async def test_a_role_that_may_open_tables(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    boss, alice, bob = _admin(stub), players[0], players[1]
    dealer = snowflake()
    stub.guild.roles[dealer] = "Dealer"
    stub.guild.member_roles[alice.id] = [dealer]
    role = stub.guild.payload()["roles"][-1]
    await stub.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(stub.guild.id), "role": role})
    await stub.idle()
    answer = await stub.slash("settings set", boss, stub.channel, key="opener_role", value=f"<@&{dealer}>")
    assert f"<@&{dealer}>" in answer.text, answer.text
    refused = await stub.slash("table new", bob, stub.channel, game="motz")
    assert refused.ephemeral and f"Only members with the role <@&{dealer}>" in refused.text, refused.text
    opened = await stub.slash("table new", alice, stub.channel, game="motz")
    assert not opened.ephemeral, opened.text
    await stub.slash("settings set", boss, stub.channel, key="opener_role", value="none")
    anyone = await stub.slash("table new", bob, stub.channel, game="motz")
    assert not anyone.ephemeral


async def test_the_servers_pace_and_threads(stub: DiscordStub, database: str, players: list[User]) -> None:
    """h28clock's pace option and threads follow the server's /settings (the operator's as defaults)."""
    from dataclasses import replace

    from tests.bot.test_threads import THREAD_PERMISSIONS
    from tests.discord_stub.tapis import TEST_CONFIG

    stub.app_permissions = THREAD_PERMISSIONS
    run = TapisRun(stub, database, config=replace(TEST_CONFIG, table_threads=True))
    await run.start()
    try:
        boss, alice, bob = _admin(stub), players[0], players[1]
        await stub.slash("settings set", boss, stub.channel, key="pace", value="slow")
        await stub.slash("settings set", boss, stub.channel, key="threads", value="off")
        await stub.slash("table new", alice, stub.channel, game="motz")
        await stub.slash("table new", bob, stub.channel, game="motz", options="pace=fast")
        await run.settle()
        first, second = sorted(await run.tables.tables_in_channel(stub.channel.id), key=lambda t: t.id)
        assert first.options["pace"] == "slow" and second.options["pace"] == "fast"  # the host's wins
        assert stub.calls_to("POST", "/channels/{cid}/messages/{mid}/threads") == []  # no thread
        await stub.slash("settings reset", boss, stub.channel, key="threads")  # the operator's: on
        await stub.slash("table new", players[2], stub.channel, game="motz")
        await run.settle()
        assert len(stub.calls_to("POST", "/channels/{cid}/messages/{mid}/threads")) == 1
    finally:
        await run.stop()

"""A server admin's first day with Tapis: what each /settings answer and /admin season tell them,
through the real discord.py client and the stand-in."""

from __future__ import annotations

import logging

import pytest

from bot.store.ratings import current_season_sync
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import TABLE_PERMISSIONS
from tests.discord_stub.tapis import TapisRun

CREATE_PUBLIC_THREADS = 1 << 35


def _admin(stub: DiscordStub, name: str = "boss") -> User:
    return stub.add_user(name, stub.guild, admin=True)


async def test_each_setting_says_when_it_applies(stub: DiscordStub, tapis: TapisRun,
                                                 players: list[User]) -> None:
    """public_reviews opens every finished session at once, ai_levels reaches open lobbies, grants
    follow at the next grant: none of them waits for "the next table"."""
    boss = _admin(stub)
    reviews = await stub.slash("settings set", boss, stub.channel, key="public_reviews", value="on")
    assert "next table" not in reviews.text and "every finished session" in reviews.text, reviews.text
    levels = await stub.slash("settings set", boss, stub.channel, key="ai_levels", value="easy")
    assert "next table" not in levels.text and "open lobbies" in levels.text, levels.text
    daily = await stub.slash("settings set", boss, stub.channel, key="daily_grant", value="50")
    assert "next table" not in daily.text and "next daily grant" in daily.text, daily.text
    start = await stub.slash("settings set", boss, stub.channel, key="starting_grant", value="500")
    assert "next table" not in start.text and "wallets" in start.text, start.text
    pace = await stub.slash("settings set", boss, stub.channel, key="pace", value="slow")
    assert pace.text.endswith("It applies from the next table."), pace.text
    boss.locale = "fr"
    french = await stub.slash("settings reset", boss, stub.channel, key="public_reviews")
    assert "toute partie terminée" in french.text, french.text


async def test_allowed_channels_where_tapis_cannot_post_warn_the_admin(stub: DiscordStub, tapis: TapisRun,
                                                                     players: list[User]) -> None:
    """Tables restricted to a channel the bot cannot see: the admin is told at once, not the members
    one refusal at a time."""
    boss = _admin(stub)
    hidden = await stub.add_private_channel(stub.guild, "cards", [*players, boss])  # the bot not let in
    # (CHANNEL_CREATE comes on the gateway before the interaction: the bot knows #cards)
    answer = await stub.slash("settings set", boss, stub.channel, key="channels",
                              value=f"<#{hidden.id}> <#{stub.channel.id}>")
    assert answer.ephemeral and f"<#{hidden.id}>" in answer.text, answer.text
    assert "lacks the View Channel" in answer.text and "cannot open there" in answer.text, answer.text
    assert answer.text.count("lacks") == 1  # #general lets the bot in: not named
    assert (await tapis.bot.settings.for_guild(stub.guild.id)).places == {hidden.id, stub.channel.id}
    boss.locale = "cs"
    czech = await stub.slash("settings set", boss, stub.channel, key="channels", value=f"<#{hidden.id}>")
    assert "Zobrazit kanál" in czech.text, czech.text
    shown = (await stub.slash("settings show", boss, stub.channel)).last.embeds[0]["description"]
    assert f"⚠️ Tapis nemá v <#{hidden.id}> oprávnění Zobrazit kanál" in shown, shown  # and in show
    fine = await stub.slash("settings set", boss, stub.channel, key="channels", value=f"<#{stub.channel.id}>")
    assert "⚠️" not in fine.text, fine.text
    shown = (await stub.slash("settings show", boss, stub.channel)).last.embeds[0]["description"]
    assert "⚠️" not in shown, shown


async def test_a_reset_or_set_that_changes_nothing_is_not_logged(stub: DiscordStub, tapis: TapisRun,
                                                                 players: list[User]) -> None:
    boss = _admin(stub)
    reset = await stub.slash("settings reset", boss, stub.channel, key="rated")
    assert "→" not in reset.text and "already" in reset.text, reset.text
    await stub.slash("settings set", boss, stub.channel, key="daily_grant", value="50")
    same = await stub.slash("settings set", boss, stub.channel, key="daily_grant", value="50")
    assert "→" not in same.text and "already" in same.text and "50" in same.text, same.text
    changes, total = await tapis.bot.settings.log(stub.guild.id, 10)
    assert total == 1 and [c.key for c in changes] == ["daily_grant"], changes


async def test_a_new_season_is_confirmed_first_and_logged(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User],
                                                         caplog: pytest.LogCaptureFixture) -> None:
    """/admin season archives every board at once: a mistaken click asks first, the start is logged."""
    boss = _admin(stub)
    asked = await stub.slash("admin season", boss, stub.channel)
    assert asked.ephemeral and "confirm" in asked.text and "Season 2" in asked.text, asked.text
    assert await tapis.db.run(current_season_sync, stub.guild.id) == 1  # nothing started yet
    with caplog.at_level(logging.INFO, logger="bot"):
        started = await stub.slash("admin season", boss, stub.channel, confirm=True)
    assert "Season 2 has started" in started.text, started.text
    assert await tapis.db.run(current_season_sync, stub.guild.id) == 2
    assert any(str(boss.id) in r.getMessage() and "season 2" in r.getMessage() for r in caplog.records)


async def test_on_and_off_in_the_admins_language(stub: DiscordStub, tapis: TapisRun,
                                                 players: list[User]) -> None:
    """A French admin who types "non" is understood; the choices name on and off in their words."""
    boss = _admin(stub)
    boss.locale = "fr"
    answer = await stub.slash("settings set", boss, stub.channel, key="threads", value="non")
    assert "⚠️" not in answer.text, answer.text
    assert (await tapis.bot.settings.for_guild(stub.guild.id)).threads is False
    for typed, lang in (("oui", "fr"), ("sí", "es"), ("bai", "eu"), ("ano", "cs")):
        boss.locale = lang
        await stub.slash("settings set", boss, stub.channel, key="hints", value="off")
        await stub.slash("settings set", boss, stub.channel, key="hints", value=typed)
        assert (await tapis.bot.settings.for_guild(stub.guild.id)).hints is True, typed
    boss.locale = "fr"
    choices = await stub.autocomplete("settings set", boss, stub.channel, "value", key="rated", value="")
    names = {c["value"]: c["name"] for c in choices}
    assert names["on"] != "on" and "activé" in names["on"] and "désactivé" in names["off"], names


async def test_hours_in_the_admins_decimal_sign(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    """A French or Czech admin writes 1,5 and reads 1,5 h back (not 1.5 refused, then shown as 1.5 h)."""
    boss = _admin(stub)
    boss.locale = "fr"
    answer = await stub.slash("settings set", boss, stub.channel, key="daily_cooldown_hours", value="1,5")
    assert "⚠️" not in answer.text and "1,5 h" in answer.text, answer.text
    assert (await tapis.bot.settings.for_guild(stub.guild.id)).daily_cooldown_hours == 1.5
    shown = await stub.slash("settings show", boss, stub.channel)
    assert "**daily_cooldown_hours**: 1,5 h" in shown.last.embeds[0]["description"], shown.last.embeds[0]
    boss.locale = "en-US"
    english = await stub.slash("settings set", boss, stub.channel, key="daily_cooldown_hours", value="2.5")
    assert "1.5 h → 2.5 h" in english.text, english.text
    whole = await stub.slash("settings set", boss, stub.channel, key="daily_grant", value="1,5")
    assert "⚠️" in whole.text, whole.text  # a grant stays a whole number


async def test_every_offered_game_default_is_accepted(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    """Each value /settings set suggests for a game's options is one it takes: Motz's fine_cap=None
    and max_extra_deals=None (no cap, their default) were offered, then refused as not a number."""
    boss = _admin(stub)
    for key in ("options.motz", "options.mus", "options.marias", "options.michigan", "options.maitre"):
        choices = await stub.autocomplete("settings set", boss, stub.channel, "value", key=key, value="")
        assert choices, key
        for choice in choices:
            answer = await stub.slash("settings set", boss, stub.channel, key=key, value=choice["value"])
            assert "⚠️" not in answer.text, (key, choice, answer.text)
    await stub.slash("settings set", boss, stub.channel, key="options.motz", value="fine_cap=200")
    back = await stub.slash("settings set", boss, stub.channel, key="options.motz", value="fine_cap=none")
    assert "fine_cap=200 → fine_cap=None" in back.text, back.text
    new = await stub.slash("table new", players[0], stub.channel, game="motz", options="fine_cap=None")
    assert not new.ephemeral, new.text


async def test_show_names_a_deleted_channel_or_role(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    """A channel or role a setting names, deleted since, is shown as deleted (Discord would draw
    #unknown and @deleted-role, the admin left to guess why members are refused)."""
    from tests.discord_stub.model import snowflake

    boss = _admin(stub)
    games = stub.add_channel(stub.guild, "games")
    await stub.dispatch("CHANNEL_CREATE", games.payload(1))
    dealer = snowflake()
    stub.guild.roles[dealer] = "Dealer"
    role = stub.guild.payload()["roles"][-1]
    await stub.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(stub.guild.id), "role": role})
    await stub.slash("settings set", boss, stub.channel, key="channels",
                     value=f"<#{games.id}> <#{stub.channel.id}>")
    await stub.slash("settings set", boss, stub.channel, key="opener_role", value=f"<@&{dealer}>")
    await stub.dispatch("CHANNEL_DELETE", games.payload(1))
    await stub.dispatch("GUILD_ROLE_DELETE", {"guild_id": str(stub.guild.id), "role_id": str(dealer)})
    shown = (await stub.slash("settings show", boss, stub.channel)).last.embeds[0]["description"]
    assert f"**channels**: <#{stub.channel.id}>, `{games.id}` (deleted)" in shown, shown
    assert f"**opener_role**: `{dealer}` (deleted)" in shown, shown
    boss.locale = "es"
    spanish = (await stub.slash("settings show", boss, stub.channel)).last.embeds[0]["description"]
    assert f"`{dealer}` (eliminado)" in spanish, spanish


async def test_a_setting_is_found_by_the_words_of_its_help(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    """The keys are English identifiers: a French admin who types "jetons" or "salon" finds the
    grants and the channels by their help, in French."""
    boss = _admin(stub)
    boss.locale = "fr"
    grants = await stub.autocomplete("settings set", boss, stub.channel, "key", key="jetons")
    assert {"starting_grant", "daily_grant"} <= {c["value"] for c in grants}, grants
    reset = await stub.autocomplete("settings reset", boss, stub.channel, "key", key="langue")
    assert [c["value"] for c in reset][:1] == ["language"], reset
    exact = await stub.autocomplete("settings set", boss, stub.channel, "key", key="hints")
    assert exact[0]["value"] == "hints", exact


async def test_admin_tables_lists_every_open_table_by_pages(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User]) -> None:
    """40 open tables (the default cap is 50): the list was cut at 1,900 characters, mid-line, and
    the admin never saw the last dozen."""
    boss = _admin(stub)
    channels = [stub.add_channel(stub.guild, f"cards-{i}") for i in range(4)]
    opened = set()
    for i in range(40):
        host = stub.add_user(f"host{i}", stub.guild)
        table = await tapis.tables.create(stub.guild.id, channels[i % 4].id, host.id, host.name,
                                          "michigan", {})
        opened.add(table.id)
    listed: list[int] = []
    first = await stub.slash("admin tables", boss, stub.channel)
    assert "Page 1 of 3" in first.text and "40 open tables" in first.text, first.text
    for page in (1, 2, 3):
        answer = await stub.slash("admin tables", boss, stub.channel, page=page)
        assert answer.ephemeral and len(answer.text) <= 2000 and "…" not in answer.text, answer.text
        listed += [int(line.split()[0][1:]) for line in answer.text.splitlines() if line.startswith("#")]
    assert sorted(listed) == sorted(opened)
    beyond = await stub.slash("admin tables", boss, stub.channel, page=4)
    assert "only 3 pages" in beyond.text, beyond.text


async def test_show_lists_all_the_allowed_channels(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    """25 allowed channels, the most a server may list: typed as mentions they were refused as too
    long (300 characters, room for 13), and show cut their line at 200 characters, mid-mention."""
    boss = _admin(stub)
    channels = [stub.add_channel(stub.guild, f"cards-{i}") for i in range(25)]
    for i, channel in enumerate(channels):
        await stub.dispatch("CHANNEL_CREATE", channel.payload(i + 1))
    answer = await stub.slash("settings set", boss, stub.channel, key="channels",
                              value=" ".join(f"<#{c.id}>" for c in channels))
    assert "⚠️" not in answer.text, answer.text  # 25 mentions: 574 characters, refused over 300
    shown = (await stub.slash("settings show", boss, stub.channel)).last.embeds[0]["description"]
    line = next(x for x in shown.splitlines() if x.startswith("**channels**"))
    assert all(f"<#{c.id}>" in line for c in channels) and "…" not in line, line


async def test_a_change_names_the_default_it_leaves_or_returns_to(stub: DiscordStub, tapis: TapisRun,
                                                                   players: list[User]) -> None:
    """"on → default" left the admin to guess what the default is: the answer names it."""
    boss = _admin(stub)
    on = await stub.slash("settings set", boss, stub.channel, key="public_reviews", value="on")
    assert "**public_reviews**: default (off) → on." in on.text, on.text
    back = await stub.slash("settings reset", boss, stub.channel, key="public_reviews")
    assert "**public_reviews**: on → default (off)." in back.text, back.text
    cap = await stub.slash("settings set", boss, stub.channel, key="tables_per_member", value="2")
    assert "default (3) → 2" in cap.text, cap.text
    boss.locale = "fr"
    where = await stub.slash("settings set", boss, stub.channel, key="channels",
                             value=f"<#{stub.channel.id}>")
    assert "partout →" in where.text, where.text  # "anywhere" says it already


async def test_threads_on_where_tapis_may_not_start_one_warns_the_admin(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """threads on, the bot without Create Public Threads: every table silently stays in its channel
    (one note to each host); the admin who turns threads on is told at once."""
    boss = _admin(stub)
    stub.app_permissions = str(TABLE_PERMISSIONS)  # what a table needs, no thread permission
    answer = await stub.slash("settings set", boss, stub.channel, key="threads", value="on")
    assert f"lacks the Create Public Threads permission in <#{stub.channel.id}>" in answer.text, answer.text
    assert "without a thread" in answer.text, answer.text
    boss.locale = "es"
    spanish = await stub.slash("settings set", boss, stub.channel, key="threads", value="on")
    assert "Crear hilos públicos" in spanish.text, spanish.text
    stub.app_permissions = str(TABLE_PERMISSIONS | CREATE_PUBLIC_THREADS)
    fine = await stub.slash("settings reset", boss, stub.channel, key="threads")
    fine = await stub.slash("settings set", boss, stub.channel, key="threads", value="on")
    assert "⚠️" not in fine.text, fine.text
    off = await stub.slash("settings set", boss, stub.channel, key="threads", value="off")
    assert "⚠️" not in off.text, off.text


async def test_an_admins_close_is_not_narrated_as_the_hosts(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    """The games' narration of a close names nobody ("The table is closing: this deal is the last"):
    the banner above says who closed (the host, an admin, or Tapis for a lost channel or an empty
    table), and the narration said "the host" for all of them."""
    boss, alice, bob = _admin(stub), players[0], players[1]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await stub.slash("table join", bob, stub.channel)
    await tapis.settle()
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await stub.click(stub.message(table.message_id), alice, "Add AI")
    await stub.slash("table start", alice, stub.channel)
    await tapis.settle()
    await stub.slash("table end", boss, stub.channel, now=True)
    await tapis.settle()
    fields = {f["name"]: f["value"] for f in stub.message(table.message_id).embeds[0]["fields"]}
    assert "host" not in fields["Last moves"], fields["Last moves"]


async def test_a_page_beyond_the_last_says_how_many_in_good_grammar(stub: DiscordStub, tapis: TapisRun,
                                                                     players: list[User]) -> None:
    """"There are only 1 pages." (the log and /admin tables): one page is singular, in each language."""
    boss = _admin(stub)
    await stub.slash("settings set", boss, stub.channel, key="rated", value="off")
    log = await stub.slash("settings log", boss, stub.channel, page=2)
    assert log.text == "There is only 1 page.", log.text
    await tapis.tables.create(stub.guild.id, stub.channel.id, players[0].id, "alice", "motz", {})
    tables = await stub.slash("admin tables", boss, stub.channel, page=2)
    assert tables.text == "There is only 1 page.", tables.text
    boss.locale = "cs"
    czech = await stub.slash("settings log", boss, stub.channel, page=2)
    assert czech.text == "Je jen 1 stránka.", czech.text

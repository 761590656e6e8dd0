"""``/help``: what Tapis is, the games, and every command of the tree, in the reader's language."""

from __future__ import annotations

from bot.cogs.help import tree_commands
from bot.i18n import translator
from bot.rules import GAMES
from bot.views.display import players_text
from bot.views.help import MORE, SECTIONS, CommandText, help_embed, section_of
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_help_lists_every_command_and_game(stub: DiscordStub, tapis: TapisRun,
                                                 players: list[User]) -> None:
    alice = players[0]
    answer = await stub.slash("help", alice, stub.channel)
    assert answer.ephemeral
    text = answer.text
    commands = tree_commands(tapis.bot.tree)
    assert len(commands) > 30 and {"table new", "help", "admin audit", "tournament create"} <= {
        c.name for c in commands}
    for command in commands:  # every command the bot has, with its description
        assert f"`/{command.name}` — {command.description}" in text, command.name
    for game in GAMES.values():
        assert f"**{game.title}**: {players_text(game, translator('en'))}" in text
    assert all(section_of(c.name) != MORE for c in commands)  # each has its section


async def test_help_speaks_the_readers_language_and_the_clients_command_names(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    alice.locale = "fr"
    text = (await stub.slash("help", alice, stub.channel)).text
    fr = translator("fr")
    assert fr._("Tapis — help") in text and fr._("Tapis — help") != "Tapis — help"
    assert "`/solde` — " + fr._("How many jetons you (or someone) have here") in text  # /balance in French
    assert fr._("Games") in text and "Motz" in text


def test_a_command_no_section_names_is_listed_under_more() -> None:
    tr = translator("en")
    listed = [CommandText("table new", "Open a table"), CommandText("juggle", "Juggle")]
    embed = help_embed(listed, tr, "en-US")
    fields = {f.name: f.value for f in embed.fields}
    assert fields[SECTIONS[0][0]] == "`/table new` — Open a table"
    assert fields["More"] == "`/juggle` — Juggle"


def test_a_long_section_is_split_into_fields_within_discords_limits() -> None:
    tr = translator("eu")
    many = [CommandText(f"table x{i}", "y" * 90) for i in range(40)]
    embed = help_embed(many, tr, "en-US")
    play = [f for f in embed.fields if f.value and "/table x" in f.value]
    assert len(play) >= 4 and all(len(f.value) <= 1024 for f in play)
    assert sum(f.value.count("/table x") for f in play) == 40  # none lost between fields


async def test_help_fits_discords_limits_in_every_language(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    alice = players[0]
    for locale in ("en-US", "fr", "es-ES", "cs"):  # the stand-in refuses what Discord refuses
        alice.locale = locale
        answer = await stub.slash("help", alice, stub.channel)
        assert answer.ephemeral and "/" in answer.text
    await stub.slash("language", alice, stub.channel, language="eu")  # Basque: no Discord locale
    answer = await stub.slash("help", alice, stub.channel)
    assert translator("eu")._("Tapis — help") in answer.text

"""Basque (eu), the fifth catalogue: chosen with ``/language`` or a table's ``language`` (Discord
has no Basque client), read in answers and at a Mus table, and never offered to Discord as a
slash-command locale."""

from __future__ import annotations

from bot.i18n import DISCORD_LOCALES, NATIVE_NAMES, translator
from bot.i18n.languages import language_of
from bot.i18n.slash import translate_command_text
from tests.bot.test_languages_session import labels, open_lobby
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

CHOSEN = "From now on Tapis writes to you in {language}."


def test_basque_is_ours_but_no_discord_client_locale() -> None:
    assert language_of("eu") == "eu" and DISCORD_LOCALES["eu"] == () and NATIVE_NAMES["eu"] == "Euskara"
    assert all(language_of(code) != "eu" for codes in DISCORD_LOCALES.values() for code in codes)
    assert translate_command_text("balance", "eu", is_name=True) is None  # no Basque command names
    eu = translator("eu")
    assert eu._(CHOSEN, language="Euskara") != CHOSEN.format(language="Euskara")  # translated
    assert eu.number(12345) == "12.345"  # Babel's Basque grouping


async def test_a_player_chooses_basque_and_a_mus_table_reads_in_basque(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    alice.locale = "es-ES"
    chosen = await stub.slash("language", alice, stub.channel, language="eu")
    eu = translator("eu")
    assert chosen.ephemeral and chosen.text == eu._(CHOSEN, language="Euskara")
    assert await tapis.bot.languages.reader(alice.id, "es-ES") == "eu"  # the choice beats the client

    table_id, lobby = await open_lobby(stub, alice, [bob, carol, dave], 0, "mus", language="eu")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    assert table is not None and table.status == "playing"
    shown = labels(stub.messages(stub.channel)[-1])
    assert eu._("My hand") in shown and eu._("My hand") != "My hand"  # the table: its language
    title = eu._("Your hand — {game} #{id}", game=eu._("Mus"), id=table_id)
    assert title != f"Your hand — Mus #{table_id}"
    assert any(title in m.text for m in stub.dms(alice))  # alice's DMs: her choice
    assert not any(title in m.text for m in stub.dms(bob))  # bob's: his client's English
    assert any(f"Your hand — Mus #{table_id}" in m.text for m in stub.dms(bob))

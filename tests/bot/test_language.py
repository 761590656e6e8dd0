"""Languages through the real discord.py client: localised slash commands, /language, client locales."""

from __future__ import annotations

from typing import Any

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def _synced(stub: DiscordStub, name: str) -> dict[str, Any]:
    return next(c for cmds in stub.commands.values() for c in cmds if c["name"] == name)


def _option(node: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in node.get("options", []) if o["name"] == name)


async def test_slash_commands_synced_with_localisations(stub: DiscordStub, tapis: TapisRun) -> None:
    rules = _synced(stub, "rules")
    assert rules["name_localizations"] == {"fr": "règles", "es-ES": "reglas", "es-419": "reglas",
                                           "cs": "pravidla"}
    desc = rules["description_localizations"]
    assert desc["fr"] == "Comment se joue un jeu, et ses options de table"
    assert desc["es-ES"] == desc["es-419"] == "Cómo se juega un juego y sus opciones de mesa"
    assert desc["cs"] == "Jak se hra hraje a jaké má možnosti stolu"
    assert "en-US" not in desc and "de" not in desc  # English is the default; no German catalogue

    table = _synced(stub, "table")
    assert table["name_localizations"] == {"es-ES": "mesa", "es-419": "mesa", "cs": "stůl"}  # fr: "table"
    new = _option(table, "new")
    assert new["name_localizations"]["cs"] == "nový"
    buy_in = _option(new, "buy_in")
    assert buy_in["name_localizations"] == {"fr": "mise", "es-ES": "entrada", "es-419": "entrada",
                                            "cs": "vklad"}
    assert buy_in["description_localizations"]["fr"] == "Jetons apportés par chaque joueur"
    marias = next(c for c in _option(new, "game")["choices"] if c["value"] == "marias")
    assert marias["name_localizations"]["cs"] == "Mariáš"

    language = _synced(stub, "language")
    assert language["name_localizations"]["cs"] == "jazyk"
    auto = next(c for c in _option(language, "language")["choices"] if c["value"] == "auto")
    assert auto["name_localizations"]["es-ES"] == "Seguir el idioma de mi Discord"


async def test_language_command_chooses_and_forgets(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    alice, bob, *_ = players
    alice.locale = "es-ES"
    chosen = await stub.slash("language", alice, stub.channel, language="cs")
    assert chosen.ephemeral and chosen.text == "Od teď vám Tapis bude psát v jazyce Čeština."
    assert await tapis.bot.languages.reader(alice.id, "es-ES") == "cs"  # the choice beats the client
    query = "SELECT language, client FROM user_languages WHERE user_id = ?"
    assert tuple(await tapis.db.fetchone(query, (alice.id,))) == ("cs", None)  # the choice: at once
    await tapis.bot.languages.flush()  # client locales are written in batches
    assert tuple(await tapis.db.fetchone(query, (alice.id,))) == ("cs", "es-ES")

    back = await stub.slash("language", alice, stub.channel, language="auto")
    assert back.text == "Tapis sigue ahora el idioma de tu Discord (Español)."
    assert await tapis.bot.languages.reader(alice.id, "es-ES") == "es"

    bob.locale = "fr"
    answer = await stub.slash("language", bob, stub.channel, language="en")
    assert answer.text == "From now on Tapis writes to you in English."


async def test_choice_and_client_locale_survive_a_restart(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    alice, bob, *_ = players
    bob.locale = "cs"
    await stub.slash("language", alice, stub.channel, language="fr")
    await stub.slash("balance", bob, stub.channel)  # any interaction notes bob's client locale
    await tapis.settle()
    await tapis.stop()
    await tapis.restart()
    store = tapis.bot.languages
    assert await store.reader(alice.id) == "fr"
    assert await store.reader(bob.id) == "cs"  # a DM outside an interaction: his last client locale
    assert await store.reader(12345, fallback="es") == "es"  # never seen: the table's language
    assert await store.reader(12345) == "en"


async def test_option_refusals_in_the_readers_language(stub: DiscordStub, tapis: TapisRun,
                                                      players: list[User]) -> None:
    """The rules core refuses with data (OptionError); the reader gets it in their language."""
    alice = players[0]
    alice.locale = "fr"
    low = await stub.slash("table new", alice, stub.channel, game="motz", options="ante=0")
    assert low.ephemeral and low.text == "⚠️ L'option ante doit valoir au moins 1 (reçu 0)."
    alice.locale = "cs"
    twice = await stub.slash("table new", alice, stub.channel, game="motz", options="ante=2 ante=3")
    assert twice.text == "⚠️ Možnost ante je zadaná dvakrát."
    alice.locale = "en-US"
    english = await stub.slash("table new", alice, stub.channel, game="motz", options="ante=0")
    assert english.text == "⚠️ Option ante must be at least 1 (got 0)."


async def test_table_service_refusals_in_the_readers_language(stub: DiscordStub, tapis: TapisRun,
                                                             players: list[User]) -> None:
    alice, bob, *_ = players
    bob.locale = "cs"
    await stub.slash("table new", alice, stub.channel, game="motz", players=4)
    lobby = stub.messages(stub.channel)[-1]
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    first = await stub.click(lobby, bob, custom_id=join)
    assert first.text.startswith("Přisedli jste ke stolu #")
    again = await stub.click(lobby, bob, custom_id=join)
    assert again.ephemeral and again.text.endswith("U tohoto stolu už sedíte.")


async def test_language_outside_its_choices_is_refused(stub: DiscordStub, tapis: TapisRun,
                                                       players: list[User]) -> None:
    """Issue 26 item 11: a forged value (not one of the choices) and the test-only pseudo-locale
    are refused with an ephemeral message in the asker's language, and nothing is stored."""
    alice, bob, *_ = players
    alice.locale = "fr"
    query = "SELECT language FROM user_languages WHERE user_id = ?"
    for value in ("xx", "pseudo", "PSEUDO", "", "fr-FR", "en " * 40):
        answer = await stub.slash("language", alice, stub.channel, language=value)
        assert answer.ephemeral
        assert answer.text == ("⚠️ Langue inconnue. Choisissez parmi : English, Français, Español, Euskara, "
                               "Čeština.")
        assert await tapis.db.fetchone(query, (alice.id,)) is None
        assert await tapis.bot.languages.reader(alice.id, "fr") == "fr"
    bob.locale = "cs"
    answer = await stub.slash("language", bob, stub.channel, language="pseudo")
    assert answer.ephemeral and "English, Français, Español, Euskara, Čeština" in answer.text
    assert "pseudo" not in answer.text  # the refusal never offers the test-only locale
    assert await tapis.bot.languages.reader(bob.id, "cs") == "cs"


async def test_the_store_refuses_a_language_it_has_no_catalogue_for(tapis: TapisRun) -> None:
    import pytest

    store = tapis.bot.languages
    for value in ("pseudo", "xx", "de"):
        with pytest.raises(ValueError):
            await store.choose(7, value)
    await store.choose(7, "es")
    assert await store.reader(7) == "es"


async def test_a_table_language_outside_the_choices_is_refused(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User]) -> None:
    """``/table new language:`` too: a forged value or the pseudo-locale opens no table."""
    alice = players[0]
    for value in ("pseudo", "xx"):
        answer = await stub.slash("table new", alice, stub.channel, game="motz", language=value)
        assert answer.ephemeral and answer.text.startswith("⚠️ Unknown language."), answer.text
    assert not stub.messages(stub.channel) and not await tapis.tables.open_tables()
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000
    opened = await stub.slash("table new", alice, stub.channel, game="motz", language="cs")
    assert not opened.ephemeral and len(await tapis.tables.open_tables()) == 1

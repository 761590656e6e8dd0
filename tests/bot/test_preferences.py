"""/preferences (issue 29): language as /language, hands by DM or the My hand button, DM reminders."""

from __future__ import annotations

import pytest

from tests.backends import BACKENDS
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


@pytest.mark.parametrize("backend", BACKENDS)
async def test_hands_in_the_channel_send_no_dm(stub: DiscordStub, tapis: TapisRun,
                                               players: list[User]) -> None:
    alice, bob = players[:2]
    saved = await stub.slash("preferences", bob, stub.channel, hands="channel", reminders=False)
    assert saved.ephemeral and "in the channel (My hand button)" in saved.text and "off" in saved.text
    table_id, lobby = await open_table(stub, alice, [bob], ai=1)
    await tapis.settle()
    assert stub.dms(alice), "alice's hand comes by DM (the default)"
    assert stub.dms(bob) == [], "bob chose the My hand button: no DM"
    mine = await stub.click(lobby, bob, "My hand")
    assert mine.ephemeral  # his hand, only for him
    await tapis.stop()
    await tapis.restart()
    prefs = await tapis.bot.preferences.get(bob.id)
    assert (prefs.hands, prefs.reminders) == ("channel", False)
    assert await tapis.bot.preferences.may_remind(alice.id)  # the default: reminders on


async def test_preferences_language_as_language(stub: DiscordStub, tapis: TapisRun,
                                                players: list[User]) -> None:
    alice = players[0]
    shown = await stub.slash("preferences", alice, stub.channel)
    assert "Your preferences:" in shown.text and "by DM" in shown.text and "English" in shown.text
    czech = await stub.slash("preferences", alice, stub.channel, language="cs")
    assert czech.ephemeral and "Čeština" in czech.text, czech.text
    assert await tapis.bot.languages.reader(alice.id, "en-US") == "cs"
    await stub.slash("language", alice, stub.channel, language="fr")  # /language still works
    shown = await stub.slash("preferences", alice, stub.channel)
    assert "Français" in shown.text


async def test_card_faces_as_cards(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Issue 30's card faces, chosen from /preferences through the same store as /cards."""
    alice = players[0]
    saved = await stub.slash("preferences", alice, stub.channel, faces="four_colour", pack="french")
    assert saved.ephemeral and "four colours" in saved.text and "French suits" in saved.text, saved.text
    assert await tapis.bot.card_faces.get(alice.id) == ("four_colour", "french")
    await stub.slash("cards", alice, stub.channel, faces="large")  # /cards still works, the same store
    shown = await stub.slash("preferences", alice, stub.channel)
    assert "large indices" in shown.text and "French suits" in shown.text

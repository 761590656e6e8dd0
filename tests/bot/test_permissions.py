"""A table needs View Channel, Send Messages, Embed Links and Attach Files in its channel (Send
Messages in Threads in a thread): without them ``/table new`` and Play again refuse at once, naming
what is missing in the reader's language, instead of opening a table that freezes once its
interaction token is spent (``bot/permissions.py``). ``python -m bot invite`` prints the link."""

from __future__ import annotations

import base64

import pytest

from bot.__main__ import main
from bot.permissions import client_id_of, invite_permissions, invite_url
from tests.bot.test_rematch import finished_motz
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import TABLE_PERMISSIONS
from tests.discord_stub.tapis import TapisRun

EMBED_LINKS, ATTACH_FILES, SEND_IN_THREADS = 1 << 14, 1 << 15, 1 << 38


async def test_a_channel_without_embeds_and_files_refuses_a_table(stub: DiscordStub, tapis: TapisRun,
                                                                  players: list[User]) -> None:
    alice = players[0]
    await stub.slash("balance", alice, stub.channel)
    wallet = await tapis.ledger.balance(stub.guild.id, alice.id)
    stub.app_permissions = str(TABLE_PERMISSIONS & ~EMBED_LINKS & ~ATTACH_FILES)
    new = await stub.slash("table new", alice, stub.channel, game="motz")
    assert new.ephemeral and new.text == "⚠️ " + (
        "Tapis cannot hold a table in this channel: it lacks the Embed Links, Attach Files permissions "
        "here. A server manager can grant them in the channel's settings (Permissions)."), new.text
    alice.locale = "fr"
    french = await stub.slash("table new", alice, stub.channel, game="motz")
    assert french.ephemeral and "Intégrer des liens, Joindre des fichiers" in french.text, french.text
    await tapis.settle()
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []  # nothing opened, nothing paid
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == wallet

    stub.app_permissions = str(TABLE_PERMISSIONS)  # granted: the table opens
    opened = await stub.slash("table new", alice, stub.channel, game="motz")
    assert not opened.ephemeral, opened.text


async def test_a_thread_needs_send_messages_in_threads(stub: DiscordStub, tapis: TapisRun,
                                                       players: list[User]) -> None:
    alice = players[0]
    place = stub.add_thread(stub.channel, "cards")
    stub.app_permissions = str(TABLE_PERMISSIONS & ~SEND_IN_THREADS)  # Send Messages is not enough here
    refused = await stub.slash("table new", alice, place, game="motz")
    assert refused.ephemeral and "it lacks the Send Messages in Threads permission here." in refused.text
    stub.app_permissions = str(TABLE_PERMISSIONS)
    opened = await stub.slash("table new", alice, place, game="motz")
    assert not opened.ephemeral, opened.text


async def test_play_again_is_refused_where_files_cannot_be_sent(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User]) -> None:
    alice, bob = players[:2]
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    stub.app_permissions = str(TABLE_PERMISSIONS & ~ATTACH_FILES)  # taken away since
    again = await stub.click(stub.message(table.message_id), alice, "Play again")
    assert again.ephemeral and "it lacks the Attach Files permission here" in again.text, again.text
    await tapis.settle()
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []  # no lobby opened


def test_the_invite_asks_for_what_tables_and_threads_need() -> None:
    perms = invite_permissions()
    assert perms.value == TABLE_PERMISSIONS & ~(1 << 16) | (1 << 35)  # not Read Message History
    url = invite_url(1234)
    assert url == ("https://discord.com/oauth2/authorize?client_id=1234&scope=bot+applications.commands"
                   f"&permissions={perms.value}")


def test_the_client_id_is_read_from_the_token(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    head = base64.b64encode(b"987654321098765432").decode().rstrip("=")
    assert client_id_of(f"{head}.GabCd.secret") == 987654321098765432
    assert client_id_of("not a token") is None
    monkeypatch.setenv("DISCORD_TOKEN", f"{head}.GabCd.secret")
    assert main(["invite"]) == 0
    assert "client_id=987654321098765432&" in capsys.readouterr().out
    assert main(["invite", "--client-id", "42"]) == 0
    assert "client_id=42&" in capsys.readouterr().out
    monkeypatch.delenv("DISCORD_TOKEN")
    assert main(["invite"]) == 2
    assert "--client-id" in capsys.readouterr().err


def test_a_token_that_is_not_a_bot_token_is_named(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """DISCORD_TOKEN set to something else (the client secret, a pasted placeholder): the answer says
    the token is the fault, not that it is missing; the token itself is not printed."""
    monkeypatch.setenv("DISCORD_TOKEN", "my-client-secret")
    assert main(["invite"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN does not begin with an application id" in err and "--client-id" in err
    assert "my-client-secret" not in err and len(err.strip().splitlines()) == 1

"""The stand-in refuses what Discord would refuse: bodies checked against Discord's OpenAPI schema."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from tests.discord_stub import DiscordStub, schema
from tests.discord_stub.client import connect


def make_bot(outcome: list[str]) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))

    @bot.tree.command(name="pick", description="a select with n options")
    async def pick(interaction: discord.Interaction, n: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Select(custom_id="pick", options=[
            discord.SelectOption(label=f"option {i}", value=str(i)) for i in range(n)]))
        view.stop()
        try:
            await interaction.response.send_message("choose", view=view)
            outcome.append("sent")
        except discord.HTTPException as exc:
            outcome.append(f"{exc.status} {exc.code} {exc.text}")

    return bot


async def start(stub: DiscordStub, outcome: list[str]) -> tuple[commands.Bot, object]:
    bot = make_bot(outcome)
    task = await connect(bot, stub)
    await bot.tree.sync()
    return bot, task


def button_view(label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label=label, custom_id="b"))
    view.stop()
    return view


async def test_overlong_content_and_label_get_400_50035(stub: DiscordStub) -> None:
    stub.invalid_expected = True
    bot, task = await start(stub, [])
    channel = bot.get_channel(stub.channel.id)

    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in caught.value.text

    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("ok", view=button_view("L" * 81))
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "components.0.components.0.label: Must be 80 or fewer in length." in caught.value.text

    with pytest.raises(discord.HTTPException) as caught:  # multipart: the payload_json part is checked
        await channel.send("y" * 2001, file=discord.File(__file__, filename="a.py"))
    assert caught.value.code == 50035

    assert stub.messages(stub.channel) == []  # nothing refused was stored
    assert [c.status for c in stub.calls_to("POST", "/channels/{cid}/messages")] == [400, 400, 400]
    assert len(stub.invalid) == 3

    message = await channel.send("x" * 2000, view=button_view("L" * 80))  # the limits themselves pass
    assert stub.message(message.id).content == "x" * 2000
    await bot.close()
    await task


async def test_select_with_26_options_is_refused_in_the_callback(stub: DiscordStub) -> None:
    stub.invalid_expected = True
    outcome: list[str] = []
    bot, task = await start(stub, outcome)
    alice = stub.add_user("alice", stub.guild)

    await stub.slash("pick", alice, stub.channel, wait=False, n=26)
    for _ in range(200):  # the outcome lands after the last REST call: poll for it
        if outcome:
            break
        await asyncio.sleep(0.01)
    assert outcome[0].startswith("400 50035")
    assert "data.components.0.components.0.options: Must be 25 or fewer in length." in outcome[0]
    [(call, _)] = stub.invalid
    assert call.route == "/interactions/{iid}/{token}/callback"

    inter = await stub.slash("pick", alice, stub.channel, n=25)
    await asyncio.sleep(0.05)
    assert outcome[1] == "sent" and len(inter.last.selects()[0]["options"]) == 25
    await bot.close()
    await task


def test_integer_snowflakes_and_valid_bodies_pass() -> None:
    assert schema.check("POST", "/users/@me/channels", {"recipient_id": 1234567890123}) is None
    assert schema.check("POST", "/users/@me/channels", {"recipient_id": "1234567890123"}) is None
    refused = schema.check("POST", "/users/@me/channels", {"recipient_id": "12a"})
    assert refused is not None and refused["code"] == 50035 and "recipient_id" in refused["errors"]
    edit = {"content": "hi", "embeds": [{"title": "t", "image": {"url": "attachment://table.png"}}],
            "attachments": [{"id": 0, "filename": "table.png"}], "components": []}
    assert schema.check("PATCH", "/channels/1/messages/2", edit) is None
    assert schema.check("PATCH", "/webhooks/1/tok/messages/@original", {"content": "z" * 2001}) == {
        "code": 50035, "message": "Invalid Form Body",
        "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                             "message": "Must be 2000 or fewer in length."}]}}}


def test_limits_the_schema_cannot_state_are_refused() -> None:
    """Discord's 6,000 characters over a message's embeds, 5 action rows, a select alone in its row,
    custom ids and a select's values unique, and a command's (or option's, or localized) name in lower
    case: refused as Discord does."""
    def row(*items: dict[str, object]) -> dict[str, object]:
        return {"type": 1, "components": list(items)}

    button = {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    two = {"embeds": [{"title": "t" * 100, "description": "d" * 2900}] * 2}
    assert schema.check("POST", "/channels/1/messages", two) is None  # 6,000 exactly
    three = {"embeds": [{"description": "d" * 2000, "footer": {"text": "f"}}] * 3}
    for method, path, body in (("POST", "/channels/1/messages", three),
                               ("PATCH", "/webhooks/1/t/messages/@original", three),
                               ("POST", "/interactions/1/t/callback", {"type": 4, "data": three})):
        refused = schema.check(method, path, body)
        assert refused is not None and refused["code"] == 50035, (method, path)
        errors = refused["errors"].get("data", refused["errors"])
        assert errors["embeds"]["_errors"][0]["message"] == "Embed size exceeds maximum size of 6000"
    fields = {"embeds": [{"fields": [{"name": "n" * 10, "value": "v" * 1000}] * 6}]}
    assert schema.check("POST", "/channels/1/messages", fields) is not None
    rows = [row({**button, "custom_id": f"b{i}"}) for i in range(6)]
    assert schema.check("POST", "/channels/1/messages", {"components": rows[:5]}) is None
    refused = schema.check("POST", "/channels/1/messages", {"components": rows})
    assert refused is not None and "_errors" in refused["errors"]["components"]
    refused = schema.check("POST", "/interactions/1/t/callback",
                           {"type": 7, "data": {"components": [row(select, button)]}})
    assert refused is not None
    assert refused["errors"]["data"]["components"]["0"]["components"]["_errors"][0]["code"] == \
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
    layout = {"components": [row(select), row(button, {**button, "custom_id": "c"})]}
    assert schema.check("POST", "/channels/1/messages", layout) is None
    refused = schema.check("POST", "/channels/1/messages", {"components": [row(button), row(button)]})
    assert refused is not None and "COMPONENT_CUSTOM_ID_DUPLICATED" in str(refused)
    twice = {**select, "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "a"}]}
    refused = schema.check("POST", "/channels/1/messages", {"components": [row(twice)]})
    assert refused is not None and "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED" in str(refused)

    def command(**extra: object) -> list[dict[str, object]]:
        return [{"name": "table", "description": "d", "type": 1, **extra}]

    option = {"type": 3, "name": "game", "description": "d", "name_localizations": {"fr": "jeu"}}
    ok = command(name_localizations={"es-ES": "añadir-ía", "cs": "přidat_stůl"}, options=[option])
    assert schema.check("PUT", "/applications/1/commands", ok) is None
    upper = {**option, "name_localizations": {"eu": "Joko"}}
    for bad in (command(name_localizations={"fr": "Table"}), command(name="two words"),
                command(options=[upper])):
        refused = schema.check("PUT", "/applications/1/guilds/2/commands", bad)
        assert refused is not None and "APPLICATION_COMMAND_INVALID_NAME" in str(refused), bad


def test_routes_map_to_openapi_paths() -> None:
    assert schema.openapi_path("/channels/5/messages/6") == "/channels/{channel_id}/messages/{message_id}"
    assert schema.openapi_path("/webhooks/1/t/messages/@original") == \
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert schema.openapi_path("/interactions/1/t/callback") == \
        "/interactions/{interaction_id}/{interaction_token}/callback"
    assert schema.openapi_path("/users/@me/channels") == "/users/@me/channels"
    assert schema.validator("PUT", "/applications/{application_id}/commands") is \
        schema.validator("PUT", "/applications/{application_id}/commands")  # compiled once


def test_missing_spec_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(schema.SpecMissing, match="openapi.json"):
        schema.load(tmp_path / "shared" / "discord-api" / "openapi.json")


async def test_attachment_descriptions_are_kept_and_checked(stub: DiscordStub) -> None:
    """Issue 30: the alt text of an upload (payload_json ``attachments[n].description`` for the part
    ``files[n]``) is stored with the attachment, so tests can read it, and Discord's schema refuses
    one over 1,024 characters."""
    stub.invalid_expected = True
    bot, task = await start(stub, [])
    channel = bot.get_channel(stub.channel.id)
    sent = await channel.send("two images", files=[
        discord.File(__file__, filename="a.py", description="the first: é ⟦marked⟧"),
        discord.File(__file__, filename="b.py"),
        discord.File(__file__, filename="c.py", description="d" * 1024),
    ])
    stored = stub.message(sent.id).attachments
    assert [(a.filename, a.description) for a in stored] == [
        ("a.py", "the first: é ⟦marked⟧"), ("b.py", None), ("c.py", "d" * 1024)]
    assert sent.attachments[0].description == "the first: é ⟦marked⟧"  # echoed back as Discord does

    edited = await sent.edit(attachments=[sent.attachments[1], discord.File(__file__, filename="e.py",
                                                                            description="new")])
    assert [(a.filename, a.description) for a in stub.message(edited.id).attachments] == [
        ("b.py", None), ("e.py", "new")]

    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("too long", file=discord.File(__file__, filename="f.py", description="x" * 1025))
    assert caught.value.code == 50035 and "description" in caught.value.text
    assert len(stub.invalid) == 1
    await bot.close()
    await task

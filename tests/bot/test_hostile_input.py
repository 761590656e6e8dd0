"""Hostile input gets a short, clear answer: never silence, never a huge echo, never an ERROR."""

from __future__ import annotations

import json
import re

import pytest

from bot.cogs.options import MAX_OPTIONS_TEXT
from tests.bot.test_hostile import refused, snapshot, whose_turn
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.tapis import TapisRun

#: A masked link Discord would render: ``[text](url)`` whose ``[`` is not escaped.
MASKED_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


def short(text: str, typed: str) -> None:
    """The reply fits Discord's limit and quotes at most ~40 characters of what was typed."""
    assert len(text) <= 2000, len(text)
    assert typed[:41] not in text, text
    assert "invalid literal" not in text and "Exceeds the limit" not in text, text


@pytest.mark.parametrize("options", [
    "ante=" + "9" * 2100,  # a 2,100-character value
    "x" * 2100,  # 2,100 characters that are no option at all
    "o" + "p" * 2100 + "=1",  # an unknown option with a 2,101-character name
    "ante=²",  # a digit Python's int() would try
    "ante=" + "7" * 5000,  # more digits than int() accepts
    "buy_in=99999999999999999999",  # 20 digits: too big for the database
])
async def test_options_text(options: str, stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    inter = await stub.slash("table new", alice, stub.channel, game="motz", options=options)
    refused(inter)
    short(inter.text, options)
    if len(options) > MAX_OPTIONS_TEXT:  # refused before it is read (issue 26)
        assert "too long" in inter.text
    else:
        assert "ante=" not in options or "whole number" in inter.text
    assert not stub.messages(stub.channel)
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000


async def first_moves(stub: DiscordStub, tapis: TapisRun, table_id: int, users: list[User], n: int) -> None:
    """``n`` moves, each the first move offered in the DM of whoever is to act."""
    for _ in range(n):
        user, dm = await whose_turn(tapis, stub, table_id, users)
        await stub.click(dm, user, custom_id=[c for c in dm.custom_ids() if ":mv:" in c][0])
        await tapis.settle()


async def test_buy_in_has_a_maximum(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice = players[0]
    for value in (10**20, 10**12):  # forged past Discord's own max_value check
        refused(await stub.slash("table new", alice, stub.channel, game="motz", buy_in=value), "at most")
    [new] = [c for c in stub.commands[None] if c["name"] == "table"][0]["options"][:1]
    [buy_in] = [o for o in new["options"] if o["name"] == "buy_in"]
    assert buy_in["max_value"] == 1_000_000_000  # Discord refuses more before it reaches us
    assert await tapis.ledger.accounts_total() == 0


async def test_forged_select_values(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    humans = [alice, bob, carol]
    table_id, _ = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    user, dm = await whose_turn(tapis, stub, table_id, humans)
    table = await tapis.tables.get(table_id)
    select_id = f"tapis:{table_id}:{table.version}:sel:{table.seat_of(user.id)}.0"
    before = await snapshot(tapis, stub, table_id, humans)
    for value in ("²", "٣", "7" * 5000, "0x1", " 1", "1\n"):
        inter = await stub.choose(dm, user, [value], custom_id=select_id)
        refused(inter, "not one of your moves")
        short(inter.text, value)
    refused(await stub.click(dm, user, custom_id=f"tapis:{table_id}:{table.version}:mv:²"), "not valid")
    assert await snapshot(tapis, stub, table_id, humans) == before


async def test_components_that_are_not_tapis(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    lobby = stub.messages(stub.channel)[-1]
    for cid in ("other-bot:vote:1", "tapisx:1:0:join", "", "x" * 100, "\ntapis:1:0:join"):
        refused(await stub.click(lobby, bob, custom_id=cid), "no longer in use")
    refused(await stub.choose(lobby, bob, ["a"], custom_id="poll:42"), "no longer in use")
    refused(await stub.click(lobby, bob, custom_id="tapis:\nweird"), "not valid")  # Tapis's: its answer
    joined = await stub.click(lobby, bob, "Join")  # Tapis's own buttons still win
    assert joined.ephemeral and "joined" in joined.text
    answers = [c for c in stub.calls if c.route == "/interactions/{iid}/{token}/callback"]
    assert all(c.status == 200 for c in answers)  # every click answered exactly once


async def test_names_escaped_and_nobody_pinged(stub: DiscordStub, tapis: TapisRun,
                                               players: list[User]) -> None:
    alice = players[0]
    mallory = stub.add_user("[free](https://e.vil) *x* @everyone <@1>", stub.guild)
    eve = stub.add_user("](https://e.vil)", stub.guild)  # with mallory: a link across two names
    table_id, table_msg = await open_table(stub, alice, [mallory, eve], ai=1)
    await tapis.settle()
    users = {u.id: u for u in (alice, mallory, eve)}
    await first_moves(stub, tapis, table_id, list(users.values()), 4)
    public: list[Message] = stub.messages(stub.channel)
    dms = [m for u in users.values() for m in stub.dms(u)]
    texts = [m.text for m in public + dms]
    assert any("Last moves" in t for t in texts)
    seen = "\n".join(texts)
    assert r"\[free\]\(https\://e.vil\) \*x\* \@everyone \<\@1\>" in seen  # shown as typed, literally
    for text in texts:
        assert not MASKED_LINK.search(text), text
        assert not re.search(r"(?<!\\)@everyone|(?<!\\)<(?!\\)@1>", text), text
    narrated = [line for t in texts for line in t.splitlines() if r"\[free\]" in line and "Seats" not in line]
    assert narrated  # the narration names the player too, escaped
    sent = [c for c in stub.calls if c.method in ("POST", "PATCH") and isinstance(c.json, dict)
            and ("content" in c.json or "embeds" in c.json or "data" in c.json)]
    assert sent
    for call in sent:
        body = call.json.get("data", call.json) if call.route.endswith("/callback") else call.json
        if body and ("content" in body or "embeds" in body):
            assert body.get("allowed_mentions") == {"parse": []}, (call.route, body)


async def test_forged_game_choice(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """A game value that is none of the offered choices (forged): a short refusal, no echo of it all."""
    forged = "g" * 3000
    for command in ("table new", "rules"):
        inter = await stub.slash(command, players[0], stub.channel, game=forged)
        refused(inter, "unknown game")
        short(inter.text, forged)


async def test_a_registered_view_still_answers_its_own_components(stub: DiscordStub, tapis: TapisRun,
                                                                  players: list[User]) -> None:
    """The catch-all stays silent for a discord.ui.View another part of the bot registered."""
    import discord

    answered: list[str] = []

    class Mine(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)

        @discord.ui.button(label="mine", custom_id="history:page:2")
        async def page(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
            answered.append(button.custom_id)
            await interaction.response.send_message("page 2", ephemeral=True)

    tapis.bot.add_view(Mine())  # type: ignore[union-attr]
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    lobby = stub.messages(stub.channel)[-1]
    inter = await stub.click(lobby, bob, custom_id="history:page:2")
    await tapis.settle()
    assert inter.text == "page 2" and answered == ["history:page:2"]
    answers = [c for c in stub.calls if c.route == "/interactions/{iid}/{token}/callback"]
    assert all(c.status == 200 for c in answers)  # the catch-all did not answer it a second time
    refused(await stub.click(lobby, bob, custom_id="history:page:3"), "no longer in use")


async def test_forged_history_select_values(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    from tests.bot.test_history import service_session

    alice = players[0]
    table_id = await service_session(tapis, stub, alice)
    inter = await stub.slash("history", alice, stub.channel)
    msg = inter.last
    [select] = msg.selects()
    for value in ("²", "7" * 5000, "٣"):
        answer = await stub.choose(msg, alice, [value], custom_id=select["custom_id"])
        refused(answer, "not valid")
        short(answer.text, value)
    opened = await stub.choose(msg, alice, [str(table_id)])  # the real value still works
    assert opened.callback_type == 7 and f"Table #{table_id}" in msg.text


def test_integer_options_sent_as_floats_reach_commands_as_ints() -> None:
    """With orjson installed discord.py reads an integer past 64 bits as a float: the tree turns every
    integer option (subcommands' too) back into an int before a command reads it; other types stay."""
    from bot.cogs.errors import whole_numbers

    options = [{"type": 1, "name": "new", "options": [
        {"type": 4, "name": "buy_in", "value": 1e20},
        {"type": 4, "name": "players", "value": 4},
        {"type": 10, "name": "ratio", "value": 2.0},
        {"type": 4, "name": "half", "value": 2.5},
        {"type": 3, "name": "options", "value": "ante=2"}]}]
    whole_numbers(options)
    values = {o["name"]: o["value"] for o in options[0]["options"]}
    assert values["buy_in"] == 10**20 and isinstance(values["buy_in"], int)
    assert values == {"buy_in": 10**20, "players": 4, "ratio": 2.0, "half": 2.5, "options": "ante=2"}
    assert isinstance(values["ratio"], float)


#: Unicode's explicit direction controls: embeddings, overrides and isolates.
DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")


async def test_a_name_cannot_turn_the_rest_of_a_line_around(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User]) -> None:
    """A right-to-left override in a display name reversed whatever followed it on the line (the seat
    list's stacks, the narration): no direction control of a name reaches any message, embed or
    image description; the name is shown without it."""
    alice = players[0]
    mallory = stub.add_user("Mal\u202elory", stub.guild)
    eve = stub.add_user("\u2067Eve\u202b", stub.guild)
    table_id, _ = await open_table(stub, alice, [mallory, eve], ai=1)
    await tapis.settle()
    users = {u.id: u for u in (alice, mallory, eve)}
    await first_moves(stub, tapis, table_id, list(users.values()), 4)
    await stub.slash("table status", eve, stub.channel)
    texts = [m.text for m in stub.messages(stub.channel) + [m for u in users.values() for m in stub.dms(u)]]
    seen = "\n".join(texts)
    assert "Mallory" in seen and "Eve" in seen
    sent = [c for c in stub.calls if c.method in ("POST", "PATCH") and c.json is not None]
    assert sent
    for call in sent:
        body = json.dumps(call.json, ensure_ascii=False)  # (repr would escape the controls)
        assert not DIRECTION.search(body), (call.route, DIRECTION.findall(body), body[:300])

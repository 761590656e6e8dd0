"""Issue 30 item 4: quick reactions on the table message, seated players only, rate-limited, and
costing no request of the global budget (the click's token makes the coalesced edit)."""

from __future__ import annotations

from bot.tables.reactions import EMOTES, KEEP, Reactions, emote_of
from tests.bot.test_rest_budget import table_edits
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.tapis import TapisRun

CHANNEL_EDIT = ("PATCH", "/channels/{cid}/messages/{mid}")


def react_select(message: Message) -> dict:
    return next(s for s in message.selects() if s["custom_id"].split(":")[3] == "react")


async def react(stub: DiscordStub, message: Message, user: User, emote: str):
    select = react_select(message)
    value = next(o["value"] for o in select["options"] if o["label"] == emote)
    return await stub.choose(message, user, [value], custom_id=select["custom_id"])


async def test_reactions_are_shown_on_the_table_message_and_rate_limited(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    table_id, message = await open_table(stub, alice, [bob, carol, dave], ai=0)
    await tapis.settle()
    assert [o["label"] for o in react_select(message)["options"]] == list(EMOTES)
    before = len(stub.calls_to(*CHANNEL_EDIT))
    answer = await react(stub, message, bob, "👏")
    assert answer.callback_type == 6  # acknowledged as an update: no message of its own
    await tapis.settle()
    assert "bob: 👏" in message.text, message.text
    # the edit went through the click's own token, not the channel (the global budget)
    assert len(stub.calls_to(*CHANNEL_EDIT)) == before
    assert table_edits(stub, message.id)[0] == 0
    # bob again at once: refused in his language, nothing shown
    again = await react(stub, message, bob, "😂")
    assert again.ephemeral and "too fast" in again.text, again.text
    await tapis.settle()
    assert "bob: 😂" not in message.text
    # others are not slowed down by bob's cooldown
    await react(stub, message, carol, "😂")
    await tapis.settle()
    assert "bob: 👏 · carol: 😂" in message.text, message.text


async def test_a_member_not_seated_may_not_react(stub: DiscordStub, tapis: TapisRun,
                                                 players: list[User]) -> None:
    alice, bob, carol, dave = players
    eve = stub.add_user("eve", stub.guild)
    table_id, message = await open_table(stub, alice, [bob, carol, dave], ai=0)
    await tapis.settle()
    answer = await react(stub, message, eve, "👍")
    assert answer.ephemeral and "seated" in answer.text, answer.text
    await tapis.settle()
    assert "eve" not in message.text
    forged = await stub.choose(message, alice, ["99"], custom_id=react_select(message)["custom_id"])
    assert forged.ephemeral and "not valid" in forged.text, forged.text


async def test_a_refusal_is_in_the_readers_language(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    alice, bob, carol, dave = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "fr"
    table_id, message = await open_table(stub, alice, [bob, carol, dave], ai=0)
    await tapis.settle()
    answer = await react(stub, message, eve, "👍")
    assert answer.ephemeral and "assis" in answer.text, answer.text


def test_the_line_keeps_the_latest_few() -> None:
    shown = Reactions()
    assert shown.line() is None
    for n in range(KEEP + 2):
        shown.add(f"p{n}", EMOTES[n % len(EMOTES)])
    line = shown.line()
    assert line is not None and "p0" not in line and "p1:" not in line and f"p{KEEP + 1}" in line
    assert emote_of("0") == EMOTES[0] and emote_of("6") is None and emote_of("²") is None
    assert emote_of("-1") is None and emote_of("") is None

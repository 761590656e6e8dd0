"""Autocomplete, /table status, /hand, several tables per channel, and the images when rendering."""

from __future__ import annotations

from tests.bot.test_session import GAME, open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_autocomplete_status_hand(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, dave = players
    first, _ = await open_table(stub, alice, [bob, carol])
    await stub.slash("table new", dave, stub.channel, game=GAME, players=4)
    second = int(stub.messages(stub.channel)[-1].custom_ids()[0].split(":")[1])
    choices = await stub.autocomplete("table join", bob, stub.channel, "table")
    assert [c["value"] for c in choices] == [second, first]
    assert f"#{first}" in choices[1]["name"] and "playing" in choices[1]["name"]
    suggestions = await stub.autocomplete("table new", bob, stub.channel, "options", game=GAME, options="")
    names = [c["value"] for c in suggestions]
    assert names and all("=" in n for n in names) and not any(n.startswith("decks") for n in names)

    status = await stub.slash("table status", carol, stub.channel, table=first)
    assert status.ephemeral and f"table #{first}" in status.text and "carol" in status.text
    latest = await stub.slash("table status", carol, stub.channel)
    assert f"table #{second}" in latest.text  # no table given: the most recent one
    await tapis.settle()
    hand = await stub.slash("hand", carol, stub.channel)  # carol sits only at the first table
    assert hand.ephemeral and f"#{first}" in hand.text and "Your hand" in hand.text
    nobody = await stub.slash("hand", dave, stub.channel, table=first)
    assert nobody.ephemeral and "not seated" in nobody.text
    missing = await stub.slash("table join", bob, stub.channel, table=999999)
    assert missing.ephemeral and "no table #999999" in missing.text


async def test_images_attached_when_rendering(stub: DiscordStub, tapis: TapisRun,
                                              players: list[User]) -> None:
    tapis.bot.presenter.images = True
    alice, bob, carol, _ = players
    table_id, table_msg = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    assert [a.filename for a in table_msg.attachments] == [f"table-{table_id}.png"]
    assert table_msg.attachments[0].data.startswith(b"\x89PNG")
    assert table_msg.embeds[0]["image"]["url"] == f"attachment://table-{table_id}.png"
    dm = stub.dms(alice)[-1]
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    assert "Your hand" in dm.text  # the embed stays as the text alternative

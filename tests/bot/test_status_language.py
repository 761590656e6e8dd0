"""/table status answers a spectator in their language, the table's last moves included: a French
reader of an English table got a French embed whose "Derniers coups" were English lines."""

from __future__ import annotations

import random

from bot.i18n import translator
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import play_once
from tests.discord_stub.tapis import TapisRun


def moves(message: Message, heading: str) -> list[str]:
    field = next((f for f in message.embeds[0]["fields"] if f["name"] == heading), None)
    return field["value"].splitlines() if field else []


async def test_status_tells_the_last_moves_in_the_readers_language(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, _, _ = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "fr"
    table_id, message = await open_table(stub, alice, [bob], ai=2, game="mus")
    await tapis.settle()
    users = {alice.id: alice, bob.id: bob}
    while not moves(message, "Last moves"):  # a move told on the table message, whoever was first
        table = await tapis.tables.get(table_id)
        await play_once(stub, tapis, table_id, users[table.to_act_users()[0]], random.Random(1))
        await tapis.settle()
    english = moves(message, "Last moves")
    assert english, message.text
    status = await stub.slash("table status", eve, stub.channel, table=table_id)
    french = moves(status.last, translator("fr")._("Last moves"))
    assert status.ephemeral and len(french) == len(english), status.text
    assert not set(french) & set(english), (french, english)
    # the table message itself stays in the table's language
    await tapis.settle()
    assert moves(message, "Last moves") == english

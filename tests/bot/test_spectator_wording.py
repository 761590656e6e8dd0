"""The table message is read by everyone in the channel: none of its lines is addressed to one player
as "you" (a spectator who reads "use My hand" takes it for themselves and is refused)."""

from __future__ import annotations

import re

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

SECOND_PERSON = re.compile(r"\b(you|your|use)\b", re.IGNORECASE)


async def test_a_closed_dms_notice_speaks_of_the_player_not_to_the_reader(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol, _ = players
    stub.close_dms(carol)
    _, message = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    assert "carol has closed DMs and plays with **My hand** on this message." in message.text, message.text
    assert not SECOND_PERSON.findall(message.text), message.text

"""A member who did not play presses Play again on a finished table's message: refused, in their
language, with where they may play instead (the lobby playing it again when a seat there is free to
anyone, else a table of their own with /table new)."""

from __future__ import annotations

import random

from tests.bot.test_seats import choose, values
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun


async def test_a_spectator_pressing_play_again_is_told_where_to_play(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, _, _ = players
    eve = stub.add_user("eve", stub.guild)
    eve.locale = "fr"
    table_id, message = await open_table(stub, alice, [bob], ai=1, game="michigan", options="rotations=1")
    await play_session(stub, tapis, table_id, {alice.id: alice, bob.id: bob}, random.Random(3))
    await tapis.settle()

    refused = await stub.click(message, eve, "Play again")
    assert refused.ephemeral and "Seuls les joueurs" in refused.text, refused.text
    assert "table new" in refused.text and "ouvrez" in refused.text, refused.text  # a way forward

    opened = await stub.click(message, alice, "Play again")
    await tapis.settle()
    lobby = opened.last
    assert "table #2" in lobby.text, lobby.text
    # bob's seat is kept for him and the AI sits again: nothing free, so a table of one's own
    full = await stub.click(message, eve, "Play again")
    assert full.ephemeral and "table new" in full.text and "n°2" not in full.text, full.text
    # the host frees the AI's seat: the refusal now points to the new lobby
    await choose(stub, lobby, alice, "host", values(lobby, "host")["Remove AI 1"])
    await tapis.settle()
    free = await stub.click(message, eve, "Play again")
    assert free.ephemeral and "n°2" in free.text and "Rejoindre" in free.text, free.text
    joined = await stub.click(lobby, eve, "Join")
    assert joined.ephemeral and "table new" not in joined.text, joined.text
    table = await tapis.tables.get(2)
    assert eve.id in [s.user_id for s in table.seats]

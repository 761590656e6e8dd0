"""Alt text everywhere (issue 30, item 3), through the real discord.py client against the stand-in.

A whole session in the pseudo-locale with images on: every attachment Tapis sent (the table
message's image, every hand in the DMs, the leaderboard, the profile card, the replay) carries a
description, within Discord's 1,024 characters, written through the catalogue (marked ⟦…⟧, no
unmarked word but names), so a screen-reader user reads the session from the texts alone. The
stand-in checks every upload's body against Discord's schema (``attachments[].description``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.rules import GAMES
from tests.bot.test_languages_session import open_lobby, play_all, unmarked
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_attachment_of_a_pseudo_locale_session_is_described(
        game: str, stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    stub.guild.locale = "pseudo"  # type: ignore[attr-defined]
    rules = GAMES[game]
    humans = players[: 3 if rules.min_seats <= 3 else 4]
    for u in humans:
        u.locale = "pseudo"
    seats = rules.min_seats
    short = " ".join(f"{k}={v}" for k, v in rules.shortest_options().items())
    table_id, lobby = await open_lobby(stub, humans[0], humans[1:seats], max(0, seats - len(humans)), game,
                                       options=short)
    descriptions: dict[int, str | None] = {}

    async def each(table: Any) -> None:  # the table image as it is after each step (edits replace it)
        for a in lobby.attachments:
            descriptions[a.id] = a.description

    await play_all(stub, tapis, table_id, {u.id: u for u in humans}, random.Random(2), each)
    await stub.slash("leaderboard", humans[0], stub.channel)
    await stub.slash("stats", humans[1], stub.channel)
    await stub.slash("replay", humans[0], stub.channel, table=table_id, deal=1)
    await tapis.settle()
    for message in list(stub.store.values()):
        for a in message.attachments:
            descriptions[a.id] = a.description
    table = await tapis.tables.get(table_id)
    names = [u.name for u in players] + [s.name for s in table.seats] + ["Casino", "general"]
    kinds = {a.filename.split("-")[0].split(".")[0] for m in stub.store.values() for a in m.attachments}
    assert {"table", "hand", "leaderboard", "profile", "replay"} <= kinds, kinds
    assert len(descriptions) > 10
    for text in descriptions.values():
        assert text is not None and 0 < len(text) <= 1024
        assert text.startswith("⟦") and unmarked(text, names) is None, text


async def test_a_move_played_from_a_dm_shows_the_hand_after_it(stub: DiscordStub, tapis: TapisRun,
                                                                players: list[User]) -> None:
    """The DM a player moved from is answered in place: its image and alt text are of the hand after
    the move, not the hand before it (kept as a loose attachment saying "Your turn") until the next
    prompt."""
    from tests.bot.test_session import open_table
    from tests.discord_stub.play import play_once

    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    alice, bob, carol, _ = players
    table_id, _ = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    users = {u.id: u for u in (alice, bob, carol)}
    for step in range(6):
        await tapis.settle()  # the mover's DM prompt is out (else play_once falls back to My hand)
        table = await tapis.tables.get(table_id)
        assert table is not None
        mover = users[table.to_act_users()[0]]
        answer = await play_once(stub, tapis, table_id, mover, random.Random(step))
        assert not answer.message.ephemeral, "the move was played from My hand, not from the DM"  # type: ignore
        dm = stub.message(answer.message.id)  # type: ignore[union-attr]
        assert dm.embeds[0].get("image") == {"url": "attachment://hand.png"}, dm.embeds[0]
        [image] = dm.attachments
        hand = dm.embeds[0]["description"].split("**")[1]  # the hand line: "A♥ 10♥ 7♥", "—" for none
        count = 0 if hand == "—" else len(hand.split())
        described = image.description or ""
        assert (described == "Your hand: no cards.") if count == 0 else \
            described.startswith(f"Your hand, {count} card"), (hand, described)
        turn = "Your turn" in dm.text  # their turn again already (the next deal, say): the image says so too
        assert turn == ("Your turn" in described or "Playable now" in described), (dm.text, described)
        await tapis.settle()

"""A member set on disturbing an event: a name chosen to disturb its posts (a right-to-left override
that turns the rest of the line around, a typed mention, markup) is shown as typed in the standings
and the winners' message; a burst of standings draws one picture."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.cogs.tournament import STANDINGS_COOLDOWN
from bot.tournaments.model import FINISHED
from tests.discord_stub import DiscordStub
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import people, play_round, start_event

RLO = "\u202e"


async def test_standings_and_winners_keep_a_names_direction_and_markup_to_itself(
        stub: DiscordStub, tapis: TapisRun) -> None:
    names = [f"{RLO}evil", "<@1234> ~~x~~", "plain"]
    m = [stub.add_user(name, stub.guild) for name in names]
    tid, t = await start_event(stub, tapis, m, game="marias", rounds=1, buy_in=20, options="rounds=1")
    await play_round(tapis, tid)
    assert t.status == FINISHED
    posted = [msg.text for msg in stub.messages(stub.channel) if f"Tournament #{tid}" in msg.text]
    assert any("final standings" in text for text in posted), posted
    for text in posted:
        assert RLO not in text, text
        assert "<@1234>" not in text and "~~x~~" not in text, text  # escaped: shown, never read as markup


async def test_standings_pictures_one_at_a_time_per_member_then_a_pause(
        stub: DiscordStub, tapis: TapisRun, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/tournament standings` draws every entrant's line in a thread: a member's burst draws one
    picture, the others are refused at once; after the pause the member may ask again."""
    m = people(stub, 3)
    tid, _ = await start_event(stub, tapis, m, game="marias", rounds=1, buy_in=20, options="rounds=1")
    cog = tapis.bot.get_cog("Tournaments")  # type: ignore[union-attr]
    now = [1000.0]
    cog.drawings.clock = lambda: now[0]
    drawn = 0
    real = cog._standings

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal drawn
        drawn += 1
        return await real(*args, **kwargs)

    monkeypatch.setattr(cog, "_standings", counted)
    burst = await asyncio.gather(*(stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
                                   for _ in range(5)))
    await tapis.settle()
    assert drawn == 1, drawn
    refused = [i.text for i in burst if i.text.startswith("⚠️")]
    assert len(refused) == 4 and all(i.ephemeral for i in burst), refused
    again = await stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
    assert again.text == f"⚠️ Wait {STANDINGS_COOLDOWN:.0f} seconds before asking for the standings again.", \
        again.text
    other = await stub.slash("tournament standings", m[2], stub.channel, tournament=tid)  # not their pause
    await stub.wait_for(lambda: "p1" in other.text, what="another member's standings")
    now[0] += STANDINGS_COOLDOWN
    later = await stub.slash("tournament standings", m[1], stub.channel, tournament=tid)
    await stub.wait_for(lambda: "p1" in later.text, what="the standings after the pause")
    assert drawn == 3

"""/leaderboard and /stats under a member's burst. The board is public, and a bot's answer ignores the
channel's slowmode, so one member may post one board, then waits ``BOARD_COOLDOWN`` seconds
(``Wallet.boards``). A profile card not cached replays up to 20 sessions a game in a thread: one at a
time per member, ``STATS_COOLDOWN`` seconds apart, ``STATS_CAPACITY`` at once (``Wallet.cards``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.cogs.wallet import BOARD_COOLDOWN, STATS_COOLDOWN
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def boards(tapis: TapisRun) -> Any:
    return tapis.bot.get_cog("Wallet").boards  # type: ignore[union-attr]


def no_board_cooldown(tapis: TapisRun) -> None:
    """Let a member post boards and draw profile cards one after another (the cooldowns have their
    own tests)."""
    boards(tapis).cooldown = 0
    tapis.bot.get_cog("Wallet").cards.cooldown = 0  # type: ignore[union-attr]


def posted(stub: DiscordStub) -> int:
    """Boards visible in the channel (the public answers)."""
    return sum(1 for m in stub.messages(stub.channel) if "Leaderboard" in m.text)


async def test_a_member_posts_one_board_then_waits(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    alice, bob, carol = players[:3]
    now = [1000.0]
    boards(tapis).clock = lambda: now[0]
    first = await stub.slash("leaderboard", alice, stub.channel)
    assert not first.ephemeral and posted(stub) == 1
    for options in ({}, {"by": "wins"}, {"game": "motz"}):  # another board is no way round it
        again = await stub.slash("leaderboard", alice, stub.channel, **options)
        assert again.ephemeral, again.text
        assert again.text.endswith(f"wait {BOARD_COOLDOWN:.0f} seconds before your next one."), again.text
    now[0] += BOARD_COOLDOWN - 1
    soon = await stub.slash("leaderboard", alice, stub.channel)
    assert soon.ephemeral and "wait 1 second before" in soon.text, soon.text
    assert posted(stub) == 1

    other = await stub.slash("leaderboard", bob, stub.channel)  # another member is not held
    assert not other.ephemeral and posted(stub) == 2
    mistaken = await stub.slash("leaderboard", carol, stub.channel, by="rating")  # refused: no wait
    assert mistaken.ephemeral and "Choose a game" in mistaken.text
    fixed = await stub.slash("leaderboard", carol, stub.channel, by="wins", game="motz")
    assert not fixed.ephemeral and posted(stub) == 3

    now[0] += 1
    later = await stub.slash("leaderboard", alice, stub.channel)
    assert not later.ephemeral and posted(stub) == 4


async def test_a_burst_sent_at_once_posts_one_board(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    alice = players[0]
    burst = await asyncio.gather(*(stub.slash("leaderboard", alice, stub.channel) for _ in range(8)))
    assert sum(not i.ephemeral for i in burst) == 1, [i.text for i in burst]
    assert posted(stub) == 1
    assert not boards(tapis).running


async def test_profile_cards_one_at_a_time_per_member_and_a_few_at_once(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.views.boards as boards_views

    alice, bob, carol = players[:3]
    cards = tapis.bot.get_cog("Wallet").cards  # type: ignore[union-attr]
    now = [1000.0]
    cards.clock = lambda: now[0]
    drawn = []
    real = boards_views.profile_message

    async def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(args[3].id)
        return await real(*args, **kwargs)

    monkeypatch.setattr(boards_views, "profile_message", counted)
    burst = await asyncio.gather(*(stub.slash("stats", alice, stub.channel, user=carol) for _ in range(6)))
    answered = [i for i in burst if "Statistics" in i.text]
    assert len(answered) == 1 and drawn == [carol.id], [i.text for i in burst]
    for refused in (i for i in burst if i not in answered):
        assert refused.ephemeral and ("still being drawn" in refused.text or "Wait 3 seconds" in refused.text)
    soon = await stub.slash("stats", alice, stub.channel)
    wait = f"Wait {STATS_COOLDOWN:.0f} seconds before asking for statistics again."
    assert soon.text.endswith(wait), soon.text
    now[0] += STATS_COOLDOWN
    assert "Statistics" in (await stub.slash("stats", alice, stub.channel, user=carol)).text

    hold = asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> Any:
        await hold.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(boards_views, "profile_message", held)
    cards.capacity = 1  # bot-wide: while alice's card is drawn, bob's waits for another time
    now[0] += STATS_COOLDOWN
    first = asyncio.ensure_future(stub.slash("stats", alice, stub.channel, user=carol))
    for _ in range(100):
        if cards.running:
            break
        await asyncio.sleep(0.01)
    try:
        busy = await stub.slash("stats", bob, stub.channel, user=carol)
        assert busy.ephemeral and "Statistics are busy right now" in busy.text, busy.text
    finally:
        hold.set()
    assert "Statistics" in (await first).text
    assert not cards.running

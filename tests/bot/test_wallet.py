"""/balance, /daily, /leaderboard, /rules, /stats, and concurrent debits."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.rules import GAMES
from tests.backends import BACKENDS
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


@pytest.mark.parametrize("backend", BACKENDS)
async def test_balance_daily_leaderboard(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob, carol = players[:3]
    inter = await stub.slash("balance", alice, stub.channel)
    assert inter.ephemeral and "**1000**" in inter.text
    inter = await stub.slash("daily", alice, stub.channel)
    assert "+100" in inter.text and "**1100**" in inter.text
    again = await stub.slash("daily", alice, stub.channel)
    assert again.ephemeral and "ready in" in again.text
    await stub.slash("balance", bob, stub.channel)  # bob's first sight: his wallet and grant
    await stub.slash("balance", carol, stub.channel)
    inter = await stub.slash("balance", alice, stub.channel, user=bob)
    assert "bob has **1000**" in inter.text
    board = await stub.slash("leaderboard", bob, stub.channel)
    assert not board.ephemeral
    lines = board.text.splitlines()
    assert lines[1].startswith(f"` 1.` <@{alice.id}> — 1100")
    # bob and carol are tied: one place, shared, in user id order
    tied = sorted((bob.id, carol.id))
    assert lines[2:4] == [f"` 2.` <@{tied[0]}> — 1000", f"` 2.` <@{tied[1]}> — 1000"]
    [png] = board.last.attachments
    assert png.filename == "leaderboard.png" and png.data.startswith(b"\x89PNG")
    assert board.last.embeds[0]["image"]["url"] == "attachment://leaderboard.png"
    assert Image.open(io.BytesIO(png.data)).size[0] == 720
    assert await tapis.ledger.accounts_total() == 0


async def test_rules_and_stats(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    for name, game in GAMES.items():
        inter = await stub.slash("rules", players[0], stub.channel, game=name)
        assert inter.ephemeral and game.title in inter.text
        shown = [s.name for s in game.options if not s.hidden]
        # each option with its default (an unset one alone: `fine_cap`)
        assert all(f"`{opt}=" in inter.text or f"`{opt}`" in inter.text for opt in shown), name
        assert "`decks=" not in inter.text
    stats = await stub.slash("stats", players[0], stub.channel)
    assert "No finished session" in stats.text


async def test_commands_in_dm_are_refused(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    inter = await stub.slash("balance", players[0], stub.dm_channel(players[0]))
    assert inter.ephemeral and "server channel" in inter.text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_fifty_concurrent_dailies_pay_once(stub: DiscordStub, tapis: TapisRun,
                                                 players: list[User]) -> None:
    alice = players[0]
    inters = await asyncio.gather(*(stub.slash("daily", alice, stub.channel) for _ in range(50)))
    paid = [i for i in inters if "+100" in i.text]
    assert len(paid) == 1
    assert all(i.ephemeral for i in inters)
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1100
    assert await tapis.ledger.accounts_total() == 0


async def test_a_games_jetons_board_writes_the_net_signed(stub: DiscordStub, tapis: TapisRun,
                                                          players: list[User]) -> None:
    """A game's board ranks net jetons won: "+120" and "−120" (a true minus sign) in its lines and in its
    image's alt text, as the profile writes a result (a wallet's balance, on the board of all games, has
    no sign)."""
    alice, bob = players[:2]
    for user, net in ((alice, 120), (bob, -120)):
        await tapis.db.transaction(lambda conn, uid=user.id, n=net: conn.execute(
            "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) "
            "VALUES (?, ?, 'marias', 1, 0, ?)",
            (stub.guild.id, uid, n)))
    board = await stub.slash("leaderboard", bob, stub.channel, game="marias", by="jetons")
    lines = board.text.splitlines()
    assert lines[1] == f"` 1.` <@{alice.id}> — +120" and lines[2] == f"` 2.` <@{bob.id}> — −120"
    [png] = board.last.attachments
    assert png.description is not None
    assert ": +120, 1 session" in png.description and ": −120, 1 session" in png.description

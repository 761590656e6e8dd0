"""/leaderboard is public: it speaks the server's language, its /settings language first (as its tables)."""

from __future__ import annotations

from tests.bot.test_board_bursts import no_board_cooldown
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_leaderboard_follows_the_servers_settings_language(stub: DiscordStub, tapis: TapisRun,
                                                                 players: list[User]) -> None:
    """Discord has no Basque client language: a Basque server says so only through /settings."""
    boss = stub.add_user("boss", stub.guild, admin=True)
    no_board_cooldown(tapis)  # board after board
    english = await stub.slash("leaderboard", players[0], stub.channel, game="marias", by="wins")
    await stub.slash("settings set", boss, stub.channel, key="language", value="eu")
    for by in ("jetons", "wins", "rating"):
        board = await stub.slash("leaderboard", players[0], stub.channel, game="marias", by=by)
        assert not board.ephemeral
        assert "Leaderboard" not in board.text and "Nobody yet." not in board.text, board.text
    assert english.text.startswith("Leaderboard")

"""Leaderboards by rating or wins, and the /stats profile card: an image plus its text alternative."""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from typing import TYPE_CHECKING, Any

import discord

from bot.rules import GAMES
from bot.views.display import safe_name

if TYPE_CHECKING:
    from bot.app import TapisBot

TEXT = {
    "rating_title": "Leaderboard — {game} rating · season {season}",
    "wins_title": "Leaderboard — {game} wins",
    "all_games": "all games",
    "rating_line": "`{rank:>2}.` <@{uid}> — **{score:.1f}** (μ {mu:.1f} ± {sigma:.1f}) · {sessions} sessions",
    "wins_line": "`{rank:>2}.` <@{uid}> — **{wins}** won of {sessions}",
    "nobody": "Nobody yet.",
    "image_title": "{game} · {by}",
    "rating_columns": "rating · sessions",
    "wins_columns": "wins · sessions",
    "need_game": "Choose a game to rank by rating: ratings are per game.",
    "profile_title": "Statistics — {name}",
    "profile_none": "No finished session yet.",
    "profile_field": "{sessions} played · {wins} won ({rate:.0%}) · {net:+d} jetons",
    "profile_rating": "\nrating {score:.1f}{trend} (μ {mu:.1f} ± {sigma:.1f})",
    "profile_best": "\nbest {best:+d} (table #{table})",
    "profile_fav": "\nfavourite: {fav}",
}
#: Sessions replayed per game to find a player's favourite contract or bid.
FAVOURITE_SESSIONS = 20


def display_name(interaction: discord.Interaction[TapisBot], user_id: int) -> str:
    """A member's display name from the cache, else the user's name, else a neutral label."""
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    user = interaction.client.get_user(user_id)
    return user.display_name if user is not None else f"player …{str(user_id)[-4:]}"


def _title(game: str | None) -> str:
    if game is None:
        return TEXT["all_games"]
    return GAMES[game].title if game in GAMES else game


async def leaderboard_message(
    bot: TapisBot,
    interaction: discord.Interaction[TapisBot],
    guild_id: int,
    game: str | None,
    by: str,
    season: int | None = None,
) -> dict[str, Any]:
    """``{"embed", "file"}`` of the board ``by`` rating or wins; ``ValueError`` (for the user) if unusable."""
    from bot.render.leaderboard import leaderboard_image
    from bot.store.boards import current_season, rating_board, wins_board

    if by == "rating":
        if game is None:
            raise ValueError(TEXT["need_game"])
        season = season or await current_season(bot.db, guild_id)
        rated = await rating_board(bot.db, guild_id, game, season)
        title = TEXT["rating_title"].format(game=_title(game), season=season)
        lines = [
            TEXT["rating_line"].format(
                rank=i + 1, uid=r.user_id, score=r.score, mu=r.mu, sigma=r.sigma, sessions=r.sessions
            )
            for i, r in enumerate(rated)
        ]
        rows = [
            {
                "rank": i + 1,
                "name": display_name(interaction, r.user_id),
                "value": r.score,
                "shown": f"{r.score:.1f}",
                "games": r.sessions,
            }
            for i, r in enumerate(rated)
        ]
        columns = TEXT["rating_columns"]
    else:
        won = await wins_board(bot.db, guild_id, game)
        title = TEXT["wins_title"].format(game=_title(game))
        lines = [
            TEXT["wins_line"].format(rank=i + 1, uid=uid, wins=w, sessions=n)
            for i, (uid, w, n) in enumerate(won)
        ]
        rows = [
            {"rank": i + 1, "name": display_name(interaction, uid), "value": w, "shown": str(w), "games": n}
            for i, (uid, w, n) in enumerate(won)
        ]
        columns = TEXT["wins_columns"]
    image_title = TEXT["image_title"].format(game=_title(game), by=by)
    png = await asyncio.to_thread(leaderboard_image, rows, image_title, columns)
    embed = discord.Embed(title=title, description="\n".join(lines) or TEXT["nobody"], colour=0xEAB308)
    embed.set_image(url="attachment://leaderboard.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(png), "leaderboard.png", description=title)}


async def favourites(bot: TapisBot, guild_id: int, user_id: int, game: str) -> str | None:
    """The contract or bid the player chose most in their latest sessions of ``game`` (replayed)."""
    from bot.store import tables as store
    from bot.store.boards import recent_tables
    from bot.tables.deals import BIDS, DECLARER, contracts_of

    rules = GAMES.get(game)
    if rules is None or (game not in BIDS and game not in DECLARER):
        return None
    logs = []
    for table_id, seat in await recent_tables(bot.db, guild_id, user_id, game, FAVOURITE_SESSIONS):
        row = await bot.db.run(store.load_table, table_id)
        if row is not None and row.seed is not None:
            logs.append((row, seat, await bot.db.run(store.load_actions, table_id)))

    def count() -> str | None:
        tally: Counter[str] = Counter()
        for row, seat, actions in logs:
            try:
                if row.seed is None:
                    continue  # a session never dealt: nothing to count
                opts = rules.validate_options(row.options)
                tally.update(contracts_of(rules, len(row.seats), opts, row.seed, actions, seat))
            except Exception:
                continue  # a log that does not replay is left out of the count
        return tally.most_common(1)[0][0] if tally else None

    return await asyncio.to_thread(count)


async def profile_message(
    bot: TapisBot, interaction: discord.Interaction[TapisBot], guild_id: int, who: discord.abc.User
) -> dict[str, Any]:
    """``{"embed", "file"?}`` of a profile card (per game: sessions, rate, rating, best, favourite)."""
    from bot.render.profile import profile_image
    from bot.store.boards import profile

    season, games = await profile(bot.db, guild_id, who.id)
    title = TEXT["profile_title"].format(name=safe_name(who.display_name))
    embed = discord.Embed(title=title, colour=0x8B5CF6)
    cards = []
    for g in games:
        g.favourite = await favourites(bot, guild_id, who.id, g.game)
        value = TEXT["profile_field"].format(sessions=g.sessions, wins=g.wins, rate=g.win_rate, net=g.net)
        if g.score is not None:
            trend = f" {g.trend:+.1f}" if g.trend is not None else ""
            value += TEXT["profile_rating"].format(score=g.score, trend=trend, mu=g.mu, sigma=g.sigma)
        if g.best is not None:
            value += TEXT["profile_best"].format(best=g.best, table=g.best_table)
        if g.favourite:
            value += TEXT["profile_fav"].format(fav=g.favourite)
        embed.add_field(name=_title(g.game), value=value[:1024], inline=False)
        cards.append(
            {
                "title": _title(g.game),
                "sessions": g.sessions,
                "wins": g.wins,
                "net": g.net,
                "score": g.score,
                "trend": g.trend,
                "scores": g.scores,
                "best": g.best,
                "best_table": g.best_table,
                "favourite": g.favourite,
            }
        )
    if not games:
        embed.description = TEXT["profile_none"]
        return {"embed": embed}
    png = await asyncio.to_thread(profile_image, who.display_name, season, cards)
    embed.set_image(url="attachment://profile.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(png), "profile.png", description=embed.title)}

"""Leaderboards by rating or wins, and the /stats profile card: an image plus its text alternative."""

from __future__ import annotations

import asyncio
import functools
import io
import weakref
from collections import Counter, OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from bot.bounded import keep_latest, per_owner
from bot.i18n import N_, Translator, english
from bot.i18n.lazy import msg
from bot.rules import GAMES
from bot.views.alt import board_alt, profile_alt
from bot.views.display import safe_name, signed
from bot.views.texts import no_session_yet, nobody_yet

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.store.reviews import GameAccuracy

#: Refusal of ``/leaderboard by:rating`` without a game (a message id, translated by the cog).
NEED_GAME = N_("Choose a game to rank by rating: ratings are per game.")
#: Sessions replayed per game to find a player's favourite contract or bid.
FAVOURITE_SESSIONS = 20
#: Favourites kept (the latest used): ``(guild, user, game)`` -> the sessions counted and the result.
#: Every ``/stats`` replayed up to ``FAVOURITE_SESSIONS`` whole sessions of each game the player had
#: played (their logs read too), at a cost that grows with those sessions' length, as often as any
#: member asked for anyone's card: now a player's favourite is counted again only once they have
#: finished another session.
FAVOURITES_KEEP = 1024  # about 2 kB each (20 sessions)
#: Per bot (each its own database): ``per_owner``.
_favourites: weakref.WeakKeyDictionary[
    object, OrderedDict[tuple[int, int, str], tuple[tuple[tuple[int, int], ...], str | None]]] = (
    weakref.WeakKeyDictionary())


def display_name(interaction: discord.Interaction[TapisBot], user_id: int, tr: Translator) -> str:
    """A member's display name from the cache, else the user's name, else a neutral label."""
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    if member is not None:
        return member.display_name
    user = interaction.client.get_user(user_id)
    return user.display_name if user is not None else tr._("player …{digits}", digits=str(user_id)[-4:])


def _title(game: str | None, tr: Translator) -> str:
    if game is None:
        return tr._("all games")
    return tr._(GAMES[game].title) if game in GAMES else game


def rating_line(rank: int, r: Any, tr: Translator) -> str:
    """One line of the rating board: rank, mention, score (μ ± σ), sessions."""
    sessions = tr.n_("{n} session", "{n} sessions", r.sessions)
    return (f"`{rank:>2}.` <@{r.user_id}> — **{tr.decimal(r.score)}** "
            f"(μ {tr.decimal(r.mu)} ± {tr.decimal(r.sigma)}) · {sessions}")


def wins_line(rank: int, user_id: int, wins: int, sessions: int, tr: Translator) -> str:
    """One line of the wins board: rank, mention, sessions won of sessions played."""
    won = tr.n_("**{n}** won of {sessions}", "**{n}** won of {sessions}", wins, sessions=tr.number(sessions))
    return f"`{rank:>2}.` <@{user_id}> — {won}"


async def leaderboard_message(
    bot: TapisBot,
    interaction: discord.Interaction[TapisBot],
    guild_id: int,
    game: str | None,
    by: str,
    season: int | None = None,
    tr: Translator | None = None,
) -> dict[str, Any]:
    """``{"embed", "file"}`` of the board ``by`` rating or wins; ``ValueError`` (for the user) if unusable.

    Public, so in ``tr``'s language: the server's (as ``/leaderboard by:jetons``).
    """
    from bot.render.leaderboard import leaderboard_image
    from bot.store.boards import LevelRating, ai_ratings, current_season, rating_board, wins_board
    from bot.store.ratings import places
    from bot.views.yardsticks import merged, reference_line, reference_row

    tr = tr or english()
    if by == "rating":
        if game is None:
            raise ValueError(NEED_GAME)
        current = await current_season(bot.db, guild_id)
        if season is not None and season > current:
            raise ValueError(msg("There is no season {season} yet: this server is in season {current}.",
                                 season=season, current=current))
        season = season or current
        rated = await rating_board(bot.db, guild_id, game, season)
        title = tr._("Leaderboard — {game} rating · season {season}", game=_title(game, tr), season=season)
        refs = await ai_ratings(bot.db, guild_id, game, season) if rated else []
        rank = {id(r): place for r, place in zip(rated, places([r.score for r in rated]), strict=True)}
        lines, rows = [], []
        for r in merged(rated, refs, lambda p: p.score):  # the AI levels as reference lines (issue 32)
            if isinstance(r, LevelRating):
                lines.append(reference_line(r, tr))
                rows.append(reference_row(r, tr))
                continue
            lines.append(rating_line(rank[id(r)], r, tr))
            rows.append({
                "rank": rank[id(r)],
                "name": display_name(interaction, r.user_id, tr),
                "value": r.score,
                "shown": tr.decimal(r.score),
                "games": r.sessions,
            })
        columns = tr._("rating · sessions")
        by_word = tr.p_("leaderboard by", "rating")
    else:
        won = await wins_board(bot.db, guild_id, game)
        title = tr._("Leaderboard — {game} wins", game=_title(game, tr))
        ranks = places([(w, -n) for _, w, n in won])  # the same wins in as many sessions: one place
        lines = [wins_line(rank, uid, w, n, tr) for rank, (uid, w, n) in zip(ranks, won, strict=True)]
        rows = [
            {"rank": rank, "name": display_name(interaction, uid, tr), "value": w, "shown": tr.number(w),
             "games": n}
            for rank, (uid, w, n) in zip(ranks, won, strict=True)
        ]
        columns = tr._("wins · sessions")
        by_word = tr.p_("leaderboard by", "wins")
    image_title = f"{_title(game, tr)} · {by_word}"
    png = await asyncio.to_thread(functools.partial(leaderboard_image, rows, image_title, columns, tr=tr))
    embed = discord.Embed(title=title, description="\n".join(lines) or nobody_yet(tr), colour=0xEAB308)
    embed.set_image(url="attachment://leaderboard.png")
    return {"embed": embed, "file": discord.File(io.BytesIO(png), "leaderboard.png",
                                                 description=board_alt(title, rows, tr))}


async def favourites(bot: TapisBot, guild_id: int, user_id: int, game: str) -> str | None:
    """The contract or bid the player chose most in their latest sessions of ``game`` (replayed)."""
    from bot.store import tables as store
    from bot.store.boards import recent_tables
    from bot.tables.deals import contracts_of
    from bot.tables.replay import SessionLog

    rules = GAMES.get(game)
    if rules is None or (not rules.bids and rules.declarer is None):
        return None
    recent = tuple(await recent_tables(bot.db, guild_id, user_id, game, FAVOURITE_SESSIONS))
    key = (guild_id, user_id, game)
    kept = per_owner(_favourites, bot)
    known = kept.get(key)
    if known is not None and known[0] == recent:
        kept.move_to_end(key)
        return known[1]
    logs = []
    for table_id, seat in recent:
        row = await bot.db.run(store.load_table, table_id)
        if row is not None and row.seed is not None:
            logs.append((row, seat, await bot.db.run(store.load_actions, table_id)))

    def count() -> str | None:
        tally: Counter[str] = Counter()
        for row, seat, actions in logs:
            try:
                tally.update(contracts_of(SessionLog.of(rules, row, actions), seat))
            except Exception:
                continue  # a log that does not replay is left out of the count
        return tally.most_common(1)[0][0] if tally else None

    found = await asyncio.to_thread(count)
    keep_latest(kept, key, (recent, found), FAVOURITES_KEEP)
    return found


def favourite_name(game: str, favourite: str, tr: Translator) -> str:
    """A favourite contract or bid (``contracts_of``'s text) in the reader's language."""
    from bot.views.history import contract_name

    rules = GAMES.get(game)
    kind = favourite.replace(" ", "_")
    if rules is not None and kind in rules.bids:
        return rules.vocabulary.move_kind(kind, tr)
    return contract_name(game, favourite, tr) or favourite


def profile_field(g: Any, tr: Translator) -> str:
    """A game's block of the ``/stats`` embed: sessions, wins, rate, net; rating, best, favourite."""
    rate = g.wins / g.sessions if g.sessions else 0.0
    value = " · ".join((
        tr.n_("{n} session played", "{n} sessions played", g.sessions),
        tr.n_("{n} won ({rate})", "{n} won ({rate})", g.wins, rate=tr.percent(rate)),
        tr.n_("{signed} jeton", "{signed} jetons", abs(g.net), signed=signed(g.net, tr)),
    ))
    if g.score is not None:
        trend = f" {tr.signed_decimal(g.trend)}" if g.trend is not None else ""
        value += "\n" + tr._("rating {score}{trend} (μ {mu} ± {sigma})", score=tr.decimal(g.score),
                             trend=trend, mu=tr.decimal(g.mu), sigma=tr.decimal(g.sigma))
    if g.best is not None:
        value += "\n" + tr._("best {best} (table #{table})", best=signed(g.best, tr), table=g.best_table)
    if g.favourite:
        value += "\n" + tr._("favourite: {favourite}", favourite=favourite_name(g.game, g.favourite, tr))
    return value


def accuracy_line(game: str, mine: GameAccuracy | None, tr: Translator) -> str:
    """``/review``'s accuracy for a game's block: the member's mean over their reviewed sessions
    and, beside it, the AI levels' (``bot.review.levels``); empty before any review."""
    from bot.review.levels import level_accuracy
    from bot.views.yardsticks import level_word

    if mine is None:
        return ""
    text = tr.n_("accuracy {accuracy} over {n} reviewed session",
                 "accuracy {accuracy} over {n} reviewed sessions", mine.sessions,
                 accuracy=tr.percent(mine.accuracy / 100.0))
    levels = level_accuracy(game)
    if levels:
        text += " " + tr._("(AI levels: {levels})", levels=", ".join(
            f"{level_word(level, tr)} {tr.percent(value / 100.0)}" for level, value in levels))
    return "\n" + text


async def profile_message(
    bot: TapisBot, interaction: discord.Interaction[TapisBot], guild_id: int, who: discord.abc.User,
    tr: Translator | None = None,
) -> dict[str, Any]:
    """``{"embed", "file"?}`` of a profile card (per game: sessions, rate, rating, best, favourite).

    Only for the asker (ephemeral), so in ``tr``'s language: theirs.
    """
    from bot.render.profile import profile_image
    from bot.store.boards import ai_ratings, profile
    from bot.views.yardsticks import standing

    tr = tr or english()
    from bot.store.reviews import user_accuracy

    season, games = await profile(bot.db, guild_id, who.id)
    accuracy = await user_accuracy(bot.db, guild_id, who.id)
    title = tr._("Statistics — {name}", name=safe_name(who.display_name))
    embed = discord.Embed(title=title, colour=0x8B5CF6)
    cards = []
    other = None if who.id == interaction.user.id else safe_name(who.display_name)  # "Ann rates…", not "You"
    for g in games:
        g.favourite = await favourites(bot, guild_id, who.id, g.game)
        value = profile_field(g, tr)
        if g.score is not None:  # against the AI levels (issue 32)
            line = standing(g.score, await ai_ratings(bot.db, guild_id, g.game, season), tr, other)
            value += f"\n{line}" if line else ""
        value += accuracy_line(g.game, accuracy.get(g.game), tr)  # /review (issue 31)
        embed.add_field(name=_title(g.game, tr), value=value[:1024], inline=False)
        cards.append(
            {
                "title": _title(g.game, tr),
                "sessions": g.sessions,
                "wins": g.wins,
                "net": g.net,
                "score": g.score,
                "trend": g.trend,
                "scores": g.scores,
                "best": g.best,
                "best_table": g.best_table,
                "favourite": favourite_name(g.game, g.favourite, tr) if g.favourite else None,
            }
        )
    if not games:
        embed.description = no_session_yet(tr, who.id == interaction.user.id)
        return {"embed": embed}
    png = await asyncio.to_thread(functools.partial(profile_image, who.display_name, season, cards, tr=tr))
    embed.set_image(url="attachment://profile.png")
    plain = tr._("Statistics — {name}", name=who.display_name)  # alt text is not Markdown: no escapes
    alt = profile_alt(plain, [(_title(g.game, tr), profile_field(g, tr)) for g in games], tr)
    return {"embed": embed, "file": discord.File(io.BytesIO(png), "profile.png", description=alt)}

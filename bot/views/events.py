"""A member's tournaments as an embed field, for ``/history`` and ``/stats`` (issue 33)."""

from __future__ import annotations

import discord

from bot.i18n import NP_, Translator
from bot.store.base import Store
from bot.store.tournaments import history
from bot.views.history import game_title

STATUS = {
    "lobby": NP_("tournament status", "registration"),
    "running": NP_("tournament status", "running"),
    "finished": NP_("tournament status", "finished"),
    "cancelled": NP_("tournament status", "cancelled"),
}


async def add_events_field(
    db: Store, embed: discord.Embed, guild_id: int, user_id: int, tr: Translator, limit: int = 5
) -> None:
    """Add the member's last ``limit`` events (status, buy-in, prize) to ``embed``; none, no field."""
    rows = await history(db, guild_id, user_id, limit)
    if not rows:
        return
    lines = []
    for tid, game, status, paid, prize in rows:
        word = tr.p_(*STATUS[status]) if status in STATUS else status
        lines.append(
            tr._(
                "#{id} {game} — {status}: buy-in {paid}, prize {prize}",
                id=tid,
                game=game_title(game, tr),
                status=word,
                paid=tr.number(paid),
                prize=tr.number(prize),
            )
        )
    embed.add_field(name=tr._("Tournaments"), value="\n".join(lines)[:1024], inline=False)

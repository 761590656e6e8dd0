"""After (re)connecting: seated players removed from their server while the bot was not listening
leave their tables.

GUILD_MEMBER_REMOVE (``TapisBot.on_raw_member_remove``) reaches only a connected bot: a member
kicked, banned or gone while the bot was down (a deploy, a crash) or re-identifying kept their seat,
and at a correspondence table the others waited three missed deadlines (six days) for the AI to
take it. So once connected, every human seated at an open table of a server this process serves is
looked up (Discord's Get Guild Member, one request each under the global REST budget at its lowest
priority, so turn prompts and table edits go first), and one Discord calls an "Unknown Member"
leaves every table of that server as a removal would (``TapisBot.member_gone``: a lobby seat
refunded, a seat in play to the AI). Any other answer (a network fault, a 5xx, a 403) leaves the
seat as it is: only a clear "not a member" removes anyone. Runs only with ``member_events`` (the
operator chose that a removal counts), one check at a time.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.outbox.budget import BACKGROUND

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)

#: Discord's JSON error code for "Unknown Member" (the user is not in the server).
UNKNOWN_MEMBER = 10007
NETWORK = (discord.HTTPException, aiohttp.ClientError, TimeoutError)


class MemberCheck:
    """The check after each connection: one at a time (a reconnect during a check skips a second)."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.running = False

    async def seated(self) -> list[tuple[int, int]]:
        """(server, user) of every human seated and present at an open table of a server this
        process is connected to, invited to a seat kept in one of its lobbies or taking part in one of
        its open tournaments, each once, in a stable order."""
        pairs = set()
        for table in await self.bot.tables.open_tables():
            if self.bot.get_guild(table.guild_id) is None:
                continue
            for info in table.seats:
                if info.user_id is not None and info.human and not info.away:
                    pairs.add((table.guild_id, info.user_id))
            if table.status == "lobby":
                pairs.update((table.guild_id, user_id) for user_id in table.plan.invited)
        pairs.update(p for p in self.bot.tournaments.taking_part() if self.bot.get_guild(p[0]) is not None)
        return sorted(pairs)

    async def run(self) -> list[tuple[int, int]]:
        """Look every seated player up; those Discord says are not members leave. Returns the
        (server, user) pairs that left (empty if a check was already running)."""
        if self.running or not self.bot.config.member_events:
            return []
        self.running = True
        try:
            return await self._check(await self.seated())
        finally:
            self.running = False

    async def _check(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        gone = []
        for guild_id, user_id in pairs:
            if self.bot.presenter.closed:
                break
            guild = self.bot.get_guild(guild_id)
            if guild is None:
                continue
            await self.bot.presenter.budget.take(BACKGROUND, guild_id)
            try:
                await guild.fetch_member(user_id)
                continue
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MEMBER:
                    log.warning("member check of %s in guild %s: %s", user_id, guild_id, exc)
                    continue
            except NETWORK as exc:
                log.warning("member check of %s in guild %s failed (seat kept): %s", user_id, guild_id, exc)
                continue
            if await self.bot.member_gone(guild_id, user_id, while_away=True):
                gone.append((guild_id, user_id))
            await asyncio.sleep(0)
        return gone

"""Which tables' channels a member may reach from elsewhere: the scope of /replay and /history.

``/table`` reaches a table by number only from its own channel (server admins anywhere). /replay
and /history work across the server, so they use the same rule widened to what the member can
see anyway. A table's channel is **visible** to the member of an interaction when:

1. the interaction comes from that channel itself (Discord let them use it there), or
2. they are a server admin (Administrator or Manage Server, as for ``/table``), or
3. the channel is in the bot's cache and is not a private thread, and the member's permissions
   in it, as discord.py computes them from the server's roles and the channel's overwrites (a
   thread: its parent channel's), include View Channel.

A channel the bot does not know (deleted, or a thread not in its cache) and a private thread
are visible only through 1 and 2. On top of this, /replay and /history let a member reach a
table at which they sat themselves (they saw it: it was dealt to them), wherever it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.app import TapisBot


def _admin(interaction: discord.Interaction[TapisBot]) -> bool:
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def _sees(member: discord.Member, channel: object) -> bool:
    if isinstance(channel, discord.Thread):
        if channel.is_private():
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    return channel.permissions_for(member).view_channel


def channel_visible(interaction: discord.Interaction[TapisBot], channel_id: int) -> bool:
    """Whether the table channel ``channel_id`` is visible to the interaction's member (see above)."""
    if interaction.channel_id == channel_id or _admin(interaction):
        return True
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    return _sees(member, guild.get_channel_or_thread(channel_id))


def visible_channels(interaction: discord.Interaction[TapisBot]) -> frozenset[int] | None:
    """Every channel id visible to the interaction's member (None: all of them, a server admin)."""
    if _admin(interaction):
        return None
    out = {interaction.channel_id} if interaction.channel_id is not None else set()
    guild, member = interaction.guild, interaction.user
    if guild is not None and isinstance(member, discord.Member):
        for channel in (*guild.channels, *guild.threads):
            if _sees(member, channel):
                out.add(channel.id)
    return frozenset(out)

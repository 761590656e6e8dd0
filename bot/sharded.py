"""The bot class for a shard plan (kept apart from ``bot.sharding``, which the config imports)."""

from __future__ import annotations

from bot.sharding import ShardPlan


def bot_class(plan: ShardPlan | None) -> type:
    """``TapisBot``, or its ``AutoShardedBot`` variant when one process runs several shards."""
    from discord.ext import commands

    from bot.app import TapisBot

    if plan is None or len(plan.ids) == 1:
        return TapisBot
    return type("ShardedTapisBot", (TapisBot, commands.AutoShardedBot), {})

"""``/help``: what Tapis is, how to start a table, the games, and every command (``bot.views.help``).

Ephemeral and in the reader's language; usable anywhere, DMs included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.views.help import CommandText, help_embed
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot


def tree_commands(tree: app_commands.CommandTree[TapisBot]) -> list[CommandText]:
    """Every slash command of ``tree`` a member can run, subcommands by their full name."""
    out: list[CommandText] = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if isinstance(command, app_commands.Group):
            out += [CommandText(c.qualified_name, c.description) for c in command.walk_commands()
                    if isinstance(c, app_commands.Command)]
        elif isinstance(command, app_commands.Command):
            out.append(CommandText(command.qualified_name, command.description))
    return out


class Help(commands.Cog):
    """The ``/help`` command."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Tapis is, how to start a table, and every command")
    async def help(self, interaction: discord.Interaction[TapisBot]) -> None:
        tr = await reader(self.bot, interaction)
        embed = help_embed(tree_commands(self.bot.tree), tr, str(interaction.locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Help(bot))

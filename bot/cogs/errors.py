"""One error handler for every slash command: user errors become short ephemeral messages.

Anything unexpected is logged with its traceback and the user gets a generic apology.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

log = logging.getLogger(__name__)


class UserError(app_commands.AppCommandError):
    """A refusal whose message is meant for the user."""


def user_message(error: BaseException) -> str | None:
    """The player-readable text of a user error, or None if ``error`` is a bug."""
    from bot.store.ledger import DailyNotReady, InsufficientFunds
    from bot.tables.errors import TableError

    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, (UserError, TableError, InsufficientFunds, DailyNotReady)):
        return str(error)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    if isinstance(error, app_commands.TransformerError):
        return f"Invalid value {error.value!r}."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    return None


class TapisTree(app_commands.CommandTree):
    """The command tree with Tapis's single ``on_error``."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        text = user_message(error)
        if text is None:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed", command, exc_info=error)
            text = "Something went wrong; nothing was changed. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(f"⚠️ {text}", ephemeral=True)
            else:
                await interaction.response.send_message(f"⚠️ {text}", ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about an error", exc_info=True)

"""One error handler for every slash command: user errors become short ephemeral messages.

Anything unexpected is logged with its traceback and the user gets a generic apology.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.views.respond import answer_lost, send
from bot.views.texts import GENERIC_ERROR, echo

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
        return f"Invalid value {echo(str(error.value))}."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    return None


class TapisTree(app_commands.CommandTree):
    """The command tree with Tapis's single ``on_error``."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        if answer_lost(error):
            log.warning("the answer to /%s was lost (the interaction expired): %s", command,
                        getattr(error, "original", error))
            return
        text = user_message(error)
        if text is None:
            log.error("command /%s failed", command, exc_info=error)
            text = GENERIC_ERROR
        try:
            await send(interaction, f"⚠️ {text}", ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about an error", exc_info=True)

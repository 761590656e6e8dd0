"""One error handler for every slash command: user errors become short ephemeral messages.

Anything unexpected is logged with its traceback and the user gets a generic apology.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import Msg, Translator, english
from bot.outbox.respond import answer_lost, send
from bot.views.display import refusal_text
from bot.views.locale import reader
from bot.views.texts import GENERIC_ERROR, echo

INTEGER = discord.AppCommandOptionType.integer.value

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)


class UserError(app_commands.AppCommandError):
    """A refusal whose message is meant for the user: a ``Msg`` (rendered in the reader's language)."""

    def __init__(self, message: Msg | str) -> None:
        super().__init__(str(message))
        self.message = message


def user_message(error: BaseException, tr: Translator | None = None) -> str | None:
    """The player-readable text of a user error in ``tr``'s language, or None if ``error`` is a bug."""
    from bot.store.ledger import DailyNotReady, InsufficientFunds
    from bot.tables.errors import TableError

    tr = tr or english()
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.message.render(tr) if isinstance(error.message, Msg) else tr._(error.message)
    if isinstance(error, (TableError, InsufficientFunds, DailyNotReady)):
        return refusal_text(error, tr)  # numbers, plural forms and names in the reader's language
    if isinstance(error, app_commands.CheckFailure):
        return tr._(str(error)) if str(error) else tr._("You cannot use this command here.")
    if isinstance(error, app_commands.TransformerError):
        return tr._("Invalid value {value}.", value=echo(str(error.value)))
    if isinstance(error, app_commands.CommandOnCooldown):
        return tr._("Slow down: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}")
    return None


def whole_numbers(options: list[dict[str, Any]]) -> None:
    """Integer options sent as JSON floats back to ints, in place (subcommands' options too).

    discord.py parses payloads with orjson when it is installed, and orjson reads an integer beyond
    64 bits as a float: a forged ``buy_in`` of 10^20 must reach the command as the too-large int it
    is (refused as "at most …"), not as a float that no int check expects.
    """
    for option in options:
        value = option.get("value")
        if option.get("type") == INTEGER and isinstance(value, float) and value.is_integer():
            option["value"] = int(value)
        whole_numbers(option.get("options") or [])


class TapisTree(app_commands.CommandTree["TapisBot"]):
    """The command tree with Tapis's single ``on_error``; integer options always reach commands as ints."""

    async def interaction_check(self, interaction: discord.Interaction[TapisBot]) -> bool:
        """Runs before discord.py reads the options (commands and autocomplete alike)."""
        data: Any = interaction.data
        if isinstance(data, dict):
            whole_numbers(data.get("options") or [])
        return True

    async def on_error(self, interaction: discord.Interaction[TapisBot],
                       error: app_commands.AppCommandError) -> None:
        command = interaction.command.qualified_name if interaction.command else "?"
        if answer_lost(error):
            log.warning("the answer to /%s was lost (the interaction expired): %s", command,
                        getattr(error, "original", error))
            return
        try:
            tr = await reader(interaction.client, interaction)
        except Exception:  # the language store must never hide the refusal itself
            tr = english()
        text = user_message(error, tr)
        if text is None:
            log.error("command /%s failed", command, exc_info=error)
            text = GENERIC_ERROR.render(tr)
        try:
            await send(interaction, f"⚠️ {text}", ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the user about an error", exc_info=True)

"""/rules game: a summary of the game and its table options."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import GAME_CHOICES, game_or_error
from bot.i18n import Translator, english
from bot.rules.base import Game
from bot.views.display import chunks, clip, seat_bounds
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot


def option_lines(game: Game, tr: Translator | None = None) -> list[str]:
    """One line per host option: name, default, range and help (in the reader's language)."""
    tr = tr or english()
    out = []
    defaults: dict[str, Any] = {}
    for spec in game.options:
        default = spec.resolve_default(defaults)
        defaults[spec.name] = default
        if spec.hidden:
            continue
        bounds = ""
        if spec.choices:
            bounds = " (" + "/".join(map(str, spec.choices)) + ")"
        elif spec.kind == "int":
            lo = spec.minimum if not callable(spec.minimum) else None
            if lo is not None or spec.maximum is not None:
                hi = spec.maximum
                bounds = f" ({lo if lo is not None else '…'}–{hi if hi is not None else '…'})"
        if default is None:  # an unset option ("empty" in its help): nothing to write after "="
            shown = spec.name
        elif isinstance(default, bool):
            shown = f"{spec.name}={'on' if default else 'off'}"  # as the options are written
        else:
            shown = f"{spec.name}={default}"
        out.append(f"`{shown}`{bounds} — {tr._(spec.help)}")
    return out


def seat_range(game: Game) -> str:
    """"3–6", or "4" where the number of players is fixed."""
    low, high = seat_bounds(game)
    return str(low) if low == high else f"{low}–{high}"


def rules_embed(game: Game, tr: Translator | None = None) -> discord.Embed:
    """The /rules answer: the game's summary and its options, in the reader's language."""
    tr = tr or english()
    summary = tr._(game.summary) if game.summary else ""
    title = tr._("{game} — rules", game=tr._(game.title))
    embed = discord.Embed(title=title, description=clip(summary, 4096), colour=0x0EA5E9)
    embed.add_field(name=tr._("Players"), value=seat_range(game), inline=True)
    for i, text in enumerate(chunks(option_lines(game, tr))):
        embed.add_field(name=tr._("Options") if i == 0 else tr._("Options (cont.)"), value=text, inline=False)
    embed.set_footer(text=tr._('Set options with /table new game:… options:"key=value key=value"'))
    return embed


class Rules(commands.Cog):
    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played, and its table options")
    @app_commands.describe(game="The game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction[TapisBot], game: str) -> None:
        tr = await reader(self.bot, interaction)
        await interaction.response.send_message(embed=rules_embed(game_or_error(game), tr), ephemeral=True)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Rules(bot))

"""The ``/help`` answer: what Tapis is, how a table starts, the games, and every command.

The commands come from the bot's own command tree (``bot.cogs.help``), so a new command is listed
the day it lands: each under its section, or under "More" if no section names it. Their names are
shown as the reader's Discord client shows them (the catalogue's ``slash name`` localisations of
the client's locale), their descriptions in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import discord

from bot.i18n import N_, Translator
from bot.i18n.slash import translate_command_text
from bot.rules import GAMES
from bot.views.display import chunks, clip, game_title, players_text

#: Sections of the command list, by top-level command name, in the order shown.
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Play"), ("table", "hand")),
    (N_("Learn"), ("rules", "hint", "review", "replay", "history")),
    (N_("Jetons and the club"), ("balance", "daily", "leaderboard", "stats", "tournament")),
    (N_("Yours"), ("language", "cards", "preferences", "help")),
    (N_("Server managers"), ("settings", "admin")),
)
MORE = N_("More")


@dataclass(frozen=True)
class CommandText:
    """One slash command as the tree holds it: its full name (``"table new"``) and description."""

    name: str
    description: str


def shown_name(name: str, locale: str) -> str:
    """``/name`` as a Discord client of ``locale`` shows it (each word localised where it is)."""
    return "/" + " ".join(translate_command_text(part, locale, True) or part for part in name.split())


def section_of(name: str) -> str:
    """The section (its English title) a command's top-level name belongs to."""
    top = name.split()[0]
    return next((title for title, names in SECTIONS if top in names), MORE)


def help_embed(commands: Iterable[CommandText], tr: Translator, locale: str) -> discord.Embed:
    """The ``/help`` embed for a reader (``tr``) whose client speaks ``locale``."""
    commands = list(commands)
    new, rules = shown_name("table new", locale), shown_name("rules", locale)
    embed = discord.Embed(title=tr._("Tapis — help"), colour=0x0EA5E9)
    embed.description = clip(tr._(
        "Tapis plays five traditional card games for jetons. Open a table with `{new}`; the others "
        "press **{join}** and the host presses **{start}** (the AI can fill empty seats). Your cards "
        "come by direct message; if your DMs are closed, use the table's **{my_hand}** button. "
        "`{rules}` explains a game and its table options.", new=new, rules=rules, join=tr._("Join"),
        start=tr._("Start"), my_hand=tr._("My hand")) + "\n\n" + tr._(
        "You get jetons in each server: `{balance}` shows yours, `{daily}` adds more each day. Server "
        "managers: `{show}` lists this server's settings (where tables may open, their language, the "
        "grants…) and `{set}` changes one.", balance=shown_name("balance", locale),
        daily=shown_name("daily", locale), show=shown_name("settings show", locale),
        set=shown_name("settings set", locale)), 4096)
    games = [tr._("**{game}**: {players}", game=game_title(name, tr), players=players_text(game, tr))
             for name, game in GAMES.items()]
    embed.add_field(name=tr._("Games"), value=clip("\n".join(games), 1024), inline=False)
    for title in [t for t, _ in SECTIONS] + [MORE]:
        lines = [f"`{shown_name(c.name, locale)}` — {tr._(c.description)}"
                 for c in _ordered(commands, title)]
        for i, text in enumerate(chunks(lines)):
            embed.add_field(name=tr._(title) if i == 0 else tr._("{section} (cont.)", section=tr._(title)),
                            value=text, inline=False)
    return embed


def _ordered(commands: Sequence[CommandText], title: str) -> list[CommandText]:
    """The commands of one section, in the section's order of top-level names, then as the tree
    lists them."""
    names = next((names for t, names in SECTIONS if t == title), ())
    mine = [c for c in commands if section_of(c.name) == title]
    rank = {top: i for i, top in enumerate(names)}
    return sorted(mine, key=lambda c: rank.get(c.name.split()[0], len(rank)))

"""Slash commands in Tapis's texts: a placeholder rendered as a mention once the ids are known, and the
catalogue guard: no message id names a command as plain text, except where markup does not render."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Iterator
from typing import Any

from bot.i18n import commands, msg, translator
from bot.i18n.catalog import read_template
from bot.i18n.tools import _command_tree, fields
from bot.tables.errors import short_of_jetons, stale

#: The texts that keep a plain ``/name``, each shown where Discord renders no mention.
PLAIN = {
    # embed footers
    "Change one with /settings set, undo with /settings reset; each answer says when the change applies.":
        "the /settings show footer",
    "How to play: /rules": "the hand DM's footer",
    'Set options with /table new game:… options:"key=value key=value"': "the /rules footer",
    # slash-command option descriptions
    "More options as key=value key=value (see /rules)": "/table new options:",
    "The tables' options as key=value (see /rules)": "/tournament create options:",
    # option help: autocomplete choice names (and the /rules option lines, beside the other options)
    "Let players ask /hint for the strong AI's advice on their turn (the session is then not rated).":
        "the hints option's help",
    # a setting's help: the autocomplete choice names of /settings set and reset
    "Whether a host may allow hints (/hint) at a table.": "setting hints",
    "Whether anyone who can see a finished table may /review it (else its players only).":
        "setting public_reviews",
    "Jetons granted by /daily.": "setting daily_grant",
    "Hours between two /daily.": "setting daily_cooldown_hours",
}


@functools.cache
def command_names() -> frozenset[str]:
    """Every full command name of the bot's tree, groups too ("table", "table new", "daily")."""
    from discord import app_commands

    def walk(node: Any, path: str) -> Iterator[str]:
        yield path + node.name
        for child in node.commands if isinstance(node, app_commands.Group) else ():
            yield from walk(child, f"{path}{node.name} ")

    return frozenset(name for node in asyncio.run(_command_tree()) for name in walk(node, ""))


def names_a_command(text: str) -> bool:
    tops = sorted({name.split()[0] for name in command_names()}, key=len, reverse=True)
    alternatives = "|".join(map(re.escape, tops))
    return re.search(rf"(?<![\w/:.])/({alternatives})\b", text) is not None


def test_the_plain_form_until_the_ids_are_known_then_the_mention() -> None:
    assert str(commands.command("table new")) == "`/table new`"
    commands.learn({"table new": 11, "daily": 22})
    assert str(commands.command("table new")) == "</table new:11>"
    assert f"{commands.command('daily')}" == "</daily:22>"
    assert str(commands.command("table")) == "`/table`"  # a group: Discord mentions its subcommands only
    commands.forget()
    assert str(commands.command("daily")) == "`/daily`"


def test_a_refusal_built_before_the_sync_mentions_the_command_when_shown() -> None:
    """``Msg`` parameters are lazy: the refusal of a click raised before the ids came renders after."""
    refusal, gone = short_of_jetons(3, 100), msg("run {history} again", history=commands.command("history"))
    commands.learn({"daily": 22, "history": 33, "hand": 44})
    fr = translator("fr")
    assert refusal.render(fr) == ("Pas assez de jetons : vous avez 3 jetons, la mise est de 100. </daily:22> "
                                  "en ajoute chaque jour.")
    assert gone.render(fr) == "run </history:33> again"
    assert stale().render(translator("cs")).endswith("Použijte poslední zprávu nebo </hand:44>.")


def test_every_message_naming_a_command_uses_a_placeholder() -> None:
    """The guard: a new text naming ``/daily`` literally fails here. Give it ``{daily}``
    (``bot.i18n.commands.command``), or, shown where mentions do not render, add it to ``PLAIN``."""
    ids = [m.id if isinstance(m.id, str) else m.id[0] for m in read_template() if m.id]
    literal = {i for i in ids if names_a_command(i)}
    assert literal - PLAIN.keys() == set(), "texts naming a command as plain text"
    assert PLAIN.keys() - set(ids) == set(), "PLAIN lists texts no longer in the catalogue"


def test_the_command_placeholders_name_real_commands() -> None:
    """``{table_new}`` is ``/table new``: a placeholder spelt after a command must name one of the tree."""
    known = {commands.placeholder(name) for name in command_names()}
    used = {f for m in read_template() if m.id
            for f in fields(m.id if isinstance(m.id, str) else m.id[0])}
    assert {"table_new", "table_status", "table_join", "daily", "history", "stats", "hand", "admin",
            "leaderboard", "settings_set", "tournament_create", "tournament_join",
            "tournament_start"} <= used & known

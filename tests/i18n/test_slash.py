"""Slash-command localisations Discord would accept: names valid and unique per level, texts ≤ 100."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from discord import app_commands

from bot.i18n import DISCORD_LOCALES
from bot.i18n.slash import translate_command_text
from bot.i18n.tools import _command_tree

NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = [code for lang, codes in DISCORD_LOCALES.items() if lang != "en" for code in codes]


def _nodes() -> list[Any]:
    return asyncio.run(_command_tree())


def _check(siblings: list[Any], locale: str, problems: list[str], path: str = "/") -> None:
    names: dict[str, str] = {}
    for node in siblings:
        name = translate_command_text(node.name, locale, True) or node.name
        if not NAME.match(name) or name != name.lower():
            problems.append(f"{locale} {path}{node.name}: bad name {name!r}")
        if name in names:
            problems.append(f"{locale} {path}: {node.name} and {names[name]} are both {name!r}")
        names[name] = node.name
        text = translate_command_text(str(node.description), locale, False) or str(node.description)
        if len(text) > 100:
            problems.append(f"{locale} {path}{node.name}: description of {len(text)} characters")
        if isinstance(node, app_commands.Group):
            _check(list(node.commands), locale, problems, f"{path}{node.name} ")
        else:
            _check_params(node, locale, problems, f"{path}{node.name} ")


def _check_params(command: Any, locale: str, problems: list[str], path: str) -> None:
    seen: dict[str, str] = {}
    for param in command.parameters:
        name = translate_command_text(param.name, locale, True) or param.name
        if not NAME.match(name) or name != name.lower() or name in seen:
            problems.append(f"{locale} {path}{param.name}: bad or repeated name {name!r}")
        seen[name] = param.name
        for text in [str(param.description), *(str(c.name) for c in param.choices)]:
            shown = translate_command_text(text, locale, False) or text
            if len(shown) > 100:
                problems.append(f"{locale} {path}{param.name}: {shown!r} is over 100 characters")


@pytest.mark.parametrize("locale", LOCALES)
def test_localised_commands_are_valid_for_discord(locale: str) -> None:
    problems: list[str] = []
    _check(_nodes(), locale, problems)
    assert problems == []


def test_the_commands_are_really_localised() -> None:
    assert translate_command_text("rules", "cs", True) == "pravidla"
    assert translate_command_text("table", "es-419", True) == "mesa"
    assert translate_command_text("table", "fr", True) is None  # the same word: Discord shows the name
    assert translate_command_text("rules", "de", True) is None  # no German catalogue
    assert translate_command_text("The game", "fr", False) == "Le jeu"

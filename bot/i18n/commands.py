"""Slash commands named in Tapis's texts: a clickable mention once their ids are known.

Discord renders ``</table new:123>`` as the command ``/table new``: one click puts it in the
reader's message box. The ids come from the bot's command sync (``TapisBot._sync`` calls
``learn``); until then — and for a name Discord cannot mention, such as a group without its
subcommand — a text shows the plain `` `/table new` ``. A message id names a command by a
placeholder (``{table_new}``: the name with ``_`` for spaces) given a ``Command``, rendered
when the text is (``Msg`` parameters are lazy, so a refusal built before the sync still gets the
mention). Where markup does not render (embed titles, footers, field names, labels, images and
their descriptions, slash-command help) texts keep the plain ``/name``:
``tests/i18n/test_command_mentions.py`` lists those.

One process serves one application, so the ids are the process's (as discord.py's own state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Full command name ("table new", "daily") -> the id of its top-level command.
_ids: dict[str, int] = {}


def learn(ids: Mapping[str, int]) -> None:
    """Replace the known ids with ``ids`` (every mentionable full name of the synced tree)."""
    _ids.clear()
    _ids.update(ids)


def forget() -> None:
    """Know no id any more: every text shows the plain form (tests, a bot that did not sync)."""
    _ids.clear()


def known() -> dict[str, int]:
    """A copy of the known ids."""
    return dict(_ids)


def plain(name: str) -> str:
    """The command as text: `` `/table new` ``."""
    return f"`/{name}`"


def mention(name: str) -> str:
    """``</table new:123>`` when the command's id is known, else ``plain(name)``."""
    found = _ids.get(name)
    return f"</{name}:{found}>" if found is not None else plain(name)


@dataclass(frozen=True)
class Command:
    """A slash command in a text (``msg(..., daily=Command("daily"))``), rendered when shown."""

    name: str

    def render(self, tr: Any = None) -> str:
        """The mention or the plain form (the same in every language: command names are not)."""
        return mention(self.name)

    def __str__(self) -> str:
        return mention(self.name)

    def __format__(self, spec: str) -> str:
        return format(mention(self.name), spec)


def command(name: str) -> Command:
    """The command ``name`` ("table new") for a text's placeholder (``{table_new}``)."""
    return Command(name)


def placeholder(name: str) -> str:
    """The placeholder a message id names ``name`` by: ``table_new``."""
    return name.replace(" ", "_")

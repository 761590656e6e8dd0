"""The one error a player may see from a table, and the wording of its refusals.

The table service writes for every caller, so a refusal is kept as data until a reader's
language is known: a fixed sentence of the catalogue, a ``Msg`` (a message id with numbers,
plural forms, names) or the rules core's ``IllegalMove`` (:class:`Refusal`). ``str(exc)`` is
the English sentence; ``exc.render(tr)`` the reader's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n.lazy import Msg
from bot.rules.base import Action, IllegalMove, Text

STALE = "Those buttons are out of date: the table has moved on. Use the latest message or /hand."


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Refusal:
    """The rules' refusal of a move at a table: the seats by their players' names, the refused
    move by its button text, the whole as a sentence (capital first, final stop)."""

    error: IllegalMove
    names: tuple[str, ...] = ()
    label: Callable[[Action, Text], str] | None = None

    def render(self, tr: Text, literal: Callable[[str], str] = _same) -> str:
        def name(seat: int) -> str:
            return literal(self.names[seat]) if 0 <= seat < len(self.names) else tr._("seat {n}", n=seat)

        return sentence(self.error.text(tr, name, self.label), tr)

    def __str__(self) -> str:
        return sentence(self.error.reason)


class TableError(Exception):
    """A refused table operation, shown to the player ephemerally.

    ``message`` is a fixed English sentence (translated when the catalogue has it: see
    ``bot.views.vocab.TABLE_REFUSALS``), a ``Msg`` or a :class:`Refusal`.
    """

    def __init__(self, message: str | Msg | Refusal) -> None:
        super().__init__(str(message))
        self.message = message

    def render(self, tr: Text, literal: Callable[[str], str] = _same) -> str:
        """The refusal in ``tr``'s language; ``literal`` escapes player names for the medium."""
        message = self.message
        if isinstance(message, Refusal):
            return message.render(tr, literal)
        if isinstance(message, Msg):
            return message.render(tr)
        return tr._(message)


def illegal(error: IllegalMove, names: list[str] | tuple[str, ...],
            label: Callable[..., Any] | None) -> TableError:
    """The ``TableError`` for a move the rules refused at a table with these seat ``names``."""
    return TableError(Refusal(error, tuple(names), label))


def option_error(error: ValueError) -> TableError:
    """The ``TableError`` for refused options: translated when the rules core gave its message id."""
    msgid = getattr(error, "msgid", None)
    if isinstance(msgid, str):
        return TableError(Msg(msgid, dict(getattr(error, "params", {}))))
    return TableError(sentence(str(error)))


def sentence(text: str, tr: Text | None = None) -> str:
    """A rules or options message as a player-facing sentence (capital first, final stop)."""
    text = text.strip()
    if not text:
        return tr._("That move is not allowed.") if tr is not None else "That move is not allowed."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."

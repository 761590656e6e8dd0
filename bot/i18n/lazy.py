"""Marking text for extraction where it is defined, translating it later where it is shown.

``N_("Join")`` and ``NP_("rank", "Queen")`` only mark a literal for the extractor and return it
(``NP_`` returns its context too); ``Msg`` is a message id with its parameters, kept as data
until a reader's ``Translator`` renders it (errors raised far from the interaction, option
help, anything built before the reader's language is known).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.rules.base import PLAIN, Text


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for extraction; translate it later with ``tr._(msgid)``."""
    return msgid


def NP_(context: str, msgid: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` in ``context`` for extraction; translate later with ``tr.p_(*pair)``."""
    return context, msgid


@dataclass(frozen=True)
class Msg:
    """A message id and its parameters, rendered in a reader's language by ``render(tr)``.

    Parameters that are themselves ``Msg`` are rendered in the same language first, an
    ``Amount`` with the language's digit grouping, a ``Listed`` as its items joined with commas.
    ``plural`` and ``n`` select a plural form (``n`` is passed to the text as ``{n}``).
    """

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    def render(self, tr: Text) -> str:
        params = {k: v.render(tr) if isinstance(v, (Msg, Amount, Listed)) else v
                  for k, v in self.params.items()}
        if self.plural is not None and self.n is not None:
            if self.context is not None:
                return tr.np_(self.context, self.msgid, self.plural, self.n, **params)
            return tr.n_(self.msgid, self.plural, self.n, **params)
        if self.context is not None:
            return tr.p_(self.context, self.msgid, **params)
        return tr._(self.msgid, **params)

    def __str__(self) -> str:
        """The English source text (no catalogue)."""
        return self.render(PLAIN)


@dataclass(frozen=True)
class Amount:
    """A whole number in a ``Msg``, written with the reader's digit grouping (``12 345`` in French)."""

    value: int

    def render(self, tr: Text) -> str:
        return tr.number(self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Listed:
    """Messages in a ``Msg``, each rendered in the reader's language, joined with commas."""

    items: tuple[Msg, ...]

    def render(self, tr: Text) -> str:
        return ", ".join(item.render(tr) for item in self.items)

    def __str__(self) -> str:
        return self.render(PLAIN)


def msg(msgid: str, /, **params: Any) -> Msg:
    """A ``Msg`` (extraction keyword ``msg``)."""
    return Msg(msgid, params)


def nmsg(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A plural ``Msg`` (extraction keyword ``nmsg``)."""
    return Msg(singular, params, plural=plural, n=n)

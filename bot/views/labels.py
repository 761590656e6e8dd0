"""A move's label where it is offered: the game's words for a move in the situation of the seat
(``Game.label_at``, which reads the seat's view: Mus's raise "Raise 2 (to 4)", what it adds and the
total, as the narration says it); a game without one is labelled by ``Game.label`` alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from bot.i18n import Translator
from bot.rules.base import Game

if TYPE_CHECKING:
    from bot.tables import Table

Label = Callable[[dict[str, Any]], str]


def situated(game: Game, view: Mapping[str, Any] | None, tr: Translator) -> Label:
    """The label of each move of a seat whose view is ``view`` (None: unknown, ``Game.label`` alone)."""
    at = game.label_at
    if at is None or view is None:
        return lambda action: game.label(action, tr)
    return lambda action: at(action, view, tr)


def move_label(table: Table, seat: int, tr: Translator) -> Label:
    """The label of each move ``seat`` may make now, in ``tr``'s words (the view is read once)."""
    if table.rules.label_at is None or table.state is None:
        return situated(table.rules, None, tr)
    return situated(table.rules, table.state.view(seat), tr)

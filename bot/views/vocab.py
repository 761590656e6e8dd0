"""Names of the rules' identifiers shown in Discord texts: view fields and kinds of move.

``public_fields`` lists a view's game-specific fields by name and the move selects are named
by the kind of move; both are identifiers of the rules core. Each game names its own in its
``Vocabulary`` (``Game.vocabulary``); this module writes them in the reader's language.
"""

from __future__ import annotations

from bot.i18n import N_, NP_, Translator
from bot.rules import GAMES
from bot.rules.vocabulary import COMMON, Vocabulary

#: Kinds of move of the controls themselves (not of any game): the select of the moves that did
#: not fit as buttons, and the one flat list of every move.
CONTROL_KINDS = {"more": NP_("move kind", "More"), "move": NP_("move kind", "Move")}


def _vocabulary(game: str) -> Vocabulary:
    rules = GAMES.get(game)
    return rules.vocabulary if rules is not None else COMMON


def view_value(value: object, game: str, tr: Translator) -> str | None:
    """A view value that is a word, not a card: yes / no, a mode, a declaration; None otherwise."""
    if isinstance(value, bool):
        return tr._("yes") if value else tr._("no")
    if value is None:
        return "—"
    return _vocabulary(game).view_value(value, tr) if isinstance(value, str) else None


def view_field(key: str, game: str, tr: Translator) -> str:
    """A view field's name ("turn up", "retourne"), in ``game``'s words."""
    return _vocabulary(game).view_field(key, tr)


def move_kind(kind: str, game: str, tr: Translator) -> str:
    """A kind of move, naming a select ("Play", "Jouer"), in ``game``'s words."""
    pair = CONTROL_KINDS.get(kind)
    return tr.p_(*pair) if pair else _vocabulary(game).move_kind(kind, tr)


#: Fixed refusals of the table service (``bot.tables``, which writes English for every caller):
#: listed here so they are in the catalogue; ``tr._(str(error))`` then shows them translated.
#: A sentence changed there falls back to English (never a key) until it is listed again.
TABLE_REFUSALS = (
    N_("This table is closed."),
    N_("You are already seated at this table."),
    N_("This game has already started; wait for the next one."),
    N_("You are already playing at this table."),
    N_("This table is no longer in its lobby."),
    N_("You are not seated at this table."),
    N_("You have already left this table; the AI plays your seat."),
    N_("The buy-in would change with this number of players; set it explicitly."),
    N_("This table is not playing."),
    N_("This game is over."),
    N_("Those buttons are out of date: the table has moved on. Use the latest message or /hand."),
    N_("You left this table and the AI plays your seat: join to take it back."),
    N_("It is not your turn."),
    N_("Only the host or an admin can end this table."),
    N_("This table already closes at the end of the current deal."),
    N_("This table is already closed."),
)

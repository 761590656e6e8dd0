"""The one error a player may see from a table, and the wording of its refusals.

The table service writes for every caller, so a refusal is kept as data until a reader's
language is known: a fixed sentence of the catalogue, a ``Msg`` (a message id with numbers,
plural forms, names) or the rules core's ``IllegalMove`` (:class:`Refusal`). ``str(exc)`` is
the English sentence; ``exc.render(tr)`` the reader's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.rules.base import Action, IllegalMove, Text

if TYPE_CHECKING:
    from bot.i18n.lazy import Msg


def N_(text: str) -> str:
    """Marks a refusal for the catalogue (``python -m bot.i18n extract`` reads ``N_``); returns it.

    Not ``bot.i18n.N_``: this module is imported by the AI's worker processes, which never load Babel.
    """
    return text


# The fixed refusals of the table service, each written once: the service raises ``TableError``
# with one of these, the Discord layer shows ``tr._(it)``; ``STALE`` names ``/hand`` (``{hand}``): it is
# raised and shown as ``stale()``.
STALE = N_("Those buttons are out of date: the table has moved on. Use the latest message or {hand}.")
CLOSED = N_("This table is closed.")
ALREADY_SEATED = N_("You are already seated at this table.")
ALREADY_STARTED = N_("This game has already started: watch it here, or open a table of your own with "
                     "{table_new}.")
ALREADY_PLAYING = N_("You are already playing at this table.")
NOT_IN_LOBBY = N_("This table is no longer in its lobby.")
NOT_SEATED = N_("You are not seated at this table.")
ALREADY_LEFT = N_("You have already left this table; the AI plays your seat.")
BUY_IN_WOULD_CHANGE = N_("The buy-in would change with this number of players; set it explicitly.")
NOT_PLAYING = N_("This table is not playing.")
GAME_OVER = N_("This game is over.")
AWAY = N_("You left this table and the AI plays your seat: join to take it back.")
NOT_YOUR_TURN = N_("It is not your turn.")
HOST_OR_ADMIN = N_("Only the host or an admin can end this table.")
NO_HOST_ADMIN = N_("This table belongs to a tournament: only a server admin can end it.")
ALREADY_CLOSING = N_("This table already closes at the end of the current deal.")
ALREADY_CLOSED = N_("This table is already closed.")


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

    ``message`` is one of this module's fixed sentences (``CLOSED``…, in the catalogue), a ``Msg``
    or a :class:`Refusal`.
    """

    def __init__(self, message: str | Msg | Refusal) -> None:
        super().__init__(str(message))
        self.message = message

    def render(self, tr: Text, literal: Callable[[str], str] = _same) -> str:
        """The refusal in ``tr``'s language; ``literal`` escapes player names for the medium."""
        message = self.message
        if isinstance(message, str):
            return tr._(message)
        if isinstance(message, Refusal):
            return message.render(tr, literal)
        return message.render(tr)


def illegal(error: IllegalMove, names: list[str] | tuple[str, ...],
            label: Callable[..., Any] | None) -> TableError:
    """The ``TableError`` for a move the rules refused at a table with these seat ``names``."""
    return TableError(Refusal(error, tuple(names), label))


def option_error(error: ValueError) -> TableError:
    """The ``TableError`` for refused options: translated when the rules core gave its message id."""
    msgid = getattr(error, "msgid", None)
    if isinstance(msgid, str):
        return TableError(_lazy().Msg(msgid, dict(getattr(error, "params", {}))))
    return TableError(sentence(str(error)))


# Refusals with numbers, built when raised. ``bot.i18n`` (Babel) is imported then, not with this
# module: the AI's worker processes import ``bot.tables`` and never show a refusal.


def _lazy() -> Any:
    from bot.i18n import lazy

    return lazy


def _command(name: str) -> Any:
    """``bot.i18n.commands.command(name)``: the command's mention, or its plain form."""
    from bot.i18n.commands import command

    return command(name)


def stale() -> TableError:
    """The buttons were out of date (``STALE``, naming ``/hand``)."""
    return TableError(_lazy().Msg(STALE, {"hand": _command("hand")}))


def already_started() -> TableError:
    """The game has started: a member who did not join may watch it or open a table (``/table new``)."""
    return TableError(_lazy().Msg(ALREADY_STARTED, {"table_new": _command("table new")}))


def closed_to_join() -> TableError:
    """Joining a table that is over or cancelled: where to play instead (``/table new``)."""
    return TableError(_lazy().msg("This table is closed: to play, open a table of your own with {table_new}.",
                                  table_new=_command("table new")))


def no_table(table_id: int) -> TableError:
    """There is no table #12."""
    return TableError(_lazy().msg("There is no table #{id}.", id=table_id))


def unknown_game(game: str, names: str) -> TableError:
    """Unknown game 'poker'. Games: …"""
    return TableError(_lazy().msg("Unknown game {name}. Games: {games}.", name=repr(game), games=names))


def table_full(capacity: int) -> TableError:
    """This table is full (4 seats)."""
    return TableError(_lazy().nmsg("This table is full ({n} seat).", "This table is full ({n} seats).",
                                   capacity))


def short_of_jetons(balance: int, buy_in: int) -> TableError:
    """Not enough jetons for the buy-in: the balance in the reader's plural form, numbers grouped, and
    where more come from (a newcomer's first question)."""
    lazy = _lazy()
    return TableError(lazy.nmsg(
        "Not enough jetons: you have {n} jeton, the buy-in is {buy_in}. {daily} adds more each day.",
        "Not enough jetons: you have {n} jetons, the buy-in is {buy_in}. {daily} adds more each day.",
        balance, buy_in=lazy.Amount(buy_in), daily=_command("daily")))


def needs_players(title: str, minimum: int, seated: int) -> TableError:
    """Motz needs at least 3 players; 2 seated. …"""
    lazy = _lazy()
    return TableError(lazy.nmsg(
        "{game} needs at least {n} player; {seated} seated. Wait for more players or add AI seats.",
        "{game} needs at least {n} players; {seated} seated. Wait for more players or add AI seats.",
        minimum, game=lazy.Msg(title), seated=lazy.Amount(seated)))


def sentence(text: str, tr: Text | None = None) -> str:
    """A rules or options message as a player-facing sentence (capital first, final stop)."""
    text = text.strip()
    if not text:
        return tr._("That move is not allowed.") if tr is not None else "That move is not allowed."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."

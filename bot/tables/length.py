"""Whether a finished session reached its natural or nominal length (issue 26: ratings that reward playing).

A session that ends by its own rules is complete. One that a close ended — the host's or an
admin's ``/table end``, or the automatic close of a session nobody attends any more — is complete
only if its own rules would have ended it at that very point anyway (a close asked during the
last deal). Otherwise it stopped early: it stays in the history, but is not rated and does not
count on the boards (``bot.tables.settle``), as a coached session. Without this a host could
end the session at the first deal they lead and be rated first: with equal skill, 53% of Motz
sessions instead of 25%.

The rule per game, with ``n`` seats (the session's ``session_end`` event says how it ended):

- **Motz**: ``rotations × n`` deals, then clearing deals while the bête is not empty, at most
  ``max_extra_deals`` (default ``n``); or a seat that cannot ante. Closed: complete if, after the
  last deal, ``deals_played ≥ rotations × n`` with an empty pot (nothing left to split), or
  ``deals_played ≥ rotations × n + max_extra_deals``, or a seat could not have anted the next deal.
- **Mus**: ``matches`` matches played to their end. Closed: complete if every match was won (the
  close came in the deal that ended the last match).
- **Marias**: ``3 × rounds`` deals, or a stack below ``stake``. Closed: complete if
  ``deals_played ≥ 3 × rounds`` or a stack is below ``stake``.
- **Michigan**: ``rotations × n`` hands, or a seat that cannot ante the next hand (with
  ``rotations = 0`` the only natural end). The operator's deal cap of an open-ended session
  (``deal_cap``, logged as a system close with reason ``deal_cap``) is its nominal length:
  complete. Closed otherwise: complete if ``rotations > 0`` and ``deals_played ≥ rotations × n``,
  or a seat could not have anted the next hand (the dealer ``8u``, the others ``4u``).
- **Jeu du Maître**: ``tours × n`` manches (its close already gives way to the last manche's
  natural end, reason ``complete``/``all_eliminated``). Closed: never complete.
- A game without a rule (``Game.full_length`` left to its default): complete only when no close
  was logged.

Each game's rule is its ``Game.full_length`` (in the game's own package); this module reads the
log (the first logged close, its actor and reason) and hands the engine's own ``session_end``
event to it, so a rebuild from the logs decides exactly as the live end did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.rules.base import Game
from bot.tables.replay import CLOSE

#: The ``reason`` of the system close the deal cap logs (``bot.tables.autoplay``).
DEAL_CAP = "deal_cap"
#: The ``reason`` of the system close logged when nobody attends the session any more.
UNATTENDED = "unattended"
#: The ``reason`` of the system close logged when Tapis can no longer reach the table's channel
#: (deleted, access or a permission taken away, the bot removed from the server).
LOST_CHANNEL = "lost_channel"

Facts = Mapping[str, Any]


def close_reason(actor: str, action: Mapping[str, Any]) -> str:
    """What a logged close says of who ended the session: ``host``, ``admin``, or a system reason."""
    if actor == "system":
        return str(action.get("reason") or "system")
    return actor


def first_close(rows: Iterable[tuple[int | None, str, Mapping[str, Any]]]) -> str | None:
    """The ``close_reason`` of the first close among ``(seat, actor, action)`` log rows, or None."""
    for seat, actor, action in rows:
        if seat is None and action.get("type") == CLOSE:
            return close_reason(actor, action)
    return None


def session_end(events: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The ``session_end`` event among ``events`` (the move that ended the session), or None."""
    for event in events:
        if event.get("type") == "session_end":
            return dict(event)
    return None


def reached_length(game: Game, options: Facts, seats: int, close: str | None, end: Facts | None,
                   view: Facts | None = None) -> bool:
    """Whether a finished session counts (see the module docstring; the rule per game is its
    ``Game.full_length``).

    ``close`` is the first logged close (``first_close``), ``end`` the engine's ``session_end``
    event and ``view`` the final spectator view.
    """
    if close is None:
        return True  # ended by its own rules
    if close == DEAL_CAP:
        return True  # the open-ended session's nominal length
    if end is None:
        return False
    return game.full_length(options, seats, end, view or {})

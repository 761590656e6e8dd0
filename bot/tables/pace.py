"""A table's pace: how long a player has per move, what a missed deadline does, and the reminder.

The table option ``pace`` (``bot.rules.base.PACES``) names one of four paces; their lengths are the
operator's (``config.toml``): ``pace_fast`` and ``pace_slow`` seconds, ``turn_timeout`` for
``normal`` (today's single timeout), ``pace_correspondence_hours`` hours for ``correspondence``.

Everything reads a table's pace through :func:`table_pace` and the default pace through
:func:`default_pace`, so that per-server settings can hook in at one place each.

Missed deadlines. At every pace a missed deadline plays the game's timeout move for the seat (the
game goes on for the others). At fast, normal and slow paces the AI takes the seat after
``AWAY_AFTER`` (2) missed deadlines in a row, as before. A correspondence table lasts days and a
player may be away for one of them without meaning to leave: there the AI takes the seat only after
``correspondence_away_after`` (3 by default) missed deadlines in a row, and the player to act gets
ONE DM reminder ``correspondence_reminder_hours`` before each deadline (at most half the pace
before it). The player comes back with ``/table join`` as at any pace.

A correspondence lobby stays open a full turn of its pace if that is longer than
``lobby_expiry_hours`` (:func:`lobby_life`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.rules.base import PACES

if TYPE_CHECKING:
    from bot.config import Config

#: Missed deadlines in a row after which the AI takes a seat, at the fast, normal and slow paces.
AWAY_AFTER = 2
CORRESPONDENCE = "correspondence"


@dataclass(frozen=True)
class Pace:
    """One pace as the operator configured it."""

    name: str
    #: Seconds a player has per move (per turn: a deadline runs while the same players are to act).
    seconds: float
    #: Missed deadlines in a row after which the AI takes the seat.
    away_after: int
    #: Seconds before the deadline at which the player to act gets one DM reminder (None: no reminder).
    remind_before: float | None = None


def default_pace(config: Config, guild_id: int | None = None) -> str:
    """The pace of a new table whose host chose none (the operator's ``default_pace``).

    ``guild_id`` is for server settings (issue 29): a server's own default will be read here.
    """
    return config.default_pace


def pace_named(config: Config, name: str) -> Pace:
    """The configured pace called ``name`` (an unknown name reads as ``normal``)."""
    if name == "fast":
        return Pace(name, config.pace_fast, AWAY_AFTER)
    if name == "slow":
        return Pace(name, config.pace_slow, AWAY_AFTER)
    if name == CORRESPONDENCE:
        seconds = config.pace_correspondence_hours * 3600
        remind = min(config.correspondence_reminder_hours * 3600, seconds / 2)
        return Pace(name, seconds, config.correspondence_away_after, remind)
    return Pace("normal", config.turn_timeout, AWAY_AFTER)


def table_pace(config: Config, options: Mapping[str, Any]) -> Pace:
    """The pace of a table with these (validated) options; the default pace when none is set."""
    name = options.get("pace")
    if not isinstance(name, str) or name not in PACES:
        name = default_pace(config)
    return pace_named(config, name)


def remind_at(pace: Pace, deadline: float | None) -> float | None:
    """When the reminder for ``deadline`` is due at this pace (None: no reminder at this pace)."""
    if deadline is None or pace.remind_before is None:
        return None
    return deadline - pace.remind_before


def lobby_life(config: Config, options: Mapping[str, Any]) -> float:
    """Seconds a lobby with these options stays open unstarted: the operator's ``lobby_expiry_hours``,
    or at the correspondence pace a full turn if longer (its players, in other time zones, may be
    asleep when it opens: they get as long to sit down as to play a move)."""
    expiry = config.lobby_expiry_hours * 3600
    pace = table_pace(config, options)
    return max(expiry, pace.seconds) if pace.name == CORRESPONDENCE else expiry

"""Limits against abandoned and runaway tables: open-table caps and the deal cap (pure functions).

- Caps (``Config.tables_per_member|channel|guild``): open tables (lobby or playing) a member sits
  at — a seat they left (``away``) does not count, the AI finishes it — and that a channel or a
  guild holds. A member's tables are counted on every server, those of other shard processes from
  the store (``bot.store.tables.open_seats_elsewhere``). Checked when a lobby is opened, when a
  member joins one and when they take back a seat they left (``bot.tables.lobby._come_back``):
  leaving and coming back never passes the cap.
- Deal cap (``Config.deal_cap``): only sessions with **no natural end** get one. Of every game's
  options, only Michigan's ``rotations = 0`` ("play until someone cannot ante") has none: Motz
  (``rotations`` 1–10, at most ``2n`` extra deals), Marias (``3 × rounds``), Maître (``tours``)
  and Mus (``matches`` × best-of games to a target score) all end by themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.rules import GAMES
from bot.tables.model import Table

if TYPE_CHECKING:
    from bot.i18n.lazy import Msg


def open_ended(game: str, options: Mapping[str, Any]) -> bool:
    """True when this game with these options has no natural end (``Game.open_ended``; see the
    module docstring)."""
    rules = GAMES.get(game)
    return rules is not None and rules.open_ended(options)


def deals_played(view: Mapping[str, Any]) -> int:
    """Deals completed so far, from the public view (``deals_played``, else the deal index)."""
    value = view.get("deals_played", view.get("deal", 0))
    return value if isinstance(value, int) else 0


def sits_at(table: Table, user_id: int) -> bool:
    """True when the member has a seat they play themselves at this open table (a seat they left,
    ``away``, does not count until they take it back, which is checked against the cap)."""
    seat = table.seat_of(user_id)
    return table.is_open and seat is not None and not table.seats[seat].away


def cap_refusal(
    tables: Iterable[Table], config: Config, user_id: int, guild_id: int | None = None,
    channel_id: int | None = None, elsewhere: int = 0, home: int | None = None,
) -> Msg | None:
    """The refusal of one more open table for this member (and channel/guild, if given);
    ``elsewhere``: the member's open tables that other shard processes hold (``tables`` lacks them);
    ``home``: the server they act in (else ``guild_id``), against which the refusal counts the tables
    they sit at in other servers (``/table mine`` lists one server's).

    A message id with its number and plural form (``bot.i18n`` is imported only then: the AI's
    worker processes import ``bot.tables`` and never refuse a table).
    """
    from bot.i18n.lazy import Amount, nmsg

    live = [t for t in tables if t.is_open]
    mine = sum(1 for t in live if sits_at(t, user_id)) + elsewhere
    if mine >= config.tables_per_member:
        home = guild_id if home is None else home
        other = elsewhere + sum(1 for t in live if sits_at(t, user_id) and t.guild_id != home)
        if home is not None and other:  # /table mine lists one server's: say where the rest are
            return nmsg("You already sit at {n} open table, {other} of them in other servers (the limit is "
                        "{limit}, counted on every server): finish or leave one first.",
                        "You already sit at {n} open tables, {other} of them in other servers (the limit "
                        "is {limit}, counted on every server): finish or leave one first.",
                        mine, other=Amount(other), limit=Amount(config.tables_per_member))
        return nmsg("You already sit at {n} open table (the limit is {limit}): finish or leave one first.",
                    "You already sit at {n} open tables (the limit is {limit}): finish or leave one first.",
                    mine, limit=Amount(config.tables_per_member))
    if channel_id is not None:
        here = sum(1 for t in live if t.channel_id == channel_id)
        if here >= config.tables_per_channel:
            return nmsg("This channel already has {n} open table (the limit is {limit}): "
                        "use another channel or wait for one to end.",
                        "This channel already has {n} open tables (the limit is {limit}): "
                        "use another channel or wait for one to end.",
                        here, limit=Amount(config.tables_per_channel))
    if guild_id is not None:
        there = sum(1 for t in live if t.guild_id == guild_id)
        if there >= config.tables_per_guild:
            return nmsg("This server already has {n} open table (the limit is {limit}): "
                        "wait for one to end.",
                        "This server already has {n} open tables (the limit is {limit}): "
                        "wait for one to end.", there, limit=Amount(config.tables_per_guild))
    return None

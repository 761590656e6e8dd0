"""Tables whose seats someone else assigns (a tournament's round): opened and started at once.

``open_seated`` writes the table row, stakes every seat and starts the session in one go: no
lobby, no open-table caps (the organiser's event already holds the players), no buy-in from a
wallet. Each human seat is ``staked``: the house puts up its buy-in and takes its final stack
back (``bot.tables.settle.seat_account``), so the table's result is a score, not jetons; AI
seats are the house's as anywhere. The rest (events, AI, timers, the end) is any table's.

Such a table has no human host: its organiser opens it with ``NO_HOST`` as the host id, so no
player (the organiser's own host included) may end it with ``/table end``; a server admin may, and
the organiser's code does, as one.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.rules.base import Game
from bot.store import tables as store
from bot.tables import settle
from bot.tables.errors import option_error, unknown_game
from bot.tables.model import SeatInfo, Table
from bot.tables.pace import table_pace
from bot.tables.session import Runtime, TableSession

#: The host id of a table nobody hosts (a tournament round): no Discord user has it.
NO_HOST = -1


async def open_seated(
    rt: Runtime,
    games: Mapping[str, Game],
    guild_id: int,
    channel_id: int,
    host_id: int,
    game: str,
    options: Mapping[str, Any],
    seats: list[SeatInfo],
    link: Callable[[sqlite3.Connection, int], None] | None = None,
) -> TableSession:
    """Open and start a table with these seats (humans staked by the house); return its session.

    ``link(conn, table_id)`` runs in the transaction that writes the table: the organiser stores the
    table as its own there, so no crash can leave a table it does not know of."""
    rules = games.get(game)
    if rules is None:
        raise unknown_game(game, ", ".join(sorted(games)))
    raw = dict(options)
    if any(spec.name == "players" for spec in rules.options):
        raw["players"] = len(seats)
    seed = secrets.randbits(63)
    try:
        opts = rules.validate_options(raw)
        state = rules.new_table(len(seats), opts, seed)
    except ValueError as exc:
        raise option_error(exc) from None
    seats = [info if info.ai else replace(info, staked=True) for info in seats]
    now = rt.clock()
    table = Table(
        id=0,
        guild_id=guild_id,
        channel_id=channel_id,
        message_id=None,
        host_id=host_id,
        game=game,
        rules=rules,
        options=opts,
        seed=seed,
        seats=seats,
        status="playing",
        capacity=len(seats),
        raw_options=raw,
    )
    waiting = [i for i in state.to_act() if not seats[i].autoplayed]
    deadline = now + table_pace(rt.config, opts).seconds if waiting else None  # at the table's pace

    def tx(conn: sqlite3.Connection) -> int:
        table.id = store.insert_table(
            conn,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            options=opts,
            raw_options=raw,
            seats=[info.to_json() for info in seats],
            host_id=host_id,
            now=now,
        )
        for info in seats:
            settle.pay_in(conn, table, info, now, rt.grant)
        store.update_table(conn, table.id, now, status="playing", seed=seed, deadline=deadline)
        if link is not None:
            link(conn, table.id)
        return table.id

    await rt.db.transaction(tx)
    table.state, table.deadline = state, deadline
    session = TableSession(table, rt)
    rt.sessions[table.id] = session
    rt.timers.set(session, deadline)
    await session.notify([{"type": "lobby", "what": "create", "seat": 0}, {"type": "start"}])
    session.kick()
    return session

"""The lobby of a table: create, join (or come back), leave, add an AI seat, start.

Functions of the sessions' ``Runtime`` and of one ``TableSession`` (``bot.tables.session``: its
commit path and events); ``TableService`` calls them. Open-table caps (``bot.tables.limits``)
are checked and the seat they allow committed under one lock (``commit_within_caps``), also when
a member takes back a seat they left mid-session (``_come_back``). A lobby's
expiry is a deadline (``bot.tables.autoplay.expire_lobby``).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.ai.levels import DEFAULT as DEFAULT_LEVEL
from bot.ai.levels import normalize_level
from bot.rules.base import N_, Event, Game
from bot.store import tables as store
from bot.store.ledger import InsufficientFunds
from bot.tables import limits, settle
from bot.tables.errors import (
    ALREADY_LEFT,
    ALREADY_PLAYING,
    ALREADY_SEATED,
    BUY_IN_WOULD_CHANGE,
    CLOSED,
    NOT_IN_LOBBY,
    NOT_SEATED,
    TableError,
    already_started,
    closed_to_join,
    needs_players,
    option_error,
    sentence,
    short_of_jetons,
    table_full,
    unknown_game,
)
from bot.tables.model import SeatInfo, Table, capacity
from bot.tables.pace import lobby_life, table_pace
from bot.tables.seats import INVITE_ONLY, LobbyPlan, first_free, free_places, insert_at, seat_taken, without
from bot.tables.session import Runtime, TableSession

log = logging.getLogger(__name__)


async def create(
    rt: Runtime,
    games: Mapping[str, Game],
    guild_id: int,
    channel_id: int,
    host_id: int,
    host_name: str,
    game: str,
    options: Mapping[str, Any] | None = None,
    invite: Sequence[int] = (),
    invite_only: bool = False,
    plan: LobbyPlan | None = None,
    seats: Sequence[SeatInfo] = (),
    link: Callable[[sqlite3.Connection, int], None] | None = None,
    ai_levels: Sequence[str] | None = None,
    chosen: Mapping[str, Any] | None = None,
) -> TableSession:
    """Open a lobby; the host takes seat 0 and pays the buy-in. The new session is registered.

    ``invite``: members whose seats are kept (seats 1, 2, … in that order); ``invite_only``: only
    they may sit. ``plan`` and ``seats`` (Play again, ``bot.tables.rematch``): the host's seat and
    the invitees' are the plan's, and ``seats`` (AI seats) sit down too, paid by the house;
    ``link(conn, new table id)`` runs in the same transaction (it marks the table played again).
    ``ai_levels``: the AI levels the server lets sit (the lobby's buttons; None: all). ``chosen``: the
    options the host typed, before any default (kept for Play again: ``LobbyPlan.chosen``).
    """
    rules = games.get(game)
    if rules is None:
        names = ", ".join(sorted(games)) or "none yet"
        raise unknown_game(game, names)
    raw = {**rt.config.options_for(game), **dict(options or {})}
    try:
        opts = rules.validate_options(raw)
    except ValueError as exc:
        raise option_error(exc) from None
    seat = SeatInfo(host_id, host_name)
    now = rt.clock()
    size = capacity(rules, opts)
    if plan is None:
        if 1 + len(invite) > size:
            raise table_full(size)
        plan = LobbyPlan([0], {uid: i + 1 for i, uid in enumerate(invite)}, invite_only,
                         ai_levels=None if ai_levels is None else tuple(ai_levels),
                         chosen=None if chosen is None else dict(chosen))
    all_seats = [seat, *seats]
    order = sorted(range(len(all_seats)), key=lambda i: plan.places[i])
    table = Table(
        id=0, guild_id=guild_id, channel_id=channel_id, message_id=None, host_id=host_id, game=game,
        rules=rules, options=opts, seed=None, seats=[all_seats[i] for i in order], status="lobby",
        capacity=size, raw_options=raw, plan=replace(plan, places=sorted(plan.places)),
    )

    expires = now + lobby_life(rt.config, opts)

    def tx(conn: sqlite3.Connection) -> int:
        table.id = store.insert_table(
            conn, guild_id=guild_id, channel_id=channel_id, game=game, options=opts, raw_options=raw,
            seats=[info.to_json() for info in table.seats], host_id=host_id, now=now,
            lobby=table.plan.to_json(),
        )
        store.update_table(conn, table.id, now, deadline=expires)
        for info in all_seats:
            settle.pay_in(conn, table, info, now, rt.grant)
        if link is not None:
            link(conn, table.id)
        return table.id

    session = TableSession(table, rt)

    def register() -> None:
        rt.sessions[table.id] = session

    await commit_within_caps(rt, table, tx, register, host_id, guild_id, channel_id)
    table.deadline = expires
    rt.timers.set(session, expires)
    await session.notify([{"type": "lobby", "what": "create", "seat": 0}])
    return session


async def commit_within_caps(rt: Runtime, table: Table, tx: Callable[[sqlite3.Connection], object],
                             adopt: Callable[[], None], user_id: int, guild_id: int | None = None,
                             channel_id: int | None = None) -> None:
    """Check the open-table caps, commit ``tx`` and ``adopt`` its result under one lock.

    One lock for the check and the change, so two requests at once cannot both pass a cap. The
    caps are the table's server's (``Runtime.config_for``: its ``/settings``, within the operator's).
    """
    async with within_caps(rt, table, user_id, guild_id, channel_id) as check:
        def checked(conn: sqlite3.Connection) -> object:
            check(conn)
            return tx(conn)

        try:
            await rt.db.transaction(checked)
        except InsufficientFunds as exc:
            raise short_of_jetons(exc.balance, table.buy_in) from None
        adopt()


@asynccontextmanager
async def within_caps(rt: Runtime, table: Table, user_id: int, guild_id: int | None = None,
                      channel_id: int | None = None) -> AsyncIterator[Callable[[sqlite3.Connection], None]]:
    """Hold the caps' lock while the body commits one more open table or seat for ``user_id``,
    refused (``TableError``, ``limits.cap_refusal``'s words) if it would pass a cap.

    The body runs what it yields first in its transaction: on a shard process, the member's open
    tables of the other shards are counted there, under a lock per member on PostgreSQL
    (``store.lock_member``) that the other processes' checks take too, so two processes adding a
    table for the same member at once cannot both pass the cap (on one process ``rt.caps`` does it)."""
    config = await rt.config_for(table.guild_id)
    shards = rt.shards
    async with rt.caps:
        live = [s.table for s in rt.sessions.values()]
        refusal = limits.cap_refusal(live, config, user_id, guild_id, channel_id, home=table.guild_id)
        if refusal:
            raise TableError(refusal)

        def check(conn: sqlite3.Connection) -> None:
            if shards is None:
                return
            if rt.db.dialect == "postgresql":
                store.lock_member(conn, user_id)
            elsewhere = store.open_seats_elsewhere(conn, user_id, shards)
            refusal = limits.cap_refusal(live, config, user_id, guild_id, channel_id, elsewhere,
                                         home=table.guild_id)
            if refusal:
                raise TableError(refusal)

        yield check


async def join(s: TableSession, user_id: int, name: str, place: int | None = None) -> None:
    """Sit down in a lobby (paying the buy-in), at ``place`` or the seat kept for you or the first
    free one; or take your seat back in a running game."""
    table = s.table
    async with s.lock:
        if table.status == "playing":
            events = await _come_back(s, user_id)
        elif table.status != "lobby":
            raise closed_to_join()
        else:
            events = await _join_lobby(s, user_id, name, place)
    await s.notify(events)
    s.kick()


async def _join_lobby(s: TableSession, user_id: int, name: str, place: int | None) -> list[Event]:
    rt, table = s.rt, s.table
    if table.seat_of(user_id) is not None:
        raise TableError(ALREADY_SEATED)
    plan = table.plan
    if plan.invite_only and user_id not in plan.invited:
        raise TableError(INVITE_ONLY)
    free = free_places(plan, table.capacity, user_id)
    if place is None:
        place = plan.invited.get(user_id, first_free(free))
        if place is None:
            raise table_full(table.capacity)
    elif place not in free:
        raise seat_taken(place)
    seat = SeatInfo(user_id, name)
    seats, places, index = insert_at(table.seats, plan.places, seat, place)
    new_plan = replace(plan.copy(), places=places)
    new_plan.invited.pop(user_id, None)
    now = rt.clock()

    def tx(conn: sqlite3.Connection) -> None:
        settle.pay_in(conn, table, seat, now, rt.grant)
        store.update_table(conn, table.id, now, seats=[s.to_json() for s in seats], lobby=new_plan.to_json())

    def take_seat() -> None:
        table.seats, table.plan = seats, new_plan

    await commit_within_caps(rt, table, tx, take_seat, user_id)
    return [{"type": "lobby", "what": "join", "seat": index}]


async def _come_back(s: TableSession, user_id: int) -> list[Event]:
    """Take back a seat left mid-session (``away``), within the member's open-table cap.

    A seat its player left does not count toward their cap (``limits.sits_at``: the AI plays it and
    they may sit elsewhere meanwhile); taking it back does, so it is checked as a join is
    (``within_caps``, same refusal), and the cap holds however often they leave and come back.
    """
    table = s.table
    seat = table.seat_of(user_id)
    if seat is None:
        raise already_started()
    if not table.seats[seat].away:
        raise TableError(ALREADY_PLAYING)
    seats = [replace(info) for info in table.seats]
    seats[seat].away = False
    seats[seat].timeouts_in_row = 0
    async with within_caps(s.rt, table, user_id) as check:
        await s.save_seats(seats, check)
    return [{"type": "back", "seat": seat}]


async def add_ai(s: TableSession, user_id: int, level: int | str = DEFAULT_LEVEL.name) -> None:
    """The host adds an AI seat to the lobby (its buy-in comes from the house), in the first free
    seat; when none is free but some are kept for invitees who have not come, in the first of those
    (that invitation lapses): else a game of fixed seats (Mus, Marias) whose invitee never answers
    could never start."""
    try:
        level = normalize_level(level)
    except ValueError as exc:
        raise TableError(sentence(str(exc))) from None
    rt, table = s.rt, s.table
    async with s.lock:
        _lobby_host(table, user_id, N_("Only the host can add AI players."))
        plan = table.plan.copy()
        place = first_free(free_places(plan, table.capacity))
        if place is None:
            kept = {p: uid for uid, p in plan.invited.items() if p not in plan.places}
            place = first_free(kept)
            if place is None:
                raise table_full(table.capacity)
            del plan.invited[kept[place]]
        seat = SeatInfo(None, _free_ai_name(table.seats), ai=True, level=level)
        seats, places, index = insert_at(table.seats, plan.places, seat, place)
        plan.places = places
        now = rt.clock()

        def tx(conn: sqlite3.Connection) -> None:
            settle.pay_in(conn, table, seat, now, rt.grant)
            store.update_table(conn, table.id, now, seats=[info.to_json() for info in seats],
                               lobby=plan.to_json())

        await rt.db.transaction(tx)
        table.seats, table.plan = seats, plan
    await s.notify([{"type": "lobby", "what": "add_ai", "seat": index}])


def _free_ai_name(seats: Sequence[SeatInfo]) -> str:
    """The first "AI n" no seat is called yet (a removed AI's number may come back, never twice)."""
    taken = {info.name for info in seats}
    n = 1
    while f"AI {n}" in taken:
        n += 1
    return f"AI {n}"


def _lobby_host(table: Table, user_id: int, refusal: str) -> None:
    if table.status != "lobby":
        raise TableError(NOT_IN_LOBBY)
    if user_id != table.host_id:
        raise TableError(refusal)


async def leave(s: TableSession, user_id: int, gone: bool = False) -> None:
    """Lobby: stand up and get the buy-in back. Playing: the AI plays your seat to the end.
    ``gone``: the member left the server; at a table by invitation only, no seat is kept for them."""
    table = s.table
    async with s.lock:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(NOT_SEATED)
        if table.status == "lobby":
            events = await _leave_lobby(s, seat, keep_invited=not gone)
        elif table.status == "playing":
            if table.seats[seat].away:
                raise TableError(ALREADY_LEFT)
            seats = [replace(info) for info in table.seats]
            seats[seat].away = True
            await s.save_seats(seats)
            events = [{"type": "away", "seat": seat, "reason": "left"}]
            events += await s.auto_close()
        else:
            raise TableError(CLOSED)
    await s.notify(events)
    s.kick()


async def lapse_invitation(s: TableSession, user_id: int) -> bool:
    """A member the server removed before they sat: the seat kept for them is free again (a lobby
    only; nobody could ever take it, and nobody else could be invited to it). True if one lapsed."""
    rt, table = s.rt, s.table
    async with s.lock:
        if table.status != "lobby" or user_id not in table.plan.invited or table.seat_of(user_id) is not None:
            return False
        plan = table.plan.copy()
        del plan.invited[user_id]
        await rt.db.transaction(store.update_table, table.id, rt.clock(), lobby=plan.to_json())
        table.plan = plan
    await s.notify([{"type": "lobby", "what": "uninvite"}])
    return True


async def _leave_lobby(s: TableSession, seat: int, keep_invited: bool = True) -> list[Event]:
    table = s.table
    leaving = table.seats[seat]
    others = [info for i, info in enumerate(table.seats) if i != seat and not info.ai]
    if leaving.user_id == table.host_id and not others:
        await s.cancel_lobby()
        return [{"type": "lobby", "what": "cancel"}]
    host = table.host_id if leaving.user_id != table.host_id else others[0].user_id
    assert host is not None
    # at a table by invitation only, whoever leaves stays invited (their seat kept): nobody can be
    # invited once the lobby is open, so they could never sit again
    await _stand_up(s, seat, host, keep_invited=keep_invited and table.plan.invite_only)
    return [{"type": "lobby", "what": "leave", "seat": seat, "host_id": host}]


async def _stand_up(s: TableSession, seat: int, host: int, keep_invited: bool = False) -> None:
    """The seat at index ``seat`` stands up with its buy-in refunded; ``host`` hosts (lock held).
    ``keep_invited``: a human who stands up is invited again, their seat kept for them."""
    rt, table = s.rt, s.table
    leaving = table.seats[seat]
    seats, places = without(table.seats, table.plan.places, seat)
    plan = replace(table.plan.copy(), places=places)
    if keep_invited and leaving.human and leaving.user_id is not None:
        plan.invited[leaving.user_id] = table.plan.places[seat]
    now = rt.clock()

    def tx(conn: sqlite3.Connection) -> None:
        settle.refund(conn, table, leaving, now, rt.grant)
        store.update_table(conn, table.id, now, seats=[s.to_json() for s in seats], host_id=host,
                           lobby=plan.to_json())

    await rt.db.transaction(tx)
    table.seats, table.host_id, table.plan = seats, host, plan


async def start(s: TableSession, user_id: int) -> None:
    """The host starts the session with the seats filled so far (at least the game's minimum)."""
    rt, table = s.rt, s.table
    async with s.lock:
        _lobby_host(table, user_id, N_("Only the host can start the game."))
        n, rules = len(table.seats), table.rules
        if n < rules.min_seats:
            raise needs_players(rules.title, rules.min_seats, n)
        raw = dict(table.raw_options)
        if any(spec.name == "players" for spec in rules.options):
            raw["players"] = n
        seed = secrets.randbits(63)
        try:
            opts = rules.validate_options(raw)
            state = rules.new_table(n, opts, seed)
        except ValueError as exc:
            raise option_error(exc) from None
        if opts.get("buy_in", 0) != table.buy_in:
            raise TableError(BUY_IN_WOULD_CHANGE)
        now = rt.clock()
        waiting = [i for i in state.to_act() if not table.seats[i].autoplayed]
        deadline = now + table_pace(rt.config, opts).seconds if waiting else None
        # seats numbered in order; invitations lapse; the allowed AI levels and the host's options stay
        # for Play again
        plan = LobbyPlan(invite_only=table.plan.invite_only, ai_levels=table.plan.ai_levels,
                         chosen=table.plan.chosen)
        await rt.db.transaction(
            store.update_table, table.id, now,
            status="playing", seed=seed, options=opts, deadline=deadline, lobby=plan.to_json(),
        )
        table.options, table.seed, table.state, table.status = opts, seed, state, "playing"
        table.plan = plan
        table.deadline = deadline
        rt.timers.set(s, deadline)
    await s.notify([{"type": "start"}])
    s.kick()

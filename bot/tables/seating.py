"""Seats in a lobby once people sit (issue 28.1): a player moves to a free seat; the host moves a
player (swapping with whoever sits there), removes one (their buy-in refunded through the ledger)
or hands the host role to another seated player. Never after the start.

Functions of one ``TableSession`` like ``bot.tables.lobby``'s; the service calls them. Each names
the seat it acts on by its number and, for a human, the user who sat there when the host chose:
a lobby that changed between the render and the click is refused (``LOBBY_CHANGED``), never
applied to someone else.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.base import Event
from bot.store import tables as store
from bot.tables.errors import NOT_IN_LOBBY, NOT_SEATED, TableError
from bot.tables.lobby import _stand_up, join
from bot.tables.model import Table
from bot.tables.seats import (
    HOST_ALREADY,
    HOST_HUMAN,
    LOBBY_CHANGED,
    NOT_HOST_SEATS,
    REMOVE_SELF,
    SAME_SEAT,
    free_places,
    moved,
    seat_taken,
)
from bot.tables.session import TableSession


async def choose_seat(s: TableSession, user_id: int, name: str, place: int) -> None:
    """Sit at seat ``place`` (paying the buy-in), or move there if already seated."""
    table = s.table
    if table.status == "lobby" and table.seat_of(user_id) is None:
        await join(s, user_id, name, place)
        return
    async with s.lock:
        _in_lobby(s)
        index = table.seat_of(user_id)
        if index is None:
            raise TableError(NOT_SEATED)
        if table.plan.places[index] == place:
            raise TableError(SAME_SEAT)
        if place not in free_places(table.plan, table.capacity):
            raise seat_taken(place)
        events = await _move(s, index, place)
    await s.notify(events)


async def host_move(s: TableSession, host_id: int, place: int, user_id: int | None, to: int) -> None:
    """The host moves whoever sits at ``place`` (``user_id``, None for an AI) to seat ``to``; whoever
    sits at ``to`` takes ``place`` (a swap: how the Mus pairs are set)."""
    table = s.table
    async with s.lock:
        index = _hosts_target(s, host_id, place, user_id)
        if to == place or not 0 <= to < table.capacity:
            raise TableError(LOBBY_CHANGED)
        if to not in table.plan.places and to not in free_places(table.plan, table.capacity):
            raise seat_taken(to)  # kept for an invitee
        events = await _move(s, index, to)
    await s.notify(events)


async def remove(s: TableSession, host_id: int, place: int, user_id: int | None) -> None:
    """The host removes the player at ``place`` (their buy-in refunded); never themselves."""
    table = s.table
    async with s.lock:
        index = _hosts_target(s, host_id, place, user_id)
        if table.seats[index].user_id == host_id:
            raise TableError(REMOVE_SELF)
        await _stand_up(s, index, table.host_id)
        events: list[Event] = [{"type": "lobby", "what": "remove", "seat": index}]
    await s.notify(events)


async def hand_host(s: TableSession, host_id: int, place: int, user_id: int | None) -> None:
    """The host hands the host role to the (human) player at ``place``."""
    rt, table = s.rt, s.table
    async with s.lock:
        index = _hosts_target(s, host_id, place, user_id)
        new_host = table.seats[index].user_id
        if table.seats[index].ai or new_host is None:
            raise TableError(HOST_HUMAN)
        if new_host == host_id:
            raise TableError(HOST_ALREADY)
        await rt.db.transaction(store.update_table, table.id, rt.clock(), host_id=new_host)
        table.host_id = new_host
    await s.notify([{"type": "lobby", "what": "host", "seat": index, "host_id": new_host}])


def _in_lobby(s: TableSession) -> None:
    if s.table.status != "lobby":
        raise TableError(NOT_IN_LOBBY)


def _hosts_target(s: TableSession, host_id: int, place: int, user_id: int | None) -> int:
    """The index of the seat at ``place`` if the host may act on it and it still holds ``user_id``."""
    return hosts_target(s.table, host_id, place, user_id)


def hosts_target(table: Table, host_id: int, place: int, user_id: int | None) -> int:
    """``_hosts_target`` of a table read as is: the lobby's select checks with it the player the host
    picks to move before offering the seats (nothing changes; the move itself checks again)."""
    if table.status != "lobby":
        raise TableError(NOT_IN_LOBBY)
    if host_id != table.host_id:
        raise TableError(NOT_HOST_SEATS)
    if place not in table.plan.places:
        raise TableError(LOBBY_CHANGED)
    index = table.plan.places.index(place)
    if table.seats[index].user_id != user_id:
        raise TableError(LOBBY_CHANGED)
    return index


async def _move(s: TableSession, index: int, to: int) -> list[Event]:
    """Move the seat at ``index`` to seat ``to`` (a swap if taken) and store it (lock held)."""
    rt, table = s.rt, s.table
    seats, places = moved(table.seats, table.plan.places, index, to)
    plan = replace(table.plan, places=places)
    await rt.db.transaction(store.update_table, table.id, rt.clock(),
                            seats=[info.to_json() for info in seats], lobby=plan.to_json())
    table.seats, table.plan = seats, plan
    return [{"type": "lobby", "what": "move", "seat": places.index(to)}]

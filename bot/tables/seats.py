"""Who sits where in a lobby: the seat each player chose, the invitees' reserved seats, the
invitation-only flag and the table a lobby plays again (issue 28.1 and 28.4). Pure data, no I/O.

``Table.seats`` stays the list of who sits (in seat order); during the lobby ``LobbyPlan.places``
gives, parallel to it, the seat number each one chose, kept ascending, so that the start only has
to number the seats 0, 1, … in that order (in Mus the pairs are seats 0 & 2 and 1 & 3 as chosen).
A plan is stored as JSON in the ``lobby`` column (migration 0008) and rebuilt after a restart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.tables.errors import N_, TableError, _lazy

#: Refusals of the lobby's seating (translated where shown).
#: (no one can be invited once the lobby is open: the host could not do it)
INVITE_ONLY = N_("This table is by invitation only: only the members invited to it may sit.")
NOT_HOST_SEATS = N_("Only the host can move, remove or hand over seats.")
REMOVE_SELF = N_("The host cannot remove themselves: hand the host role to another player first, or leave.")
HOST_ALREADY = N_("You are already the host.")
HOST_HUMAN = N_("Only a seated player can be the host.")
LOBBY_CHANGED = N_("The lobby changed meanwhile: look at it again and choose once more.")
SAME_SEAT = N_("You are already in that seat.")


def seat_taken(place: int) -> TableError:
    """Seat 3 was taken meanwhile (or never was free): choose another."""
    return TableError(_lazy().msg("Seat {n} is taken: choose a free seat.", n=place + 1))


@dataclass
class LobbyPlan:
    """The seating of a lobby; ``{}`` in the store reads as seats in join order, nobody invited."""

    #: The seat number of each seated player, parallel to ``Table.seats`` and ascending.
    places: list[int] = field(default_factory=list)
    #: Invitees who have not sat down yet: user id -> the seat kept for them.
    invited: dict[int, int] = field(default_factory=dict)
    #: Only the invitees (and the host) may sit.
    invite_only: bool = False
    #: The finished table this lobby plays again, or None.
    rematch_of: int | None = None
    #: On a finished table: the lobby opened to play it again (so it is opened once).
    rematch: int | None = None
    #: The AI levels the server let sit when the table was opened (``/settings ai_levels``): the
    #: lobby shows only their buttons. None: every level (a table opened before the setting).
    ai_levels: tuple[str, ...] | None = None
    #: The options the host chose at ``/table new``, before any default (the server's, the
    #: operator's): Play again merges the defaults of its own day under them. None: a table opened
    #: before they were kept (Play again then starts from the table's raw options).
    chosen: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "places": list(self.places), "invited": {str(k): v for k, v in self.invited.items()},
            "invite_only": self.invite_only, "rematch_of": self.rematch_of, "rematch": self.rematch}
        if self.ai_levels is not None:
            out["ai_levels"] = list(self.ai_levels)
        if self.chosen is not None:
            out["chosen"] = dict(self.chosen)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], n_seats: int) -> LobbyPlan:
        """The plan of a stored row (``{}`` or a plan that does not fit its seats: join order)."""
        places = [int(p) for p in data.get("places", [])]
        if len(places) != n_seats or places != sorted(set(places)):
            places = list(range(n_seats))
        invited = {int(k): int(v) for k, v in dict(data.get("invited", {})).items()}
        levels, chosen = data.get("ai_levels"), data.get("chosen")
        return cls(places, invited, bool(data.get("invite_only", False)),
                   _int_or_none(data.get("rematch_of")), _int_or_none(data.get("rematch")),
                   None if levels is None else tuple(str(x) for x in levels),
                   dict(chosen) if isinstance(chosen, dict) else None)

    def copy(self) -> LobbyPlan:
        return LobbyPlan(list(self.places), dict(self.invited), self.invite_only, self.rematch_of,
                         self.rematch, self.ai_levels, None if self.chosen is None else dict(self.chosen))


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def free_places(plan: LobbyPlan, capacity: int, for_user: int | None = None) -> list[int]:
    """The seats nobody sits in nor is invited to (``for_user``'s own reserved seat counts as free)."""
    kept = {p for uid, p in plan.invited.items() if uid != for_user}
    return [p for p in range(capacity) if p not in plan.places and p not in kept]


def insert_at(items: list[Any], places: list[int], item: Any, place: int) -> tuple[list[Any], list[int], int]:
    """``items`` and ``places`` with ``item`` sitting at ``place`` (kept ascending); and its index."""
    index = sum(1 for p in places if p < place)
    return [*items[:index], item, *items[index:]], [*places[:index], place, *places[index:]], index


def without(items: list[Any], places: list[int], index: int) -> tuple[list[Any], list[int]]:
    """``items`` and ``places`` without the seat at ``index``."""
    return [x for i, x in enumerate(items) if i != index], [p for i, p in enumerate(places) if i != index]


def moved(items: list[Any], places: list[int], index: int, place: int) -> tuple[list[Any], list[int]]:
    """The seat at ``index`` moved to ``place``; whoever sat there takes its old seat (a swap)."""
    old = places[index]
    new_places = [place if p == old else old if p == place else p for p in places]
    order = sorted(range(len(items)), key=lambda i: new_places[i])
    return [items[i] for i in order], [new_places[i] for i in order]


def first_free(free: Iterable[int]) -> int | None:
    """The lowest free seat, or None."""
    return min(free, default=None)

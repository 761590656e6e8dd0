"""Component ids: ``tapis:<table>:<version>:<verb>[:<arg>]`` (at most 100 characters).

The id carries everything a click needs, so components keep working after a restart; the table
service re-checks the version and the seat under the table's lock before anything is applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "tapis"
MAX_LEN = 100
#: /history's pages, session and deal selects (bot.views.history), not tied to a live table.
HISTORY_VERBS = frozenset({"hist", "hopen", "hdeal", "hpart"})
#: Lobby selects (a free seat; the host's choices) and the final message's Play again.
SEAT_VERBS = frozenset({"seat", "host", "again"})
#: Table-message reactions and Mus señas (``bot.tables.reactions``, ``bot.tables.senas``).
EXTRA_VERBS = frozenset({"react", "sena"})
#: The clicks a DM may carry (a move, a select of moves, a group of moves, a seña, taking back a seat
#: the AI plays): forwarded to the table's owner in shard processes, and allowed from outside the
#: table's server.
DM_VERBS = frozenset({"mv", "sel", "grp", "sena", "back"})
VERBS = frozenset({"join", "leave", "ai", "start", "hand", "mv", "sel", "grp", "back"}) | SEAT_VERBS \
    | HISTORY_VERBS | EXTRA_VERBS
_NUMBER = re.compile(r"[0-9]{1,4}")
_ID = re.compile(r"tapis:(\d{1,20}):(\d{1,9}):([a-z]{1,8})(?::([0-9a-z.-]{1,40}))?", re.ASCII)


@dataclass(frozen=True)
class ComponentId:
    """A parsed component id. For moves, ``arg`` is ``<seat>.<index or select group>``."""

    table_id: int
    version: int
    verb: str
    arg: str | None = None

    def __str__(self) -> str:
        out = f"{PREFIX}:{self.table_id}:{self.version}:{self.verb}"
        if self.arg is not None:
            out += f":{self.arg}"
        assert len(out) <= MAX_LEN, out
        return out

    def seat_and_number(self) -> tuple[int, int] | None:
        """``(seat, n)`` from a move argument ``"<seat>.<n>"``, or None if malformed."""
        if self.arg is None:
            return None
        parts = self.arg.split(".")
        if len(parts) != 2 or not all(_NUMBER.fullmatch(p) for p in parts):
            return None
        return int(parts[0]), int(parts[1])


def parse(custom_id: str) -> ComponentId | None:
    """The id's parts, or None if it is not a well-formed Tapis id with a known verb."""
    m = _ID.fullmatch(custom_id)
    if m is None or m.group(3) not in VERBS:
        return None
    return ComponentId(int(m.group(1)), int(m.group(2)), m.group(3), m.group(4))


def move_id(table_id: int, version: int, seat: int, index: int) -> str:
    return str(ComponentId(table_id, version, "mv", f"{seat}.{index}"))


def select_id(table_id: int, version: int, seat: int, group: int) -> str:
    return str(ComponentId(table_id, version, "sel", f"{seat}.{group}"))


#: Moves chosen in two steps (``bot.views.moves``): a group's button ``grp:<seat>.<group>``, a select
#: of groups ``grp:<seat>.s<select>`` (its value the group), the way back ``grp:<seat>``.
def group_id(table_id: int, version: int, seat: int, group: int) -> str:
    return str(ComponentId(table_id, version, "grp", f"{seat}.{group}"))


def group_select_id(table_id: int, version: int, seat: int, select: int) -> str:
    return str(ComponentId(table_id, version, "grp", f"{seat}.s{select}"))


def groups_id(table_id: int, version: int, seat: int) -> str:
    return str(ComponentId(table_id, version, "grp", str(seat)))

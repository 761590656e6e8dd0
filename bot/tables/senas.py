"""The señas made at one Mus table (option ``senas``; rules: ``bot.rules.mus.senas``).

Kept beside the table, never in the rules state: a seña is a gesture between partners, checked
against the hand that makes it (it must be truthful) and seen by the partner and, by the fixed
chance of ``bot.rules.mus.senas.caught``, by each opponent. Only the current hand's señas matter
(a hand is the deal and its mus round: a discard makes a new hand).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.i18n import N_
from bot.rules.mus import senas as rules
from bot.rules.mus.state import MusState

if TYPE_CHECKING:
    from bot.tables.model import Table

OFF = N_("Señas are not allowed at this table.")
CLOSED = N_("Señas can be made only during the mus, the discard and the lances.")
UNTRUE = N_("You cannot make that seña: your hand does not hold it.")
REPEATED = N_("You have already made that seña with this hand.")
TOO_MANY = N_("You have made enough señas with this hand.")


class SenaRefused(Exception):
    """A seña refused: ``msgid`` says why (an ``N_`` message id)."""

    def __init__(self, msgid: str) -> None:
        super().__init__(msgid)
        self.msgid = msgid


@dataclass(frozen=True)
class Made:
    """One seña: who made it, which, and which seats saw it (the partner, and opponents who caught it)."""

    hand: tuple[int, int]
    seat: int
    sena: str
    seen_by: frozenset[int]


@dataclass
class SenaBook:
    """The señas of the current hand at one table (older hands' are dropped)."""

    made: list[Made] = field(default_factory=list)
    serial: int = 0

    def hand_of(self, state: MusState) -> tuple[int, int]:
        return int(state.k), int(state.mus_round)

    def current(self, state: MusState) -> list[Made]:
        """The señas made with the hands held now."""
        key = self.hand_of(state)
        self.made = [m for m in self.made if m.hand == key]
        return self.made

    def make(self, table: Table, seat: int, sena: str) -> Made:
        """Record ``seat``'s ``sena`` (truthful, in an open phase, the option on) or raise
        ``SenaRefused``; who sees it is drawn by ``bot.rules.mus.senas.caught``."""
        state = table.state  # the option exists only for Mus
        if not isinstance(state, MusState) or not table.options.get("senas"):
            raise SenaRefused(OFF)
        if table.status != "playing" or not rules.open_now(state.phase):
            raise SenaRefused(CLOSED)
        if not rules.holds(sena, state.hands[seat]):
            raise SenaRefused(UNTRUE)
        mine = [m for m in self.current(state) if m.seat == seat]
        if any(m.sena == sena for m in mine):
            raise SenaRefused(REPEATED)
        if len(mine) >= rules.PER_HAND:
            raise SenaRefused(TOO_MANY)
        k, mus_round = self.hand_of(state)
        seed = table.seed or 0
        seen = {rules.partner(seat)} | {o for o in rules.opponents(seat)
                                        if rules.caught(seed, k, mus_round, seat, sena, o)}
        made = Made((k, mus_round), seat, sena, frozenset(seen))
        self.made.append(made)
        self.serial += 1
        return made

    def seen(self, state: MusState, seat: int) -> list[Made]:
        """The current hand's señas ``seat`` saw (its partner's, and the opponents' it caught)."""
        return [m for m in self.current(state) if seat in m.seen_by]

    def offered(self, table: Table, seat: int) -> list[str]:
        """The señas ``seat`` may make now: held by its hand, not yet made, in an open phase."""
        state = table.state
        if not isinstance(state, MusState) or not table.options.get("senas") \
                or table.status != "playing" or not rules.open_now(state.phase):
            return []
        mine = [m for m in self.current(state) if m.seat == seat]
        if len(mine) >= rules.PER_HAND:
            return []
        done = {m.sena for m in mine}
        return [s for s in rules.held(state.hands[seat]) if s not in done]

    def received(self, state: MusState, seat: int) -> dict[int, list[str]]:
        """Per seat, the señas ``seat`` saw it make with its current hand (for the AI)."""
        out: dict[int, list[str]] = {}
        for m in self.seen(state, seat):
            out.setdefault(m.seat, []).append(m.sena)
        return out


#: The live books by table id (the presenter's records own them; a book goes with its record).
BOOKS: weakref.WeakValueDictionary[int, SenaBook] = weakref.WeakValueDictionary()


def known_to(table: Table, seat: int) -> dict[int, list[str]] | None:
    """The señas ``seat`` saw with the current hands (for its AI's search), or None."""
    book = BOOKS.get(table.id)
    if book is None or not isinstance(table.state, MusState) or not book.made:
        return None
    return book.received(table.state, seat) or None

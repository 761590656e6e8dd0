"""The señas made at one Mus table (option ``senas``; rules: ``bot.rules.mus.senas``).

Kept beside the table, never in the rules state: a seña is a gesture between partners, checked
against the hand that makes it (it must be truthful) and seen by the partner and, by the fixed
chance of ``bot.rules.mus.senas.caught``, by each opponent. Only the current hand's señas matter
(a hand is the deal and its mus round: a discard makes a new hand).

The book is the table's (``Table.senas``); ``TableService.make_sena`` stores a seña
(``bot.store.senas``) before the book holds it, and a resumed table's book is read back from the
store (``restore``): a restart forgets no seña, and the per-hand limits hold across it.
"""

from __future__ import annotations

from collections.abc import Iterable
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
NOT_YOUR_TURN = N_("It is not your turn: a seña is made on your turn, with your move.")


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

    def check(self, table: Table, seat: int, sena: str, on_turn: bool = True) -> Made:
        """``seat``'s ``sena`` as it would be made now (truthful, in an open phase, the option on,
        and with ``on_turn`` by the seat to act), not yet in the book (``add``); else raise
        ``SenaRefused``. Who sees it is drawn by ``bot.rules.mus.senas.caught``."""
        state = table.state  # the option exists only for Mus
        if not isinstance(state, MusState) or not table.options.get("senas"):
            raise SenaRefused(OFF)
        if table.status != "playing" or not rules.open_now(state.phase):
            raise SenaRefused(CLOSED)
        if on_turn and seat not in table.to_act():
            raise SenaRefused(NOT_YOUR_TURN)
        if not rules.holds(sena, state.hands[seat]):
            raise SenaRefused(UNTRUE)
        mine = [m for m in self.current(state) if m.seat == seat]
        if any(m.sena == sena for m in mine):
            raise SenaRefused(REPEATED)
        if len(mine) >= rules.PER_HAND:
            raise SenaRefused(TOO_MANY)
        return self._made(table, state, seat, sena)

    @staticmethod
    def _made(table: Table, state: MusState, seat: int, sena: str) -> Made:
        k, mus_round = int(state.k), int(state.mus_round)
        seed = table.seed or 0
        seen = {rules.partner(seat)} | {o for o in rules.opponents(seat)
                                        if rules.caught(seed, k, mus_round, seat, sena, o)}
        return Made((k, mus_round), seat, sena, frozenset(seen))

    def add(self, made: Made) -> None:
        """Hold ``made`` (checked, and stored by the caller); older hands' señas are dropped."""
        self.made = [m for m in self.made if m.hand == made.hand]
        self.made.append(made)
        self.serial += 1

    def count(self, hand: tuple[int, int]) -> int:
        """How many señas the book holds for ``hand``."""
        return sum(m.hand == hand for m in self.made)

    def restore(self, table: Table, made: Iterable[tuple[int, str]]) -> None:
        """The current hand's señas as stored (seat, seña), in the order they were made."""
        state = table.state
        if isinstance(state, MusState):
            self.made = [self._made(table, state, seat, sena) for seat, sena in made]
            self.serial += 1

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


def hand_now(table: Table) -> tuple[int, int] | None:
    """The current hand (deal, mus round) of a Mus table with the ``senas`` option, else None."""
    state = table.state
    if not isinstance(state, MusState) or not table.options.get("senas"):
        return None
    return int(state.k), int(state.mus_round)


def known_to(table: Table, seat: int) -> dict[int, list[str]] | None:
    """The señas ``seat`` saw with the current hands (for its AI's search), or None."""
    book = table.senas
    if not isinstance(table.state, MusState) or not book.made:
        return None
    return book.received(table.state, seat) or None

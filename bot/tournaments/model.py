"""A tournament as plain data: its entrants (a player, or a Mus pair) and its round tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CLUB = "club"
SWISS = "swiss"
FORMATS = (CLUB, SWISS)

#: Statuses of an event and of one of its round tables.
LOBBY, RUNNING, FINISHED, CANCELLED = "lobby", "running", "finished", "cancelled"
OPEN, DONE, FORFEIT = "open", "done", "forfeit"


@dataclass
class Member:
    """One member of an entrant: a Discord user, the name shown, and the partner they named (pairs)."""

    user_id: int
    name: str
    partner_id: int | None = None


@dataclass
class Entrant:
    """Who is ranked: a player, or a Mus pair (two members, both paid).

    ``first_round``: the first round they may be seated in (a late joiner waits for the next);
    ``left_after``: the last round they played before leaving (None while they take part).
    """

    id: int
    members: list[Member]
    first_round: int = 1
    left_after: int | None = None

    @property
    def names(self) -> str:
        """Their names, joined ("Ana & Bea" for a pair)."""
        return " & ".join(m.name for m in self.members)

    def complete(self, team_size: int) -> bool:
        """True when every member has registered (a Mus pair needs both)."""
        return len(self.members) >= team_size

    def plays_in(self, round_no: int, team_size: int) -> bool:
        """Whether they are seated in round ``round_no``."""
        return (
            self.complete(team_size)
            and self.first_round <= round_no
            and (self.left_after is None or round_no <= self.left_after)
        )


@dataclass
class RoundTable:
    """One table of one round: its entrants (in seating order), its table id once opened, and
    its outcome: ``results`` per entrant (net of the seats they held) when ``done``; a ``forfeit``
    scores nothing for anyone (see docs/tournaments.md)."""

    round: int
    index: int
    entrants: list[int]
    table_id: int | None = None
    status: str = OPEN
    results: list[int] | None = None
    attempts: int = 0


@dataclass
class Tournament:
    """One event. ``round`` is the round under way (0 before the start). What it has told is kept
    with it (a restart neither repeats nor skips it): ``reported``, the last round whose standings
    were posted; ``final_reported``, its final standings and winners; ``channel_lost``, Tapis lost its
    channel (its entrants are told by DM instead)."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    buy_in: int
    round_minutes: int
    starts_at: float | None
    status: str
    created_at: float
    seed: int
    round: int = 0
    round_deadline: float | None = None
    settled: bool = False
    language: str = "en"
    reported: int = 0
    final_reported: bool = False
    channel_lost: bool = False
    entrants: list[Entrant] = field(default_factory=list)
    tables: list[RoundTable] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        """Not finished nor cancelled."""
        return self.status in (LOBBY, RUNNING)

    def entrant_of(self, user_id: int) -> Entrant | None:
        """The entrant ``user_id`` belongs to, if any."""
        for e in self.entrants:
            if any(m.user_id == user_id for m in e.members):
                return e
        return None

    def seated(self, entrant_id: int) -> bool:
        """Whether the entrant was ever seated at a round table (played, playing or forfeited)."""
        return any(entrant_id in t.entrants for t in self.tables)

    def round_tables(self, round_no: int) -> list[RoundTable]:
        """The tables of one round, in order."""
        return [t for t in self.tables if t.round == round_no]

    def table_for(self, table_id: int) -> RoundTable | None:
        """The round table played at table ``table_id``."""
        for t in self.tables:
            if t.table_id == table_id:
                return t
        return None
